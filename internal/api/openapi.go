package api

import (
	_ "embed"
	"net/http"
)

// openAPI describes every /api route; TestOpenAPIMatchesRoutes keeps it true.
//
//go:embed openapi.json
var openAPI []byte

func serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(openAPI)
}

package app

import (
	"log/slog"
	"net/http"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/hub"
	"github.com/pitlane/pitlane/internal/stats"
)

// extractHandler is wired when the extractor lands.
func extractHandler(cfg config.Config, st *stats.Service, h *hub.Hub, log *slog.Logger) (http.Handler, error) {
	return nil, nil
}

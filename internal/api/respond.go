package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/pitlane/pitlane/internal/errs"
)

// statusOf is the one table from error kinds to HTTP statuses.
var statusOf = map[string]int{
	errs.Invalid:       http.StatusBadRequest,
	errs.Unauthorized:  http.StatusUnauthorized,
	errs.Forbidden:     http.StatusForbidden,
	errs.NotFound:      http.StatusNotFound,
	errs.Conflict:      http.StatusConflict,
	errs.TooLarge:      http.StatusRequestEntityTooLarge,
	errs.Unsupported:   http.StatusUnsupportedMediaType,
	errs.Unprocessable: http.StatusUnprocessableEntity,
	errs.RateLimited:   http.StatusTooManyRequests,
	errs.Upstream:      http.StatusBadGateway,
	errs.Unavailable:   http.StatusServiceUnavailable,
	errs.Internal:      http.StatusInternalServerError,
}

// writeError answers {"message": ...} with the status of err's kind, and
// the problems it lists when it has some ({"message", "problems": [...]}).
// Only internal errors are logged, and their details never leave the server.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	kind := errs.KindOf(err)
	if kind == errs.Internal && errs.Transient(err) {
		// A dependency that went away, by a path that did not say so.
		slog.WarnContext(r.Context(), "dependency unavailable", slog.String("path", r.URL.Path), slog.Any("err", err))
		err = errs.E(errs.Unavailable, "The service is temporarily unavailable. Please try again shortly.")
		kind = errs.Unavailable
	}
	status, ok := statusOf[kind]
	if !ok {
		status = http.StatusInternalServerError
	}
	if kind == errs.Internal {
		slog.ErrorContext(r.Context(), "internal error", slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	var e *errs.Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if problems := errs.ProblemsOf(err); len(problems) > 0 {
		writeJSON(w, status, map[string]any{"message": errs.MessageOf(err), "problems": problems})
		return
	}
	writeJSON(w, status, map[string]string{"message": errs.MessageOf(err)})
}

// writeJSON encodes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// MaxJSONBody bounds every JSON request body.
const MaxJSONBody = 1 << 20

// decode reads one JSON object into dst: at most 1 MB, no unknown fields, no
// trailing data, and a message that says which field was wrong.
func decode(w http.ResponseWriter, r *http.Request, dst any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return errs.E(errs.Unsupported, "Content-Type must be application/json")
	}
	body := http.MaxBytesReader(w, r.Body, MaxJSONBody)
	return decodeJSON(body, dst)
}

// decodeJSON is decode's parser, separate so fuzz tests can reach it.
func decodeJSON(body io.Reader, dst any) error {
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return errs.E(errs.Invalid, "Request body must be a single JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return errs.E(errs.Invalid, "Request body must be a single JSON object")
	}
	return nil
}

func jsonError(err error) error {
	var (
		syntax  *json.SyntaxError
		typeErr *json.UnmarshalTypeError
		maxErr  *http.MaxBytesError
	)
	switch {
	case errors.As(err, &maxErr):
		return errs.E(errs.TooLarge, "Request body must be at most 1 MB")
	case errors.Is(err, io.EOF):
		return errs.E(errs.Invalid, "Request body must not be empty")
	case errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, &syntax):
		return errs.E(errs.Invalid, "Request body is not valid JSON")
	case errors.As(err, &typeErr):
		if typeErr.Field != "" {
			return errs.E(errs.Invalid, "Field %q must be a %s", typeErr.Field, jsonType(typeErr.Type.Kind().String()))
		}
		return errs.E(errs.Invalid, "Request body must be a JSON object")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return errs.E(errs.Invalid, "Unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	case strings.Contains(err.Error(), "must be a string or a number"):
		return errs.E(errs.Invalid, "%s", err.Error())
	}
	return errs.E(errs.Invalid, "Request body is not valid: %s", strings.TrimPrefix(err.Error(), "json: "))
}

func jsonType(kind string) string {
	switch kind {
	case "int", "int64", "int32", "float64", "float32":
		return "number"
	case "bool":
		return "boolean"
	case "string":
		return "string"
	case "slice":
		return "list"
	}
	return fmt.Sprint(kind)
}

// pathID reads a numeric path parameter; anything else is an unknown thing.
func pathID(r *http.Request, param, what string) (int64, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, param), 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.E(errs.NotFound, "%s not found", what)
	}
	return id, nil
}

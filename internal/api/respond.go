package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

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

// StatusClientClosedRequest is the status a request line shows when its
// client went away before the answer (nginx's 499): nothing was wrong here.
const StatusClientClosedRequest = 499

// writeError answers {"message": ...} with the status of err's kind, and
// the problems it lists when it has some ({"message", "problems": [...]}).
// Only internal errors are logged, and their details never leave the server.
// A request whose client went away (its context cancelled: a closed tab, a
// page navigated away) and whose work failed for that reason is no fault:
// it is logged at Debug and answered 499, never as a 5xx that would page
// someone.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	ctx, log := r.Context(), logOf(r.Context())
	kind := errs.KindOf(err)
	if clientGone(r) && (errors.Is(err, context.Canceled) || kind == errs.Unavailable || errs.Transient(err)) {
		log.DebugContext(ctx, "client went away", slog.String("path", r.URL.Path), slog.Any("err", err))
		writeJSON(w, StatusClientClosedRequest, map[string]string{"message": "Client closed request"})
		return
	}
	if kind == errs.Internal && errs.Transient(err) {
		// A dependency that went away, by a path that did not say so.
		log.WarnContext(ctx, "dependency unavailable", slog.String("path", r.URL.Path), slog.Any("err", err))
		err = errs.E(errs.Unavailable, "The service is temporarily unavailable. Please try again shortly.")
		kind = errs.Unavailable
	}
	status, ok := statusOf[kind]
	if !ok {
		status = http.StatusInternalServerError
	}
	if kind == errs.Internal {
		log.ErrorContext(ctx, "internal error", slog.String("path", r.URL.Path), slog.Any("err", err))
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

// logKey holds the server's logger in a request's context (logRequests).
type logKey struct{}

// logOf is the server's logger that logRequests put in a request's
// context (the default one elsewhere).
func logOf(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(logKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// clientGone tells a request whose client went away: the server cancels
// its context when the connection closes (or an HTTP/2 stream is reset).
func clientGone(r *http.Request) bool { return errors.Is(r.Context().Err(), context.Canceled) }

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

// decodeJSON is decode's parser, separate so fuzz tests can reach it. A
// string holding a control character other than a tab or a line break (a
// NUL above all, which PostgreSQL cannot store) is refused here, for every
// call, before any of it reaches a service.
func decodeJSON(body io.Reader, dst any) error {
	b, err := io.ReadAll(body)
	if err != nil {
		return jsonError(err, dst)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err, dst)
	}
	if dec.More() {
		return errs.E(errs.Invalid, "Request body must be a single JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return errs.E(errs.Invalid, "Request body must be a single JSON object")
	}
	if field, found := controlIn(b); found {
		if field == "" {
			return errs.E(errs.Invalid, "Request body must not contain control characters other than tabs and line breaks")
		}
		return errs.E(errs.Invalid, "Field %q must not contain control characters other than tabs and line breaks", errs.Echo(field))
	}
	return nil
}

// jsonError is the message of a body dst could not be decoded from; what
// it quotes of the body is cut short (errs.Echo).
func jsonError(err error, dst any) error {
	var (
		syntax    *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
		maxErr    *http.MaxBytesError
		timeErr   *time.ParseError
		unknown   = strings.HasPrefix(err.Error(), "json: unknown field ")
		notString = strings.HasPrefix(err.Error(), "Time.UnmarshalJSON:")
	)
	switch {
	case errors.As(err, &maxErr):
		return errs.E(errs.TooLarge, "Request body must be at most 1 MB")
	case errors.Is(err, io.EOF):
		return errs.E(errs.Invalid, "Request body must not be empty")
	case errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, &syntax):
		return errs.E(errs.Invalid, "Request body is not valid JSON")
	case errors.As(err, &timeErr), notString:
		return timeError(dst)
	case errors.As(err, &typeErr):
		if typeErr.Field != "" {
			return errs.E(errs.Invalid, "Field %q must be a %s", errs.Echo(typeErr.Field), jsonType(typeErr.Type.Kind().String()))
		}
		return errs.E(errs.Invalid, "Request body must be a JSON object")
	case unknown:
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		if u, err := strconv.Unquote(name); err == nil {
			name = u
		}
		return errs.E(errs.Invalid, "Unknown field %q", errs.Echo(name))
	case strings.Contains(err.Error(), "must be a string or a number"):
		return errs.E(errs.Invalid, "%s", err.Error())
	}
	return errs.E(errs.Invalid, "Request body is not valid: %s", errs.Echo(strings.TrimPrefix(err.Error(), "json: ")))
}

// timeError says how a time is written, naming the field when dst has one
// field of times: Go's own message quotes its layout ("2006-01-02T15:04:05Z07:00"),
// which tells a caller nothing.
func timeError(dst any) error {
	const like = "2026-11-28T20:00:00Z"
	names, plural := timeFields(dst)
	if len(names) != 1 {
		return errs.E(errs.Invalid, "Times must be written like %s", like)
	}
	if plural {
		return errs.E(errs.Invalid, "%q must be times like %s", names[0], like)
	}
	return errs.E(errs.Invalid, "%q must be a time like %s", names[0], like)
}

// timeFields are the JSON names of dst's fields that hold a time or a
// list of times, and whether the one field found is a list.
func timeFields(dst any) (names []string, plural bool) {
	t := reflect.TypeOf(dst)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil, false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		ft, list := f.Type, false
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			list = list || ft.Kind() == reflect.Slice
			ft = ft.Elem()
		}
		if ft != reflect.TypeFor[time.Time]() || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names, plural = append(names, name), list
	}
	return names, plural
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

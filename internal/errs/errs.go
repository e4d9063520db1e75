// Package errs holds the one application error type: a kind that maps to
// an HTTP status in one table (internal/api) and a message safe to show a user.
package errs

import (
	"errors"
	"fmt"
	"io"
	"net"
)

// Error kinds. Each maps to exactly one HTTP status in internal/api.
const (
	Invalid       = "invalid"       // 400: the input breaks a rule
	Unauthorized  = "unauthorized"  // 401: not signed in or bad credentials
	Forbidden     = "forbidden"     // 403: signed in but not allowed
	NotFound      = "not_found"     // 404
	Conflict      = "conflict"      // 409: clashes with the current state
	TooLarge      = "too_large"     // 413
	Unsupported   = "unsupported"   // 415: wrong media type
	Unprocessable = "unprocessable" // 422: understood but unusable
	RateLimited   = "rate_limited"  // 429
	Upstream      = "upstream"      // 502: Gemini, Google, SMTP failed
	Unavailable   = "unavailable"   // 503: a dependency we need is down
	Internal      = "internal"      // 500: never shown in detail
)

// Error is an error a user may see. Anything that is not an *Error is internal.
type Error struct {
	Kind    string
	Message string
	// RetryAfter, in seconds, for RateLimited errors.
	RetryAfter int
	// Problems are the things that stand in the way, one sentence each,
	// when there are several (a phase move's empty roster slots): the
	// answer lists them beside the message.
	Problems []string
}

func (e *Error) Error() string { return e.Kind + ": " + e.Message }

// E builds an *Error of kind with a formatted message.
func E(kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// EchoMax is how many characters of the caller's own input a message quotes.
const EchoMax = 64

// Echo is s as a message may quote it: at most EchoMax characters, an
// ellipsis in place of the rest. Every message that repeats a value the
// caller sent (a name, a letter, a kind, a field) passes it through here, so
// a 10,000-character name never comes back whole.
func Echo(s string) string {
	n := 0
	for i := range s {
		if n == EchoMax {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// Limited builds a RateLimited error that tells the client when to retry.
func Limited(retryAfter int, format string, args ...any) *Error {
	return &Error{Kind: RateLimited, Message: fmt.Sprintf(format, args...), RetryAfter: retryAfter}
}

// WithProblems builds an *Error of kind with a formatted message and the
// problems it sums up.
func WithProblems(kind string, problems []string, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...), Problems: problems}
}

// ProblemsOf returns the problems an error lists, nil for none.
func ProblemsOf(err error) []string {
	var e *Error
	if errors.As(err, &e) {
		return e.Problems
	}
	return nil
}

// Wrap puts an internal cause behind a user-facing error: KindOf and
// MessageOf find user, logs print the cause too.
func Wrap(user *Error, cause error) error {
	if cause == nil {
		return user
	}
	return &wrapped{user: user, cause: cause}
}

type wrapped struct {
	user  *Error
	cause error
}

func (w *wrapped) Error() string   { return w.user.Error() + ": " + w.cause.Error() }
func (w *wrapped) Unwrap() []error { return []error{w.user, w.cause} }

// KindOf returns the kind of err, Internal for anything not an *Error.
func KindOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// MessageOf returns the user-facing message, a generic one for internal errors.
func MessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}

// Transient tells a connection that failed or was lost (refused, reset,
// closed mid-answer, timed out on the network) from a failure of the work
// itself: the first is a dependency being down, worth a 503 and a retry.
func Transient(err error) bool {
	var netErr net.Error
	return err != nil && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.As(err, &netErr))
}

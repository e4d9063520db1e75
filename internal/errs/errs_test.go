package errs

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
)

func TestTransient(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("duplicate key"), false},
		{E(Invalid, "bad"), false},
		{io.ErrUnexpectedEOF, true},
		{fmt.Errorf("read: %w", io.EOF), true},
		{fmt.Errorf("dial: %w", refused), true},
		{net.ErrClosed, true},
	} {
		if got := Transient(c.err); got != c.want {
			t.Errorf("Transient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestWrapShowsTheUserErrorAndKeepsTheCause(t *testing.T) {
	cause := errors.New("pq: deadlock detected")
	err := Wrap(E(Internal, "Failed to save stats"), cause)
	if KindOf(err) != Internal || MessageOf(err) != "Failed to save stats" || !errors.Is(err, cause) {
		t.Fatalf("kind %q message %q cause kept %v", KindOf(err), MessageOf(err), errors.Is(err, cause))
	}
	if Wrap(E(Invalid, "x"), nil).Error() != "invalid: x" {
		t.Fatal("Wrap of no cause is the user error")
	}
}

func TestEchoQuotesAtMost64Characters(t *testing.T) {
	long := strings.Repeat("é", 10_000)
	for in, want := range map[string]string{
		"":                      "",
		"PPL7":                  "PPL7",
		strings.Repeat("a", 64): strings.Repeat("a", 64),
		strings.Repeat("a", 65): strings.Repeat("a", 64) + "…",
		long:                    strings.Repeat("é", 64) + "…",
	} {
		if got := Echo(in); got != want {
			t.Errorf("Echo(%.20q…) = %.80q, want %.80q", in, got, want)
		}
	}
}

package errs

import (
	"errors"
	"fmt"
	"io"
	"net"
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

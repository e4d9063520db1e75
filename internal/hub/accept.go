package hub

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
)

// Buffer sizes for hijacked connections. net/http hands over 4 KiB for each
// direction, kept for the connection's whole life; client frames are small
// and events rarely pass 1 KiB, and bigger ones bypass bufio anyway. This
// is most of what keeps an idle connection near 10 KiB.
const (
	readBufSize  = 512
	writeBufSize = 1024
)

// hijackWriter wraps the ResponseWriter given to websocket.Accept to keep
// the raw connection (so Shutdown can cut a handshake short) and to swap
// net/http's buffers for smaller ones.
type hijackWriter struct {
	http.ResponseWriter
	conn net.Conn
}

func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.conn = conn
	if err := brw.Writer.Flush(); err != nil {
		return nil, nil, err
	}
	// Bytes the client sent right after its handshake are already in
	// net/http's reader. They must end up in the new reader's buffer:
	// websocket.Accept keeps what is buffered and reads the rest from conn.
	n := brw.Reader.Buffered()
	b, _ := brw.Reader.Peek(n)
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(bytes.Clone(b)), conn), max(readBufSize, n))
	if _, err := br.Peek(n); err != nil {
		return nil, nil, err
	}
	return conn, bufio.NewReadWriter(br, bufio.NewWriterSize(conn, writeBufSize)), nil
}

func (w *hijackWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

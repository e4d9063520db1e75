package hub

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"sync"
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
	cork *corkWriter // what the websocket's writes are flushed into
}

func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.conn = conn
	w.cork = &corkWriter{conn: conn}
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
	return conn, bufio.NewReadWriter(br, bufio.NewWriterSize(w.cork, writeBufSize)), nil
}

func (w *hijackWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// corkWriter is what the websocket's bufio.Writer flushes into (every
// message is flushed). It writes through, except between cork and uncork,
// when it gathers what is flushed so that uncork sends several queued
// frames in one write(2): under a backlog (broadcasts that overlap, a replay
// after since) the syscall per frame is most of a connection's cost. Writes
// of the websocket's own control frames meanwhile (pong, ping, close) join
// the batch in their order.
type corkWriter struct {
	conn   net.Conn
	mu     sync.Mutex
	corked bool
	buf    *[]byte // while corked; from corkBufs
}

var corkBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func (w *corkWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.corked {
		*w.buf = append(*w.buf, p...)
		return len(p), nil
	}
	return w.conn.Write(p)
}

func (w *corkWriter) cork() {
	w.mu.Lock()
	w.corked = true
	w.buf = corkBufs.Get().(*[]byte)
	w.mu.Unlock()
}

// uncork writes what was gathered and writes through again.
func (w *corkWriter) uncork() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.corked = false
	b := w.buf
	w.buf = nil
	var err error
	if len(*b) > 0 {
		_, err = w.conn.Write(*b)
	}
	if cap(*b) <= 64<<10 {
		*b = (*b)[:0]
		corkBufs.Put(b)
	}
	return err
}

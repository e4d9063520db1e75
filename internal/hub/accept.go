package hub

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
)

// Buffer sizes for hijacked connections. net/http hands over 4 KiB for each
// direction, kept for the connection's whole life; client frames are small
// and the websocket library only writes its own control frames (ping, pong,
// close) through its writer, since the hub writes its frames itself. This is
// most of what keeps an idle connection near 10 KiB.
const (
	readBufSize  = 512
	writeBufSize = 256
)

// hijackWriter wraps the ResponseWriter given to websocket.Accept to put a
// frameWriter under the connection, to swap net/http's buffers for smaller
// ones and to bound the socket's send buffer to sendBuf bytes (> 0).
type hijackWriter struct {
	http.ResponseWriter
	sendBuf int
	out     *frameWriter
	// sendBufErr is why the socket kept the kernel's send buffer, if it did.
	sendBufErr error
}

func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.out = newFrameWriter(conn)
	if w.sendBuf > 0 {
		w.sendBufErr = setSendBuffer(conn, w.sendBuf)
	}
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
	return conn, bufio.NewReadWriter(br, bufio.NewWriterSize(w.out, writeBufSize)), nil
}

// setSendBuffer sets the socket's SO_SNDBUF, which also turns the kernel's
// autotuning of it off: a write that finds the buffer full then fails at
// once, and the frame waits in the client's queue, whose bounds close a
// client that does not keep up (1013) instead of letting the kernel hold
// megabytes for it.
func setSendBuffer(conn net.Conn, n int) error {
	if tc, ok := conn.(interface{ NetConn() net.Conn }); ok {
		conn = tc.NetConn() // TLS: the socket is underneath
	}
	sc, ok := conn.(interface{ SetWriteBuffer(int) error })
	if !ok {
		return errors.New("the connection has no socket send buffer to bound")
	}
	return sc.SetWriteBuffer(n)
}

func (w *hijackWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// frameWriter owns a connection's socket for writing. The hub's frames are
// websocket frames encoded once per event (see wireText) and shared by every
// subscriber, so they go to the socket as they are, with no per-client
// encoding: writeNowLocked tries once and never waits (a broadcast writes to
// thousands of sockets from a few goroutines), writeBlocking waits (the
// client's writeLoop, for a socket that is full). The websocket library's
// own frames (ping, pong, close) come through Write, in their order.
type frameWriter struct {
	conn net.Conn
	raw  syscall.RawConn // to write without waiting; nil when conn has no descriptor

	mu sync.Mutex
	// rest is the unwritten tail of a write the socket took only in part.
	// It goes out before anything else; only the writer owning the
	// connection's frames (or Write) finishes it.
	rest []byte
	// closeSent: the close frame went out, and no data may follow it.
	closeSent bool
}

func newFrameWriter(conn net.Conn) *frameWriter {
	w := &frameWriter{conn: conn}
	if sc, ok := conn.(syscall.Conn); ok {
		w.raw, _ = sc.SyscallConn()
	}
	return w
}

// opClose is the first byte of a final close frame.
const opClose = 0x88

// Write is where the websocket library's writer flushes its frames. Each
// flush is one whole control frame, so its first byte tells a close.
func (w *frameWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.finishLocked(); err != nil {
		return 0, err
	}
	if len(p) > 0 && p[0] == opClose {
		w.closeSent = true
	}
	return w.conn.Write(p)
}

// finishLocked writes what is left of an earlier write, waiting if need be.
func (w *frameWriter) finishLocked() error {
	if len(w.rest) == 0 {
		return nil
	}
	_, err := w.conn.Write(w.rest)
	if cap(w.rest) > 4096 {
		w.rest = nil
	} else {
		w.rest = w.rest[:0]
	}
	return err
}

// finish writes what is left of an earlier write, waiting if need be.
func (w *frameWriter) finish() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.finishLocked()
}

// pending tells whether part of an earlier write is still to go.
func (w *frameWriter) pending() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.rest) > 0
}

// writeBlocking writes frames in order, in one writev(2) when there are
// several, waiting for the socket as long as it takes (the hub's sweeper
// bounds that by closing the connection).
func (w *frameWriter) writeBlocking(frames [][]byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.finishLocked(); err != nil {
		return err
	}
	if w.closeSent {
		return net.ErrClosed
	}
	if len(frames) == 1 {
		_, err := w.conn.Write(frames[0])
		return err
	}
	bufs := net.Buffers(frames)
	_, err := bufs.WriteTo(w.conn)
	return err
}

// joinBufs holds the scratch buffers that join several frames for one write.
var joinBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// writeNowLocked writes frames in order with one write(2) that does not
// wait. done reports that the socket took all of it; otherwise what it did
// not take is kept in rest, for a writer that may wait.
func (w *frameWriter) writeNowLocked(frames [][]byte) (done bool, err error) {
	if w.closeSent {
		return false, net.ErrClosed
	}
	b := frames[0]
	var joined *[]byte
	if len(frames) > 1 {
		joined = joinBufs.Get().(*[]byte)
		for _, f := range frames {
			*joined = append(*joined, f...)
		}
		b = *joined
		defer func() {
			if cap(*joined) <= 64<<10 {
				*joined = (*joined)[:0]
				joinBufs.Put(joined)
			}
		}()
	}
	n := 0
	if len(w.rest) == 0 && w.raw != nil {
		if n, err = writeOnce(w.raw, b); err != nil {
			return false, err
		}
	}
	if n == len(b) {
		return true, nil
	}
	w.rest = append(w.rest, b[n:]...) // a copy: b is shared or pooled
	return false, nil
}

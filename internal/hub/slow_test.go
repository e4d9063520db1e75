package hub

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/core"
)

// smallRecvBuf makes a client whose socket receive window is tiny; it must
// be set before connecting to bound the TCP window.
func smallRecvBuf() *websocket.DialOptions {
	d := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	return &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}}
}

// keepSocket dials as usual and hands the client's TCP socket to *dst, so
// the test can read what the kernel gave it.
func keepSocket(dst **net.TCPConn) *websocket.DialOptions {
	var d net.Dialer
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if tc, ok := c.(*net.TCPConn); ok {
			*dst = tc
		}
		return c, err
	}
	return &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dial}}}
}

// sockopt reads an integer socket option of c.
func sockopt(t *testing.T, c *net.TCPConn, opt int) int {
	t.Helper()
	rc, err := c.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var v int
	var serr error
	if err := rc.Control(func(fd uintptr) { v, serr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, opt) }); err != nil {
		t.Fatal(err)
	}
	if serr != nil {
		t.Fatal(serr)
	}
	return v
}

func TestSlowConsumer(t *testing.T) {
	t.Parallel()

	// A client that never reads is closed with 1013 once its socket and
	// its queue are full, and the socket holds no more than SendBuffer
	// (twice that on Linux, which doubles it for its bookkeeping): what it
	// has been sent by then is that, its own receive buffer and the write
	// in progress. A client that reads gets every event meanwhile. Both
	// sockets keep the kernel's defaults: only the hub sets the size.
	t.Run("SlowReaderClosedWith1013OthersUnaffected", func(t *testing.T) {
		opts := Options{}.withDefaults()
		h, srv := startHub(t, Options{})

		var slowSock *net.TCPConn
		slow := dialWith(t, srv, keepSocket(&slowSock))
		fast := dial(t, srv)
		slow.subscribe([]string{core.TopicDeck}, nil)
		fast.subscribe([]string{core.TopicDeck}, nil)

		// The fast client checks the order of what it reads; the publisher
		// lets it fall at most 64 events behind, so it keeps up however
		// slowly this machine runs it.
		var read atomic.Int64
		bad := make(chan string, 1)
		go func() {
			for want := int64(1); ; want++ {
				f, err := fast.read(30 * time.Second)
				if err != nil {
					return
				}
				if f.Type != "event" || f.Seq != want {
					bad <- fmt.Sprintf("fast client got %+v, want event seq %d", f, want)
					return
				}
				read.Store(want)
			}
		}()
		var seq int64
		var sent int // bytes of JSON frames published
		var slowest time.Duration
		publishOne := func() {
			t.Helper()
			payload := map[string]string{"text": strings.Repeat("x", 2000)}
			start := time.Now()
			publish(t, h, core.TopicDeck, "slide.changed", payload)
			slowest = max(slowest, time.Since(start))
			seq++
			sent += 2048 // about: the 2000 bytes and the frame around them
			for read.Load() < seq-64 {
				select {
				case msg := <-bad:
					t.Fatal(msg)
				case <-time.After(time.Millisecond):
				}
			}
		}

		// What the kernel holds for the client: the send buffer (doubled),
		// its receive buffer and a batch being written. The kernel counts
		// memory, not bytes of data, and lets a buffer go past its size by
		// a packet (64 KiB on loopback), so half as much again is allowed.
		// Without a bound on the send buffer the kernel grows it to
		// megabytes (4 MiB by default on Linux) before the queue sees a
		// frame: the cut comes well after this.
		buffers := func(rcvBuf int) int { return (2*opts.SendBuffer + rcvBuf + maxBatch*2048) * 3 / 2 }
		rcvBuf := sockopt(t, slowSock, syscall.SO_RCVBUF)
		bound := opts.QueueBytes + buffers(rcvBuf)
		for counterValue(h.metrics.slowCloses) == 0 {
			if sent > 2*bound {
				t.Fatalf("the never-reading client is not cut off after %d KB were published to it (queue %d KB, send buffer %d KB, its receive buffer %d KB)",
					sent>>10, opts.QueueBytes>>10, opts.SendBuffer>>10, rcvBuf>>10)
			}
			publishOne()
		}
		cutAt := sent
		if cutAt > bound {
			t.Errorf("cut off after %d KB were published, want at most %d KB (queue, send buffer, its receive buffer, one batch)", cutAt>>10, bound>>10)
		}
		// Publishing goes on: the fast client gets every event, in order.
		for range 200 {
			publishOne()
		}
		eventually(t, 10*time.Second, "the fast client to read every event", func() bool { return read.Load() == seq })
		// A Publish that waited for the slow client would wait until the
		// sweeper dropped it.
		if slowest >= opts.WriteTimeout {
			t.Errorf("a Publish took %v; publishing must not wait for slow clients", slowest)
		}

		// What reached the slow client before its close is what the
		// kernel held for it (its receive buffer now at rcvBuf).
		rcvBuf = sockopt(t, slowSock, syscall.SO_RCVBUF)
		held := 0
		for {
			_, b, err := slow.conn.Read(context.Background())
			if err != nil {
				if got := websocket.CloseStatus(err); got != websocket.StatusTryAgainLater {
					t.Fatalf("slow client's connection ended with %v (%v), want close 1013", got, err)
				}
				break
			}
			held += len(b)
		}
		if limit := buffers(rcvBuf); held > limit {
			t.Errorf("the never-reading client got %d KB before its close; the sockets should hold at most %d KB (send buffer %d KB doubled, its receive buffer %d KB, one batch, half as much again)",
				held>>10, limit>>10, opts.SendBuffer>>10, rcvBuf>>10)
		}
		t.Logf("cut off after %d KB published; %d KB reached it before the close", cutAt>>10, held>>10)
	})
}

// A client that stops reading while its queue never overflows is dropped
// once a write has waited WriteTimeout. The socket's send buffer is the
// hub's default: a megabyte is far more than it and the client's receive
// buffer hold, so a write must wait.
func TestStuckWriteDropsConnection(t *testing.T) {
	t.Parallel()
	h, srv := startHub(t, Options{WriteTimeout: 200 * time.Millisecond, QueueLen: 10000, QueueBytes: 64 << 20})
	c := dial(t, srv)
	c.subscribe([]string{core.TopicDeck}, nil)
	payload := map[string]string{"text": strings.Repeat("x", 4000)}
	for range 250 {
		publish(t, h, core.TopicDeck, "slide.changed", payload)
	}
	eventually(t, 5*time.Second, "the stuck connection to be dropped", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.clients) == 0
	})
	if n := counterValue(h.metrics.slowCloses); n != 0 {
		t.Fatalf("slow-consumer closes = %v; the write timeout should have acted", n)
	}
}

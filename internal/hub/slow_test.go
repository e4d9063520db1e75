package hub

import (
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pitlane/pitlane/internal/core"
)

// smallBufListener shrinks the server side's socket send buffer so a client
// that stops reading backs up into the hub's queue quickly.
type smallBufListener struct{ net.Listener }

func (l smallBufListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

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

func TestSlowConsumer(t *testing.T) {
	t.Parallel()

	t.Run("SlowReaderClosedWith1013OthersUnaffected", func(t *testing.T) {
		h, srv := startSmallBufHub(t, Options{QueueLen: 64, QueueBytes: 256 << 10})

		slow := dialWith(t, srv, smallRecvBuf())
		fast := dial(t, srv)
		slow.subscribe([]string{core.TopicDeck}, nil)
		fast.subscribe([]string{core.TopicDeck}, nil)

		const n = 400 // 800 KB: far more than the slow client's buffers and queue
		received := make(chan int64, n)
		go func() {
			defer close(received)
			for range n {
				f, err := fast.read(10 * time.Second)
				if err != nil || f.Type != "event" {
					return
				}
				received <- f.Seq
			}
		}()

		payload := map[string]string{"text": strings.Repeat("x", 2000)}
		var slowest time.Duration
		for range n {
			start := time.Now()
			publish(t, h, core.TopicDeck, "slide.changed", payload)
			slowest = max(slowest, time.Since(start))
			time.Sleep(200 * time.Microsecond) // a pace a healthy client keeps up with
		}
		if slowest > 100*time.Millisecond {
			t.Errorf("a Publish took %v; publishing must not wait for slow clients", slowest)
		}
		want := int64(1)
		for seq := range received {
			if seq != want {
				t.Fatalf("fast client got seq %d, want %d", seq, want)
			}
			want++
		}
		if want != n+1 {
			t.Fatalf("fast client got %d events, want %d", want-1, n)
		}
		eventually(t, 5*time.Second, "the slow consumer to be cut off", func() bool {
			return counterValue(h.metrics.slowCloses) == 1
		})
		// The slow client now reads what was written before the close.
		slow.expectClose(websocket.StatusTryAgainLater, 10*time.Second)
	})
}

func TestStuckWriteDropsConnection(t *testing.T) {
	t.Parallel()
	h, srv := startSmallBufHub(t, Options{WriteTimeout: 200 * time.Millisecond, QueueLen: 10000, QueueBytes: 64 << 20})
	c := dialWith(t, srv, smallRecvBuf())
	c.subscribe([]string{core.TopicDeck}, nil)
	// The client stops reading; the queue is large enough never to
	// overflow, so only the write timeout can free the hub of it.
	payload := map[string]string{"text": strings.Repeat("x", 4000)}
	for range 100 {
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

package hub

import (
	"bytes"
	"fmt"
	"net"
	"testing"

	"github.com/pitlane/pitlane/internal/core"
)

// countingConn records each write(2) the corkWriter would make.
type countingConn struct {
	net.Conn
	writes [][]byte
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, bytes.Clone(p))
	return len(p), nil
}

func TestCorkWriter(t *testing.T) {
	conn := &countingConn{}
	w := &corkWriter{conn: conn}
	t.Run("WritesThroughWhenNotCorked", func(t *testing.T) {
		_, _ = w.Write([]byte("a"))
		_, _ = w.Write([]byte("b"))
		if len(conn.writes) != 2 {
			t.Fatalf("%d writes, want 2", len(conn.writes))
		}
	})
	t.Run("SeveralFramesGoInOneWriteInOrder", func(t *testing.T) {
		conn.writes = nil
		w.cork()
		for _, s := range []string{"one", "two", "three"} {
			_, _ = w.Write([]byte(s))
		}
		if len(conn.writes) != 0 {
			t.Fatal("wrote while corked")
		}
		if err := w.uncork(); err != nil {
			t.Fatal(err)
		}
		if len(conn.writes) != 1 || string(conn.writes[0]) != "onetwothree" {
			t.Fatalf("writes %q", conn.writes)
		}
		_, _ = w.Write([]byte("after"))
		if len(conn.writes) != 2 {
			t.Fatal("not writing through after uncork")
		}
	})
}

// A replay longer than a batch goes out batched, every frame whole and in
// order, and live events follow it.
func TestLongReplayIsBatchedInOrder(t *testing.T) {
	h, srv := startHub(t, Options{})
	const n = 5*maxBatch + 3
	for i := 1; i <= n; i++ {
		publish(t, h, core.TopicDeck, "slide.changed", map[string]string{"pad": fmt.Sprintf("%0*d", 40+i%7, i)})
	}
	c := dial(t, srv)
	got := c.subscribe([]string{core.TopicDeck}, map[string]int64{core.TopicDeck: 0})
	if len(got) != n {
		t.Fatalf("replayed %d frames, want %d", len(got), n)
	}
	for i, f := range got {
		if f.Type != "event" || f.Seq != int64(i+1) || !bytes.Contains(f.Data, []byte(fmt.Sprintf("%d\"", i+1))) {
			t.Fatalf("frame %d: %+v", i, f)
		}
	}
	publish(t, h, core.TopicDeck, "slide.changed", nil)
	c.expectEvents(core.TopicDeck, n+1, 1)
}

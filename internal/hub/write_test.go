package hub

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
)

// wireText's header is RFC 6455's for a final, unmasked text frame: the
// length in 7 bits, or 126 and 16 bits, or 127 and 64 bits.
func TestWireTextHeaders(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want []byte
	}{
		{0, []byte{0x81, 0}},
		{125, []byte{0x81, 125}},
		{126, []byte{0x81, 126, 0, 126}},
		{65535, []byte{0x81, 126, 0xff, 0xff}},
		{65536, []byte{0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0}},
	} {
		w := wireText(strings.Repeat("x", tc.n))
		if !bytes.Equal(w[:len(tc.want)], tc.want) || len(w) != len(tc.want)+tc.n {
			t.Errorf("%d bytes: header % x, length %d", tc.n, w[:len(tc.want)], len(w))
		}
	}
	ev := newEvent(3, []byte(`{"a":1}`))
	if string(ev.frame()) != `{"a":1}` {
		t.Errorf("frame() = %q", ev.frame())
	}
}

// countingConn records each write the frameWriter makes; it has no file
// descriptor, so nothing is written without waiting.
type countingConn struct {
	net.Conn
	writes []string
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, string(p))
	return len(p), nil
}

func TestFrameWriter(t *testing.T) {
	t.Run("WhatCannotGoNowWaitsForTheNextWriteInOrder", func(t *testing.T) {
		conn := &countingConn{}
		w := newFrameWriter(conn)
		w.mu.Lock()
		done, err := w.writeNowLocked([][]byte{[]byte("one"), []byte("two")})
		w.mu.Unlock()
		if done || err != nil || len(conn.writes) != 0 || !w.pending() {
			t.Fatalf("done %v, err %v, writes %q", done, err, conn.writes)
		}
		if _, err := w.Write([]byte{0x89, 0}); err != nil { // a ping
			t.Fatal(err)
		}
		want := []string{"onetwo", "\x89\x00"}
		if fmt.Sprint(conn.writes) != fmt.Sprint(want) || w.pending() {
			t.Fatalf("writes %q, want %q", conn.writes, want)
		}
	})
	t.Run("NoDataAfterTheCloseFrame", func(t *testing.T) {
		w := newFrameWriter(&countingConn{})
		if _, err := w.Write([]byte{opClose, 2, 0x03, 0xe9}); err != nil {
			t.Fatal(err)
		}
		if err := w.writeBlocking([][]byte{[]byte("late")}); !errors.Is(err, net.ErrClosed) {
			t.Fatalf("data after close: %v", err)
		}
		w.mu.Lock()
		_, err := w.writeNowLocked([][]byte{[]byte("late")})
		w.mu.Unlock()
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("data after close: %v", err)
		}
	})
}

// A client that stops reading for a while gets, once it reads again, every
// event in order and whole: writes the socket took only in part are
// finished before anything else, even when nothing follows them.
//
// Both sockets' buffers are a few KB, whatever the kernel's defaults, so
// that a socket is sure to be full and the big frame sure to be taken in
// part: that is the path under test.
func TestPausedReaderGetsEveryMessageInOrder(t *testing.T) {
	h, srv := startHub(t, Options{SendBuffer: 4096})
	c := dialWith(t, srv, smallRecvBuf())
	c.subscribe([]string{core.TopicDeck}, nil)
	const n = 200 // 2 KB each: 400 KB, far more than both sockets hold
	for i := 1; i <= n; i++ {
		publish(t, h, core.TopicDeck, "slide.changed", map[string]string{"i": fmt.Sprint(i), "pad": strings.Repeat("p", 2000)})
	}
	time.Sleep(100 * time.Millisecond) // the hub has written all it can
	for i, f := range c.expectEvents(core.TopicDeck, 1, n) {
		var d struct{ I, Pad string }
		if err := json.Unmarshal(f.Data, &d); err != nil || d.I != fmt.Sprint(i+1) || len(d.Pad) != 2000 {
			t.Fatalf("event %d: %s", i+1, f.Data)
		}
	}

	// One event bigger than the sockets hold, and nothing after it.
	publish(t, h, core.TopicDeck, "slide.changed", map[string]string{"pad": strings.Repeat("p", 300_000)})
	time.Sleep(100 * time.Millisecond)
	if f := c.expectEvents(core.TopicDeck, n+1, 1)[0]; len(f.Data) < 300_000 {
		t.Fatalf("big event: %d bytes of data", len(f.Data))
	}
}

// Frames of every header size (7, 16 and 64-bit lengths, and either side
// of each bound) reach the client whole.
func TestMessagesOfEveryLengthArriveWhole(t *testing.T) {
	h, srv := startHub(t, Options{QueueBytes: 16 << 20})
	c := dial(t, srv)
	c.subscribe([]string{core.TopicDeck}, nil)
	var pads []int
	for n := range 80 {
		pads = append(pads, n, 65536-160+n*2)
	}
	for _, n := range pads {
		publish(t, h, core.TopicDeck, "slide.changed", map[string]string{"pad": strings.Repeat("p", n)})
	}
	for i, f := range c.expectEvents(core.TopicDeck, 1, len(pads)) {
		var d struct{ Pad string }
		if err := json.Unmarshal(f.Data, &d); err != nil || len(d.Pad) != pads[i] {
			t.Fatalf("event %d: pad of %d, want %d (%v)", i+1, len(d.Pad), pads[i], err)
		}
	}
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

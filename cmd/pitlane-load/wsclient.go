package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"
)

// wsConn is a minimal websocket client (RFC 6455, no extensions). The load
// generator shares two cores with the server it measures, so every
// microsecond it spends per frame is taken from the server: a general
// client library and reflection-based JSON cost about three times as much.
type wsConn struct {
	conn net.Conn
	br   *bufio.Reader
	buf  []byte // the last message, valid until the next read

	wmu sync.Mutex
}

const wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// dialWS connects to target from dialer's local address and upgrades.
func dialWS(ctx context.Context, target string, dialer *net.Dialer) (*wsConn, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	conn, err := dialer.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	nonce := make([]byte, 16)
	_, _ = rand.Read(nonce)
	key := base64.StdEncoding.EncodeToString(nonce)
	req := "GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host +
		"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " +
		key + "\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		conn.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(conn, 1024)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	resp.Body.Close()
	sum := sha1.Sum([]byte(key + wsGUID))
	if resp.StatusCode != http.StatusSwitchingProtocols ||
		resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(sum[:]) {
		conn.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			// The clients come from a few loopback addresses.
			return nil, fmt.Errorf("handshake: %s: the server's bound on websockets per client address; start it with WS_CONNECTIONS_PER_IP=20000 (or 0, no bound)", resp.Status)
		}
		return nil, fmt.Errorf("handshake: %s", resp.Status)
	}
	_ = conn.SetDeadline(time.Time{})
	return &wsConn{conn: conn, br: br}, nil
}

const (
	opText  = 0x1
	opClose = 0x8
	opPing  = 0x9
	opPong  = 0xA
)

// closeError is the peer's close frame.
type closeError struct{ code int }

func (e closeError) Error() string { return "closed with " + strconv.Itoa(e.code) }

// write sends one masked frame, as a client must.
func (c *wsConn) write(op byte, p []byte) error {
	hdr := make([]byte, 0, 14+len(p))
	hdr = append(hdr, 0x80|op)
	switch n := len(p); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	_, _ = rand.Read(mask[:])
	hdr = append(hdr, mask[:]...)
	for i, b := range p {
		hdr = append(hdr, b^mask[i%4])
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_, err := c.conn.Write(hdr)
	return err
}

func (c *wsConn) writeText(s string) error { return c.write(opText, []byte(s)) }

// read returns the next data message; pings are answered and a close frame
// ends the connection with a closeError.
func (c *wsConn) read() ([]byte, error) {
	if cap(c.buf) > 64<<10 {
		c.buf = nil // a page brought by a resync: do not keep its room per client
	}
	c.buf = c.buf[:0]
	for {
		var h [2]byte
		if _, err := io.ReadFull(c.br, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := int64(h[1] & 0x7f)
		switch n {
		case 126:
			var e [2]byte
			if _, err := io.ReadFull(c.br, e[:]); err != nil {
				return nil, err
			}
			n = int64(binary.BigEndian.Uint16(e[:]))
		case 127:
			var e [8]byte
			if _, err := io.ReadFull(c.br, e[:]); err != nil {
				return nil, err
			}
			n = int64(binary.BigEndian.Uint64(e[:]))
		}
		if h[1]&0x80 != 0 || n > 16<<20 {
			return nil, errors.New("bad frame from server")
		}
		start := len(c.buf)
		c.buf = slices.Grow(c.buf, int(n))[:start+int(n)]
		if _, err := io.ReadFull(c.br, c.buf[start:]); err != nil {
			return nil, err
		}
		switch op {
		case opPing:
			payload := bytes.Clone(c.buf[start:])
			c.buf = c.buf[:start]
			if err := c.write(opPong, payload); err != nil {
				return nil, err
			}
			continue
		case opPong:
			c.buf = c.buf[:start]
			continue
		case opClose:
			code := 1005
			if n >= 2 {
				code = int(binary.BigEndian.Uint16(c.buf[start:]))
			}
			_ = c.write(opClose, c.buf[start:min(start+2, len(c.buf))])
			c.conn.Close()
			return nil, closeError{code}
		}
		if fin {
			return c.buf, nil
		}
	}
}

func (c *wsConn) close() error { return c.conn.Close() }

// intAfter parses the integer following key in b, the fast path for the
// hub's own event frames.
func intAfter(b []byte, key string) (int64, bool) {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return 0, false
	}
	b = b[i+len(key):]
	j := 0
	for j < len(b) && (b[j] == '-' || b[j] >= '0' && b[j] <= '9') {
		j++
	}
	v, err := strconv.ParseInt(string(b[:j]), 10, 64)
	return v, err == nil
}

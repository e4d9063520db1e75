package testkit

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/pitlane/pitlane/internal/notify"
)

// PushService is a Web Push service at its wire protocol, for the real
// sender to post to: it checks each message's VAPID JWT (RFC 8292) against
// the key the server is configured with, and decrypts its aes128gcm body
// (RFC 8291) with the keys of the browser it made (Browser), as a browser
// would. Fail makes it answer 500 to the next n messages; an endpoint
// Forget was called on answers 410.
type PushService struct {
	*httptest.Server
	// VAPIDPublic and VAPIDPrivate are the server's keys to configure.
	VAPIDPublic, VAPIDPrivate string

	mu       sync.Mutex
	browsers map[string]*pushBrowser
	fail     int
	got      []PushMessage
	refused  []string
}

// PushMessage is a message the service took, decrypted.
type PushMessage struct {
	Endpoint string
	Subject  string
	Message  notify.Message
}

type pushBrowser struct {
	key  *ecdh.PrivateKey
	auth []byte
	gone bool
}

// NewPushService starts the fake with fresh VAPID keys.
func NewPushService(t testing.TB) *PushService {
	t.Helper()
	vapid, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p := &PushService{
		VAPIDPublic:  base64.RawURLEncoding.EncodeToString(vapid.PublicKey().Bytes()),
		VAPIDPrivate: base64.RawURLEncoding.EncodeToString(vapid.Bytes()),
		browsers:     map[string]*pushBrowser{},
	}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

// Host is the service's host:port (PUSH_ENDPOINT_HOSTS).
func (p *PushService) Host() string { return strings.TrimPrefix(p.URL, "http://") }

// Browser makes a browser's subscription: an endpoint on this service and
// the keys its messages are encrypted to.
func (p *PushService) Browser(t testing.TB) notify.Device {
	t.Helper()
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	p.mu.Lock()
	defer p.mu.Unlock()
	endpoint := fmt.Sprintf("%s/push/%d", p.URL, len(p.browsers)+1)
	p.browsers[endpoint] = &pushBrowser{key: key, auth: auth}
	var d notify.Device
	d.Endpoint = endpoint
	d.Keys.P256dh = base64.RawURLEncoding.EncodeToString(key.PublicKey().Bytes())
	d.Keys.Auth = base64.RawURLEncoding.EncodeToString(auth)
	return d
}

// Forget makes the service answer 410 Gone for endpoint.
func (p *PushService) Forget(endpoint string) {
	p.mu.Lock()
	p.browsers[endpoint].gone = true
	p.mu.Unlock()
}

// Fail answers 500 to the next n messages.
func (p *PushService) Fail(n int) {
	p.mu.Lock()
	p.fail = n
	p.mu.Unlock()
}

// Messages are what the service took and decrypted so far.
func (p *PushService) Messages() []PushMessage {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]PushMessage(nil), p.got...)
}

// Refused are why messages were refused (a bad JWT or body).
func (p *PushService) Refused() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.refused...)
}

// WaitMessages waits until n messages were taken.
func (p *PushService) WaitMessages(t testing.TB, n int, within time.Duration) []PushMessage {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if got := p.Messages(); len(got) >= n {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("push service: %d messages, want %d (refused: %v)", len(p.Messages()), n, p.Refused())
	return nil
}

func (p *PushService) serve(w http.ResponseWriter, r *http.Request) {
	endpoint := p.URL + r.URL.Path
	body, _ := io.ReadAll(io.LimitReader(r.Body, 8192))
	p.mu.Lock()
	defer p.mu.Unlock()
	b, ok := p.browsers[endpoint]
	if !ok || b.gone {
		w.WriteHeader(http.StatusGone)
		return
	}
	if p.fail > 0 {
		p.fail--
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	refuse := func(why string) {
		p.refused = append(p.refused, why)
		http.Error(w, why, http.StatusBadRequest)
	}
	sub, err := p.checkVAPID(r.Header.Get("Authorization"))
	if err != nil {
		refuse("vapid: " + err.Error())
		return
	}
	if r.Header.Get("Content-Encoding") != "aes128gcm" || r.Header.Get("TTL") == "" {
		refuse("headers: " + fmt.Sprint(r.Header))
		return
	}
	plain, err := decryptAES128GCM(b, body)
	if err != nil {
		refuse("decrypt: " + err.Error())
		return
	}
	var m notify.Message
	if err := json.Unmarshal(plain, &m); err != nil {
		refuse("payload: " + err.Error())
		return
	}
	p.got = append(p.got, PushMessage{Endpoint: endpoint, Subject: sub, Message: m})
	w.WriteHeader(http.StatusCreated)
}

// checkVAPID checks "vapid t=<JWT>, k=<key>": k is the configured key, the
// JWT is signed with it (ES256) for this service's origin and not expired.
func (p *PushService) checkVAPID(h string) (string, error) {
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return "", errors.New("no vapid authorization")
	}
	var tok, k string
	for part := range strings.SplitSeq(rest, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			tok = v
		} else if v, ok := strings.CutPrefix(part, "k="); ok {
			k = v
		}
	}
	if k != p.VAPIDPublic {
		return "", fmt.Errorf("k=%q is not the server's key", k)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(k)
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return "", fmt.Errorf("k is not an uncompressed P-256 point: %w", err)
	}
	claims := jwt.MapClaims{}
	_, err = jwt.ParseWithClaims(tok, claims, func(*jwt.Token) (any, error) { return pub, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithAudience(p.URL), jwt.WithExpirationRequired())
	if err != nil {
		return "", err
	}
	sub, _ := claims["sub"].(string)
	if !strings.HasPrefix(sub, "mailto:") && !strings.HasPrefix(sub, "https:") {
		return "", fmt.Errorf("sub %q is neither a mailto nor an https URL", sub)
	}
	return sub, nil
}

// decryptAES128GCM undoes RFC 8291's encryption as the browser does: the
// header (salt, record size, the server's ephemeral key), the keys derived
// from ECDH and the auth secret, one record, its padding.
func decryptAES128GCM(b *pushBrowser, body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("short body")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("key id of %d bytes", idlen)
	}
	asPublic, ciphertext := body[21:21+idlen], body[21+idlen:]
	if uint32(len(ciphertext)) > rs {
		return nil, errors.New("more than one record")
	}
	peer, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, err
	}
	shared, err := b.key.ECDH(peer)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), b.key.PublicKey().Bytes()...), asPublic...)
	prkKey, err := hkdf.Extract(sha256.New, shared, b.auth)
	if err != nil {
		return nil, err
	}
	ikm, err := hkdf.Expand(sha256.New, prkKey, string(info), 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, err
	}
	plain = []byte(strings.TrimRight(string(plain), "\x00"))
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}

package api

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"strings"
	"time"
)

// A browser that signed in to an account gets a device cookie for it, so
// that the account's own login limit, which counts wrong passwords from
// everywhere, never locks its owner out of a browser they used before (the
// OWASP "device cookie" defence): a stranger cannot forge one, and one issued
// for the stranger's own account does not count for another.

const (
	deviceCookie = "pitlane_device"
	deviceTTL    = 180 * 24 * time.Hour
)

// deviceKey signs device cookies; it comes from the JWT secret.
func (s *Server) deviceKey() []byte { return []byte("device|" + s.Config.JWTSecret) }

// deviceTag binds a cookie to an address without naming it.
func (s *Server) deviceTag(email string) []byte {
	m := hmac.New(sha256.New, s.deviceKey())
	m.Write([]byte("address|" + email))
	return m.Sum(nil)[:16]
}

func (s *Server) deviceSum(payload []byte) []byte {
	m := hmac.New(sha256.New, s.deviceKey())
	m.Write(payload)
	return m.Sum(nil)[:16]
}

// setDevice gives the browser a device cookie for the address it signed in to.
func (s *Server) setDevice(w http.ResponseWriter, r *http.Request, email string) {
	id := make([]byte, 12)
	rand.Read(id)
	payload := append(s.deviceTag(email), id...)
	payload = binary.BigEndian.AppendUint64(payload, uint64(time.Now().Add(deviceTTL).Unix()))
	enc := base64.RawURLEncoding
	http.SetCookie(w, &http.Cookie{
		Name:     deviceCookie,
		Value:    enc.EncodeToString(payload) + "." + enc.EncodeToString(s.deviceSum(payload)),
		Path:     "/api/auth",
		MaxAge:   int(deviceTTL.Seconds()),
		HttpOnly: true,
		Secure:   r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https", // as HSTS decides
		SameSite: http.SameSiteStrictMode,
	})
}

// device returns the id of the request's device cookie when it is valid for
// email, "" otherwise.
func (s *Server) device(r *http.Request, email string) string {
	c, err := r.Cookie(deviceCookie)
	if err != nil || email == "" {
		return ""
	}
	enc := base64.RawURLEncoding
	p, sum, ok := strings.Cut(c.Value, ".")
	payload, err1 := enc.DecodeString(p)
	mac, err2 := enc.DecodeString(sum)
	if !ok || err1 != nil || err2 != nil || len(payload) != 36 || !hmac.Equal(mac, s.deviceSum(payload)) {
		return ""
	}
	if !hmac.Equal(payload[:16], s.deviceTag(email)) || time.Now().Unix() > int64(binary.BigEndian.Uint64(payload[28:])) {
		return ""
	}
	return hex.EncodeToString(payload[16:28])
}

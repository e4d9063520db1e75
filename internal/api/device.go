package api

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// A browser that signed in to an account gets a device cookie for it, so
// that the account's own login limit, which counts wrong passwords from
// everywhere, never locks its owner out of a browser they used before (the
// OWASP "device cookie" defence): a stranger cannot forge one, and one issued
// for the stranger's own account does not count for another. A browser that
// used the account's second factor gets a second one, bound to the account,
// which spares it the account's limit of second-factor tries the same way:
// a stranger who has the password signs in, but never uses the factor.

const (
	deviceCookie       = "pitlane_device"
	factorDeviceCookie = "pitlane_factor_device"
	deviceTTL          = 180 * 24 * time.Hour
)

// deviceKey signs device cookies; it comes from the JWT secret.
func (s *Server) deviceKey() []byte { return []byte("device|" + s.Config.JWTSecret) }

// deviceTag binds a cookie to what it is for (an address, an account)
// without naming it.
func (s *Server) deviceTag(subject string) []byte {
	m := hmac.New(sha256.New, s.deviceKey())
	m.Write([]byte(subject))
	return m.Sum(nil)[:16]
}

func addressSubject(email string) string { return "address|" + email }

func factorSubject(userID int64) string { return "factor|" + strconv.FormatInt(userID, 10) }

func (s *Server) deviceSum(payload []byte) []byte {
	m := hmac.New(sha256.New, s.deviceKey())
	m.Write(payload)
	return m.Sum(nil)[:16]
}

// setDevice gives the browser a device cookie for the address it signed in to.
func (s *Server) setDevice(w http.ResponseWriter, r *http.Request, email string) {
	s.setDeviceCookie(w, r, deviceCookie, addressSubject(email))
}

// setFactorDevice marks the browser as one that used userID's second factor.
func (s *Server) setFactorDevice(w http.ResponseWriter, r *http.Request, userID int64) {
	s.setDeviceCookie(w, r, factorDeviceCookie, factorSubject(userID))
}

func (s *Server) setDeviceCookie(w http.ResponseWriter, r *http.Request, name, subject string) {
	id := make([]byte, 12)
	rand.Read(id)
	payload := append(s.deviceTag(subject), id...)
	payload = binary.BigEndian.AppendUint64(payload, uint64(time.Now().Add(deviceTTL).Unix()))
	enc := base64.RawURLEncoding
	http.SetCookie(w, &http.Cookie{
		Name:     name,
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
	if email == "" {
		return ""
	}
	return s.deviceOf(r, deviceCookie, addressSubject(email))
}

// factorDevice returns the id of the request's cookie saying the browser
// used userID's second factor, "" when it has none valid.
func (s *Server) factorDevice(r *http.Request, userID int64) string {
	return s.deviceOf(r, factorDeviceCookie, factorSubject(userID))
}

func (s *Server) deviceOf(r *http.Request, name, subject string) string {
	c, err := r.Cookie(name)
	if err != nil {
		return ""
	}
	enc := base64.RawURLEncoding
	p, sum, ok := strings.Cut(c.Value, ".")
	payload, err1 := enc.DecodeString(p)
	mac, err2 := enc.DecodeString(sum)
	if !ok || err1 != nil || err2 != nil || len(payload) != 36 || !hmac.Equal(mac, s.deviceSum(payload)) {
		return ""
	}
	if !hmac.Equal(payload[:16], s.deviceTag(subject)) || time.Now().Unix() > int64(binary.BigEndian.Uint64(payload[28:])) {
		return ""
	}
	return hex.EncodeToString(payload[16:28])
}

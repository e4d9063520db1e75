package testkit

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pitlane/pitlane/internal/app"
	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/postgres"
)

// Server is a running Pitlane on loopback with its own mailbox and Google fake.
type Server struct {
	URL    string
	Mail   *Mailbox
	Google *Google
	DB     *postgres.DB
	App    *app.App
	Config config.Config
}

// Options change the test server's configuration.
type Options struct {
	// RateLimitScale multiplies the abuse limits; 0 means 1000 (tests that
	// are not about limits should not trip them).
	RateLimitScale float64
	RedisURL       string
	Admins         []string
	Configure      func(*config.Config)
	// Log, when set, takes the server's log lines (text, Debug and up), for
	// a test that checks what is logged.
	Log io.Writer
	// Web is the built web app the server sends (nil: none, the server's
	// own "not built" page).
	Web fs.FS
}

// NewServer starts Pitlane on db for the test's life.
func NewServer(t testing.TB, db *postgres.DB, opt Options) *Server {
	t.Helper()
	s := &Server{Mail: NewMailbox(t), Google: NewGoogle(t), DB: db}
	secret := make([]byte, 32)
	rand.Read(secret)
	cfg, err := config.FromEnv(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cfg.JWTSecret = hex.EncodeToString(secret)
	cfg.SMTPURL = s.Mail.URL()
	cfg.GoogleClientID = s.Google.ClientID
	cfg.GoogleCertsURL = s.Google.CertsURL
	cfg.RedisURL = opt.RedisURL
	if opt.RedisURL != "" {
		cfg.RedisPrefix = UniquePrefix(t)
	}
	cfg.AdminEmails = opt.Admins
	cfg.RateLimitScale = opt.RateLimitScale
	if cfg.RateLimitScale == 0 {
		cfg.RateLimitScale = 1000
	}
	if opt.Configure != nil {
		opt.Configure(&cfg)
	}
	s.Config = cfg
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(testWriter{t}, nil))
	}
	if opt.Log != nil {
		log = slog.New(slog.NewTextHandler(opt.Log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	a, err := app.New(context.Background(), cfg, db, opt.Web, log)
	if err != nil {
		t.Fatal(err)
	}
	a.StartRecorder(context.Background())
	hs := httptest.NewServer(a.Handler)
	t.Cleanup(func() {
		a.Hub.Shutdown(context.Background())
		hs.Close()
		a.Close()
	})
	s.App, s.URL = a, hs.URL
	return s
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// Resp is an answer with its body decoded when it is JSON.
type Resp struct {
	Status int
	Header http.Header
	Body   []byte
	JSON   map[string]any
}

// Message is the answer's "message".
func (r *Resp) Message() string {
	m, _ := r.JSON["message"].(string)
	return m
}

// Do sends a JSON request (body nil, a string of raw JSON, or a value to marshal).
func (s *Server) Do(t testing.TB, method, path, token string, body any) *Resp {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		buf, _ := json.Marshal(b)
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return s.Send(t, req)
}

// Send sends req and reads the answer.
func (s *Server) Send(t testing.TB, req *http.Request) *Resp {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	r := &Resp{Status: res.StatusCode, Header: res.Header, Body: b}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		json.Unmarshal(b, &r.JSON)
	}
	return r
}

// Password is the password SignUp gives every account.
const Password = "correct-horse-battery"

// SignUp creates a verified account through the real flow (sign-up, the
// e-mailed code, verification, login; see signUpListed for an address in
// ADMIN_EMAILS) and returns its token.
func (s *Server) SignUp(t testing.TB, email, discord string) string {
	t.Helper()
	if slices.Contains(s.Config.AdminEmails, strings.ToLower(email)) {
		return s.signUpListed(t, email, discord)
	}
	before := s.Mail.Count(email)
	r := s.Do(t, "POST", "/api/auth/signup", "", map[string]string{
		"email": email, "password": Password, "confirmPassword": Password, "discordUsername": discord})
	if r.Status != http.StatusCreated {
		t.Fatalf("signup %s: %d %s", email, r.Status, r.Body)
	}
	code := s.Mail.OTP(t, email, before+1)
	if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": email, "otp": code}); r.Status != 200 {
		t.Fatalf("verify %s: %d %s", email, r.Status, r.Body)
	}
	return s.Login(t, email, Password)
}

// signUpListed makes the account of an organiser's address as an operator
// does (codes are never mailed to a listed address): signed up, verified in
// the database, then logged in with its password.
func (s *Server) signUpListed(t testing.TB, email, discord string) string {
	t.Helper()
	r := s.Do(t, "POST", "/api/auth/signup", "", map[string]string{
		"email": email, "password": Password, "confirmPassword": Password, "discordUsername": discord})
	if r.Status != http.StatusCreated {
		t.Fatalf("signup %s: %d %s", email, r.Status, r.Body)
	}
	if _, err := s.DB.Pool.Exec(context.Background(), `UPDATE users SET email_verified = true WHERE email = $1`,
		strings.ToLower(email)); err != nil {
		t.Fatal(err)
	}
	return s.Login(t, email, Password)
}

// MailSettled waits until every mail the server posted so far was sent or
// failed (mails go out in the background), so the mailbox's counts are final.
func (s *Server) MailSettled(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.App.Mail.Wait(ctx); err != nil {
		t.Fatalf("mails still on their way: %v", err)
	}
}

// Address is where the server keeps the codes of email (a row of email_codes).
func (s *Server) Address(email string) []byte {
	return auth.AddressMAC(s.App.Server.Accounts.OTPSecret, strings.ToLower(email))
}

// Age moves the codes of email d into the past: its code, cooldown and day.
func (s *Server) Age(t testing.TB, email string, d time.Duration) {
	t.Helper()
	if _, err := s.DB.Pool.Exec(context.Background(), `UPDATE email_codes SET sent_at = sent_at - $2::interval,
		expires_at = expires_at - $2::interval, day_start = day_start - $2::interval WHERE address_mac = $1`,
		s.Address(email), d); err != nil {
		t.Fatal(err)
	}
}

// Login returns a token for email and password.
func (s *Server) Login(t testing.TB, email, password string) string {
	t.Helper()
	r := s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": password})
	if r.Status != 200 {
		t.Fatalf("login %s: %d %s", email, r.Status, r.Body)
	}
	return r.JSON["token"].(string)
}

// SaveStats saves plausible hand-entered stats for the token's user.
func (s *Server) SaveStats(t testing.TB, token string) {
	t.Helper()
	r := s.Do(t, "POST", "/api/stats/save", token, map[string]any{"sk_id": 424242, "level": 30, "kills": 900,
		"deaths": 450, "games_played": 300, "kd": 2, "cart_image": nil, "description": "test racer", "category": 2,
		"preferred_role": "Player"})
	if r.Status != 200 {
		t.Fatalf("save stats: %d %s", r.Status, r.Body)
	}
}

// UniqueEmail returns a fresh address for this test.
func UniqueEmail(prefix string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b) + "@example.com"
}

// RedisURL is the Redis the tests use: PITLANE_TEST_REDIS_URL, else the local one.
func RedisURL() string {
	if u := os.Getenv("PITLANE_TEST_REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/0"
}

// UniquePrefix is a Redis key prefix of one test, so runs never share
// topics; the test's keys are deleted when it ends.
func UniquePrefix(t testing.TB) string {
	b := make([]byte, 6)
	rand.Read(b)
	prefix := "pitlane-test-" + hex.EncodeToString(b) + ":"
	t.Cleanup(func() {
		o, err := redis.ParseURL(RedisURL())
		if err != nil {
			return
		}
		rdb := redis.NewClient(o)
		defer rdb.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		iter := rdb.Scan(ctx, 0, prefix+"*", 500).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
	})
	return prefix
}

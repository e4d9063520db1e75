// Package config holds Pitlane's configuration: one struct filled from the
// environment with defaults, validated once at start.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/redisconn"
)

// Config is every setting of the README's configuration table.
type Config struct {
	Env  string // "development" or "production" (PITLANE_ENV)
	Addr string
	// MetricsAddr serves Prometheus metrics apart from the app ("" = not
	// at all): they are for the operator's scraper, not the public.
	MetricsAddr      string
	DatabaseURL      string
	RedisURL         string
	RedisSentinels   []string // host:port of Redis Sentinels; with RedisMasterName, they name the primary
	RedisMasterName  string
	RedisPrefix      string // starts every Redis key; deployments sharing a Redis differ here
	JWTSecret        string
	SMTPURL          string
	MailFrom         string
	GeminiAPIKey     string
	GeminiTextModel  string
	GeminiImageModel string
	GeminiBaseURL    string
	GoogleClientID   string
	GoogleCertsURL   string
	CORSOrigins      []string
	AdminEmails      []string
	// AdminRequire2FA (ADMIN_REQUIRE_2FA): the organiser role acts only in
	// sessions that used a second factor (a TOTP app or a passkey).
	AdminRequire2FA bool
	DiscordBotToken string
	DiscordChannel  string
	// DiscordMatchChannel is where the bot opens a thread per match.
	DiscordMatchChannel string
	// DiscordClientID and DiscordClientSecret enable "Link Discord"
	// (OAuth2, identify); DiscordAPIURL is Discord's API root (tests point
	// the bot's REST calls and OAuth2 at a fake).
	DiscordClientID     string
	DiscordClientSecret string
	DiscordAPIURL       string
	// StripeSecretKey and StripeWebhookSecret turn entry fees on (both or
	// neither); StripeAPIURL is Stripe's API root (tests point it at
	// stripe-mock).
	StripeSecretKey     string
	StripeWebhookSecret string
	StripeAPIURL        string
	// EntryFeeHold is how long an unpaid registration keeps its place
	// (ENTRY_FEE_HOLD, 30m).
	EntryFeeHold time.Duration
	// PublicURL is the site's address as browsers and Discord see it: the
	// OAuth2 redirect and the bot's links are made from it.
	PublicURL         string
	DefaultTournament string
	DataDir           string
	// TrustedProxies are CIDRs whose X-Forwarded-For is believed for rate limits.
	TrustedProxies []string
	// RateLimits can be loosened for load tests and tightened for abuse tests.
	RateLimitScale float64
	// WSConnsPerIP bounds the live-event websockets one client address may
	// hold at once on an instance (WS_CONNECTIONS_PER_IP, 200; 0 = no
	// bound), scaled by RateLimitScale like the other limits.
	WSConnsPerIP int
	// RUMSampleRate is the share of page loads whose browser sends its
	// timings (RUM_SAMPLE_RATE, 0.5; 0 = none).
	RUMSampleRate   float64
	ShutdownTimeout time.Duration
	// AuctionLot is how long a lot runs (AUCTION_LOT_SECONDS, 20); a bid in
	// its last AuctionLateBid (AUCTION_LATE_BID_SECONDS, 10) restarts the
	// countdown there.
	AuctionLot, AuctionLateBid time.Duration
	// VAPIDPublicKey and VAPIDPrivateKey (base64url, an uncompressed P-256
	// point and its scalar) sign Web Push messages; without them push is
	// off. VAPIDSubject is the contact push services see (mailto: or https:).
	VAPIDPublicKey, VAPIDPrivateKey, VAPIDSubject string
	// PushEndpointHosts are host:port pairs a push subscription may name
	// besides the browsers' own push services (a test's fake).
	PushEndpointHosts []string
	// Twitch: TWITCH_CLIENT_ID, TWITCH_CLIENT_SECRET and
	// TWITCH_EVENTSUB_SECRET together turn the streams feature on (all
	// three or none). TwitchAuthURL and TwitchAPIURL are Twitch's roots
	// (tests point them at a fake); TwitchCallback is where EventSub posts
	// (default PUBLIC_URL + /api/webhooks/twitch when PUBLIC_URL is https).
	TwitchClientID, TwitchClientSecret, TwitchEventSubSecret string
	TwitchAuthURL, TwitchAPIURL, TwitchCallback              string
}

// StreamsOn reports whether the streams feature is configured.
func (c Config) StreamsOn() bool {
	return c.TwitchClientID != "" && c.TwitchClientSecret != "" && c.TwitchEventSubSecret != ""
}

// PushOn reports whether Web Push is configured.
func (c Config) PushOn() bool { return c.VAPIDPublicKey != "" && c.VAPIDPrivateKey != "" }

// Production reports whether PITLANE_ENV=production.
func (c Config) Production() bool { return c.Env == "production" }

// DiscordAPIDefault is Discord's API root.
const DiscordAPIDefault = "https://discord.com/api"

// GoogleCertsDefault is Google's ID-token key set.
const GoogleCertsDefault = "https://www.googleapis.com/oauth2/v3/certs"

// FromEnv reads the configuration from getenv (os.Getenv in main).
func FromEnv(getenv func(string) string) (Config, error) {
	get := func(key, def string) string {
		if v := strings.TrimSpace(getenv(key)); v != "" {
			return v
		}
		return def
	}
	c := Config{
		Env:                  get("PITLANE_ENV", "development"),
		Addr:                 get("ADDR", ":8080"),
		MetricsAddr:          get("METRICS_ADDR", ""),
		DatabaseURL:          get("DATABASE_URL", "postgres://localhost:5432/pitlane?sslmode=disable"),
		RedisURL:             get("REDIS_URL", ""),
		RedisSentinels:       list(get("REDIS_SENTINELS", "")),
		RedisMasterName:      get("REDIS_MASTER_NAME", ""),
		RedisPrefix:          get("REDIS_PREFIX", "pitlane:"),
		JWTSecret:            get("JWT_SECRET", ""),
		SMTPURL:              get("SMTP_URL", ""),
		MailFrom:             get("MAIL_FROM", "Pitlane <no-reply@localhost>"),
		GeminiAPIKey:         get("GEMINI_API_KEY", ""),
		GeminiTextModel:      get("GEMINI_TEXT_MODEL", "gemini-2.5-flash"),
		GeminiImageModel:     get("GEMINI_IMAGE_MODEL", "gemini-2.5-flash-image"),
		GeminiBaseURL:        get("GEMINI_BASE_URL", ""),
		GoogleClientID:       get("GOOGLE_CLIENT_ID", ""),
		GoogleCertsURL:       get("GOOGLE_CERTS_URL", GoogleCertsDefault),
		CORSOrigins:          list(get("CORS_ORIGINS", "")),
		AdminEmails:          list(strings.ToLower(get("ADMIN_EMAILS", ""))),
		DiscordBotToken:      get("DISCORD_BOT_TOKEN", ""),
		DiscordChannel:       get("DISCORD_ANNOUNCE_CHANNEL", ""),
		DiscordMatchChannel:  get("DISCORD_MATCH_CHANNEL", ""),
		DiscordClientID:      get("DISCORD_CLIENT_ID", ""),
		DiscordClientSecret:  get("DISCORD_CLIENT_SECRET", ""),
		DiscordAPIURL:        get("DISCORD_API_URL", DiscordAPIDefault),
		StripeSecretKey:      get("STRIPE_SECRET_KEY", ""),
		StripeWebhookSecret:  get("STRIPE_WEBHOOK_SECRET", ""),
		StripeAPIURL:         get("STRIPE_API_URL", ""),
		PublicURL:            strings.TrimRight(get("PUBLIC_URL", ""), "/"),
		DefaultTournament:    get("DEFAULT_TOURNAMENT", "PPL7"),
		DataDir:              get("PITLANE_DATA_DIR", ".pitlane"),
		TrustedProxies:       list(get("TRUSTED_PROXIES", "")),
		RateLimitScale:       1,
		WSConnsPerIP:         200,
		RUMSampleRate:        0.5,
		ShutdownTimeout:      15 * time.Second,
		VAPIDPublicKey:       get("VAPID_PUBLIC_KEY", ""),
		VAPIDPrivateKey:      get("VAPID_PRIVATE_KEY", ""),
		VAPIDSubject:         get("VAPID_SUBJECT", ""),
		PushEndpointHosts:    list(get("PUSH_ENDPOINT_HOSTS", "")),
		TwitchClientID:       get("TWITCH_CLIENT_ID", ""),
		TwitchClientSecret:   get("TWITCH_CLIENT_SECRET", ""),
		TwitchEventSubSecret: get("TWITCH_EVENTSUB_SECRET", ""),
		TwitchAuthURL:        get("TWITCH_AUTH_URL", "https://id.twitch.tv/oauth2"),
		TwitchAPIURL:         get("TWITCH_API_URL", "https://api.twitch.tv/helix"),
		TwitchCallback:       get("TWITCH_EVENTSUB_CALLBACK", ""),
	}
	if v := get("ADMIN_REQUIRE_2FA", ""); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("ADMIN_REQUIRE_2FA must be true or false, got %q", v)
		}
		c.AdminRequire2FA = b
	}
	c.EntryFeeHold = 30 * time.Minute
	if v := get("ENTRY_FEE_HOLD", ""); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("ENTRY_FEE_HOLD must be a positive duration such as 30m, got %q", v)
		}
		c.EntryFeeHold = d
	}
	if v := get("RATE_LIMIT_SCALE", ""); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f <= 0 {
			return c, fmt.Errorf("RATE_LIMIT_SCALE must be a positive number, got %q", v)
		}
		c.RateLimitScale = f
	}
	if v := get("RUM_SAMPLE_RATE", ""); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1 {
			return c, fmt.Errorf("RUM_SAMPLE_RATE must be a number from 0 to 1, got %q", v)
		}
		c.RUMSampleRate = f
	}
	if v := get("WS_CONNECTIONS_PER_IP", ""); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, fmt.Errorf("WS_CONNECTIONS_PER_IP must be a whole number, 0 for no bound, got %q", v)
		}
		c.WSConnsPerIP = n
	}
	for _, d := range []struct {
		key string
		def int
		dst *time.Duration
	}{{"AUCTION_LOT_SECONDS", 20, &c.AuctionLot}, {"AUCTION_LATE_BID_SECONDS", 10, &c.AuctionLateBid}} {
		n, err := strconv.Atoi(get(d.key, strconv.Itoa(d.def)))
		if err != nil || n < 1 || n > 3600 {
			return c, fmt.Errorf("%s must be a whole number of seconds from 1 to 3600", d.key)
		}
		*d.dst = time.Duration(n) * time.Second
	}
	if c.AuctionLateBid > c.AuctionLot {
		return c, errors.New("AUCTION_LATE_BID_SECONDS must not be more than AUCTION_LOT_SECONDS")
	}
	if c.PublicURL == "" {
		c.PublicURL = localURL(c.Addr)
	}
	return c, c.validate()
}

// localURL is the development default of PUBLIC_URL: this machine at ADDR's port.
func localURL(addr string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		port = "8080"
	}
	return "http://localhost:" + port
}

func (c *Config) validate() error {
	var errs []error
	if c.Env != "development" && c.Env != "production" {
		errs = append(errs, fmt.Errorf("PITLANE_ENV must be development or production, got %q", c.Env))
	}
	if strings.HasPrefix(c.JWTSecret, "dev-only") {
		// docker-compose.yml once shipped it: anyone could mint tokens.
		errs = append(errs, errors.New("JWT_SECRET is a published trial key; set a secret of your own, or leave it unset in development to have one generated"))
	}
	if c.Production() && len(c.JWTSecret) < 32 {
		errs = append(errs, errors.New("JWT_SECRET of at least 32 characters is required in production"))
	}
	if c.JWTSecret != "" && len(c.JWTSecret) < 32 {
		errs = append(errs, errors.New("JWT_SECRET must be at least 32 characters"))
	}
	if c.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(c.MetricsAddr); err != nil {
			errs = append(errs, fmt.Errorf("METRICS_ADDR must be host:port (e.g. 127.0.0.1:9090), got %q", c.MetricsAddr))
		} else if c.MetricsAddr == c.Addr {
			errs = append(errs, errors.New("METRICS_ADDR must differ from ADDR: the metrics are not for the public"))
		}
	}
	if (c.StripeSecretKey == "") != (c.StripeWebhookSecret == "") {
		errs = append(errs, errors.New("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together (entry fees need both): set both or neither"))
	}
	if (c.DiscordClientID == "") != (c.DiscordClientSecret == "") {
		errs = append(errs, errors.New("DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET go together: set both or neither"))
	}
	if c.DiscordChannel != "" && !digits(c.DiscordChannel) {
		errs = append(errs, fmt.Errorf("DISCORD_ANNOUNCE_CHANNEL must be a channel id (digits), got %q", c.DiscordChannel))
	}
	if c.DiscordMatchChannel != "" && !digits(c.DiscordMatchChannel) {
		errs = append(errs, fmt.Errorf("DISCORD_MATCH_CHANNEL must be a channel id (digits), got %q", c.DiscordMatchChannel))
	}
	if c.DiscordMatchChannel != "" && c.DiscordBotToken == "" {
		errs = append(errs, errors.New("DISCORD_MATCH_CHANNEL needs DISCORD_BOT_TOKEN"))
	}
	if c.DiscordChannel != "" && c.DiscordBotToken == "" {
		errs = append(errs, errors.New("DISCORD_ANNOUNCE_CHANNEL needs DISCORD_BOT_TOKEN"))
	}
	if n := len(nonEmpty(c.TwitchClientID, c.TwitchClientSecret, c.TwitchEventSubSecret)); n != 0 && n != 3 {
		errs = append(errs, errors.New("TWITCH_CLIENT_ID, TWITCH_CLIENT_SECRET and TWITCH_EVENTSUB_SECRET go together: set all three or none"))
	}
	if n := len(c.TwitchEventSubSecret); n != 0 && (n < 10 || n > 100) {
		errs = append(errs, errors.New("TWITCH_EVENTSUB_SECRET must be 10 to 100 characters (Twitch's rule)"))
	}
	if (c.VAPIDPublicKey == "") != (c.VAPIDPrivateKey == "") {
		errs = append(errs, errors.New("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both or neither"))
	}
	if c.VAPIDSubject != "" && !strings.HasPrefix(c.VAPIDSubject, "mailto:") && !strings.HasPrefix(c.VAPIDSubject, "https:") {
		errs = append(errs, fmt.Errorf("VAPID_SUBJECT must be a mailto: or https: URL, got %q", c.VAPIDSubject))
	}
	for _, u := range []struct{ name, val string }{{"PUBLIC_URL", c.PublicURL}, {"DISCORD_API_URL", c.DiscordAPIURL},
		{"TWITCH_AUTH_URL", c.TwitchAuthURL}, {"TWITCH_API_URL", c.TwitchAPIURL}} {
		p, err := url.Parse(u.val)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			errs = append(errs, fmt.Errorf("%s must be an http(s) URL, got %q", u.name, u.val))
		}
	}
	if c.Production() && c.DiscordClientID != "" && strings.HasPrefix(c.PublicURL, "http://localhost") {
		errs = append(errs, errors.New("PUBLIC_URL is required in production when DISCORD_CLIENT_ID is set (Discord sends players back to it)"))
	}
	if err := c.Redis().Check(); err != nil {
		errs = append(errs, err)
	}
	for _, u := range []struct{ name, val string }{{"DATABASE_URL", c.DatabaseURL}, {"REDIS_URL", c.RedisURL}, {"SMTP_URL", c.SMTPURL}} {
		if u.val == "" {
			continue
		}
		if _, err := url.Parse(u.val); err != nil {
			errs = append(errs, fmt.Errorf("%s is not a URL", u.name))
		}
	}
	return errors.Join(errs...)
}

// EnsureSecret fills an empty JWTSecret in development with a random key kept
// in the data folder, so tokens survive restarts without configuration. The
// first process to store one wins and every other reads it: instances that
// start at once on a shared volume (docker compose) sign with the same key.
func (c *Config) EnsureSecret() error {
	if c.JWTSecret != "" {
		return nil
	}
	path := filepath.Join(c.DataDir, "jwt-secret")
	if s, err := readSecret(path); err == nil {
		c.JWTSecret = s
		return nil
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return err
	}
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return err
	}
	// Written whole under a name of its own, then linked into place: the
	// link fails if another process stored its secret first, and nobody
	// ever reads a half-written file.
	tmp, err := os.CreateTemp(c.DataDir, ".jwt-secret-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(hex.EncodeToString(buf) + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	s, err := readSecret(path)
	c.JWTSecret = s
	return err
}

func readSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := strings.TrimSpace(string(b))
	if len(s) < 32 {
		return "", fmt.Errorf("%s holds no secret of 32 characters or more", path)
	}
	return s, nil
}

// Redacted lists the settings for a start-up log line with secrets masked.
func (c Config) Redacted() map[string]any {
	mask := func(s string) string {
		if s == "" {
			return ""
		}
		return "***"
	}
	maskURL := func(s string) string {
		u, err := url.Parse(s)
		if err != nil || s == "" {
			return mask(s)
		}
		if u.User != nil {
			u.User = url.User("***")
		}
		return u.Redacted()
	}
	return map[string]any{
		"env": c.Env, "addr": c.Addr, "metrics_addr": c.MetricsAddr, "database_url": maskURL(c.DatabaseURL), "redis_url": maskURL(c.RedisURL),
		"redis_sentinels": c.RedisSentinels, "redis_master_name": c.RedisMasterName,
		"smtp_url": maskURL(c.SMTPURL), "jwt_secret": mask(c.JWTSecret), "gemini_api_key": mask(c.GeminiAPIKey),
		"google_client_id": c.GoogleClientID, "cors_origins": c.CORSOrigins, "admin_emails": len(c.AdminEmails), "admin_require_2fa": c.AdminRequire2FA,
		"discord_bot": c.DiscordBotToken != "", "discord_channel": c.DiscordChannel, "discord_match_channel": c.DiscordMatchChannel, "discord_client_id": c.DiscordClientID,
		"discord_client_secret": mask(c.DiscordClientSecret), "discord_api_url": c.DiscordAPIURL, "public_url": c.PublicURL, "default_tournament": c.DefaultTournament,
		"push": c.PushOn(), "vapid_subject": c.VAPIDSubject, "push_endpoint_hosts": c.PushEndpointHosts,
	}
}

// Redis is where Redis is: REDIS_URL, or the primary the sentinels name.
func (c Config) Redis() redisconn.Target {
	return redisconn.Target{URL: c.RedisURL, Sentinels: c.RedisSentinels, MasterName: c.RedisMasterName}
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func list(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// nonEmpty are the values that are set.
func nonEmpty(vals ...string) []string {
	var out []string
	for _, v := range vals {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

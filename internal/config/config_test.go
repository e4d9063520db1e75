package config

import (
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFromEnv(t *testing.T) {
	t.Run("Defaults", func(t *testing.T) {
		c, err := FromEnv(env(nil))
		if err != nil || c.Addr != ":8080" || c.DefaultTournament != "PPL7" || c.Production() {
			t.Fatalf("%+v %v", c, err)
		}
	})
	t.Run("WebsocketsPerAddress", func(t *testing.T) {
		if c, _ := FromEnv(env(nil)); c.WSConnsPerIP != 200 {
			t.Errorf("default WS_CONNECTIONS_PER_IP: %d, want 200", c.WSConnsPerIP)
		}
		for v, want := range map[string]int{"50": 50, "0": 0} {
			if c, err := FromEnv(env(map[string]string{"WS_CONNECTIONS_PER_IP": v})); err != nil || c.WSConnsPerIP != want {
				t.Errorf("WS_CONNECTIONS_PER_IP=%s: %d, %v", v, c.WSConnsPerIP, err)
			}
		}
		for _, v := range []string{"-1", "many", "2.5"} {
			if _, err := FromEnv(env(map[string]string{"WS_CONNECTIONS_PER_IP": v})); err == nil {
				t.Errorf("WS_CONNECTIONS_PER_IP=%s accepted", v)
			}
		}
	})
	t.Run("ErrProductionNeedsSecret", func(t *testing.T) {
		if _, err := FromEnv(env(map[string]string{"PITLANE_ENV": "production"})); err == nil {
			t.Fatal("accepted production without JWT_SECRET")
		}
	})
	t.Run("ErrShortSecret", func(t *testing.T) {
		if _, err := FromEnv(env(map[string]string{"JWT_SECRET": "short"})); err == nil {
			t.Fatal("accepted a short secret")
		}
	})
	t.Run("Lists", func(t *testing.T) {
		c, _ := FromEnv(env(map[string]string{"ADMIN_EMAILS": " A@x.io, b@y.io ", "CORS_ORIGINS": "https://a.io,https://b.io"}))
		if len(c.AdminEmails) != 2 || c.AdminEmails[0] != "a@x.io" || len(c.CORSOrigins) != 2 {
			t.Fatalf("%+v", c)
		}
	})
	t.Run("RedactedHidesSecrets", func(t *testing.T) {
		c, _ := FromEnv(env(map[string]string{"JWT_SECRET": strings.Repeat("s", 40), "SMTP_URL": "smtp://user:hunter2@mail:587",
			"GEMINI_API_KEY": "key-123", "DATABASE_URL": "postgres://u:pw@db/p"}))
		s := strings.Join(func() []string {
			var out []string
			for _, v := range c.Redacted() {
				if str, ok := v.(string); ok {
					out = append(out, str)
				}
			}
			return out
		}(), " ")
		for _, secret := range []string{"hunter2", "key-123", "ssss", ":pw@"} {
			if strings.Contains(s, secret) {
				t.Errorf("redacted config shows %q: %s", secret, s)
			}
		}
	})
	t.Run("SecretKeptInDataDir", func(t *testing.T) {
		dir := t.TempDir()
		a := Config{DataDir: dir}
		b := Config{DataDir: dir}
		if err := a.EnsureSecret(); err != nil {
			t.Fatal(err)
		}
		b.EnsureSecret()
		if len(a.JWTSecret) < 32 || a.JWTSecret != b.JWTSecret {
			t.Fatalf("secrets %q %q", a.JWTSecret, b.JWTSecret)
		}
	})
}

// The trial key once published in docker-compose.yml signs nothing, in
// any environment: anyone could mint a token with it.
func TestTheTrialKeyIsRefused(t *testing.T) {
	for _, envName := range []string{"production", "development"} {
		env := map[string]string{"PITLANE_ENV": envName, "JWT_SECRET": "dev-only-shared-trial-key-change-me-0123456789"}
		if _, err := FromEnv(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "published") {
			t.Fatalf("%s with the published trial key: %v", envName, err)
		}
	}
}

// The metrics are served apart from the app, on loopback unless told.
func TestMetricsAddr(t *testing.T) {
	c, err := FromEnv(env(nil))
	if err != nil || c.MetricsAddr != "" {
		t.Fatalf("default METRICS_ADDR %q %v, want none (off)", c.MetricsAddr, err)
	}
	c, err = FromEnv(env(map[string]string{"METRICS_ADDR": "127.0.0.1:9090"}))
	if err != nil || c.MetricsAddr != "127.0.0.1:9090" {
		t.Fatalf("%q %v", c.MetricsAddr, err)
	}
	if _, err := FromEnv(env(map[string]string{"METRICS_ADDR": "9090"})); err == nil {
		t.Fatal("accepted METRICS_ADDR without a host:port")
	}
	if _, err := FromEnv(env(map[string]string{"METRICS_ADDR": ":8080"})); err == nil {
		t.Fatal("accepted METRICS_ADDR equal to ADDR")
	}
}

func TestDiscord(t *testing.T) {
	c, err := FromEnv(env(map[string]string{"ADDR": ":9000"}))
	if err != nil || c.PublicURL != "http://localhost:9000" || c.DiscordAPIURL != DiscordAPIDefault || c.DiscordClientID != "" {
		t.Fatalf("defaults: %q %q %v", c.PublicURL, c.DiscordAPIURL, err)
	}
	c, err = FromEnv(env(map[string]string{"PUBLIC_URL": "https://league.example.com/", "DISCORD_CLIENT_ID": "1",
		"DISCORD_CLIENT_SECRET": "s", "DISCORD_BOT_TOKEN": "t", "DISCORD_ANNOUNCE_CHANNEL": "123456789012345678"}))
	if err != nil || c.PublicURL != "https://league.example.com" || c.Redacted()["discord_client_secret"] != "***" {
		t.Fatalf("%+v %v", c, err)
	}
	for name, bad := range map[string]map[string]string{
		"ClientWithoutSecret": {"DISCORD_CLIENT_ID": "1"},
		"ChannelNotAnID":      {"DISCORD_BOT_TOKEN": "t", "DISCORD_ANNOUNCE_CHANNEL": "#general"},
		"ChannelWithoutBot":   {"DISCORD_ANNOUNCE_CHANNEL": "123"},
		"PublicURLNotAURL":    {"PUBLIC_URL": "league.example.com"},
		"APIURLNotAURL":       {"DISCORD_API_URL": "ftp://x"},
		"ProductionLocalhost": {"PITLANE_ENV": "production", "JWT_SECRET": strings.Repeat("k", 40), "DISCORD_CLIENT_ID": "1", "DISCORD_CLIENT_SECRET": "s"},
	} {
		if _, err := FromEnv(env(bad)); err == nil {
			t.Errorf("%s: accepted %v", name, bad)
		}
	}
}

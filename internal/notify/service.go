package notify

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// MaxDevices is how many browsers one player may get push messages on.
const MaxDevices = 10

// Service is the notification rules: a player's own choices and devices,
// the unsubscribe links, and the jobs that send (jobs.go).
type Service struct {
	Store     Store
	Directory Directory
	Tx        core.Transactor
	Jobs      core.Scheduler
	// Push is nil when no VAPID keys are configured: push is then off.
	Push Pusher
	// PushKey is the VAPID public key browsers subscribe with.
	PushKey string
	// AllowEndpoint says which push services a subscription may name (the
	// server posts to them); nil takes none.
	AllowEndpoint func(*url.URL) bool
	// DM is nil without a bot token: Discord DMs are then off.
	DM DMer
	// Secret signs the unsubscribe links; PublicURL is the site's address.
	Secret    []byte
	PublicURL string
}

// Choice is one kind with the channels it is on.
type Choice struct {
	Kind    string `json:"kind"`
	Label   string `json:"label"`
	Push    bool   `json:"push"`
	Discord bool   `json:"discord"`
}

// Settings is what a player chose and what can reach them.
type Settings struct {
	Kinds []Choice `json:"kinds"`
	Push  struct {
		Available bool   `json:"available"`  // the server has VAPID keys
		PublicKey string `json:"public_key"` // the VAPID key to subscribe with
		Devices   int    `json:"devices"`    // browsers subscribed
	} `json:"push"`
	Discord struct {
		Available bool `json:"available"` // the bot can send DMs
		Linked    bool `json:"linked"`    // the player linked a Discord account
	} `json:"discord"`
}

// mine refuses anonymous callers: a player's settings are their own, and
// nobody else's (not even an organiser's) to read or change.
func mine(a core.Actor) error {
	if a.UserID == 0 {
		return errs.E(errs.Unauthorized, "Sign in to choose your notifications.")
	}
	return nil
}

// Settings are a's own.
func (s *Service) Settings(ctx context.Context, a core.Actor) (Settings, error) {
	var out Settings
	if err := mine(a); err != nil {
		return out, err
	}
	on, err := s.Store.Choices(ctx, a.UserID)
	if err != nil {
		return out, err
	}
	for _, k := range Kinds {
		out.Kinds = append(out.Kinds, Choice{Kind: k.Kind, Label: k.Label, Push: on[k.Kind][ChannelPush], Discord: on[k.Kind][ChannelDiscord]})
	}
	out.Push.Available = s.Push != nil
	if out.Push.Available {
		out.Push.PublicKey = s.PushKey
	}
	if out.Push.Devices, err = s.Store.CountDevices(ctx, a.UserID); err != nil {
		return out, err
	}
	id, err := s.Store.DiscordID(ctx, a.UserID)
	out.Discord.Available, out.Discord.Linked = s.DM != nil, id != ""
	return out, err
}

// Choose sets a's choices: each kind given, on the channels given.
func (s *Service) Choose(ctx context.Context, a core.Actor, choices []Choice) (Settings, error) {
	if err := mine(a); err != nil {
		return Settings{}, err
	}
	on := map[string]map[string]bool{}
	for _, c := range choices {
		if !knownKind(c.Kind) {
			return Settings{}, errs.E(errs.Invalid, "Unknown notification kind %q.", errs.Echo(c.Kind))
		}
		on[c.Kind] = map[string]bool{ChannelPush: c.Push, ChannelDiscord: c.Discord}
	}
	if err := s.Store.SetChoices(ctx, a.UserID, on); err != nil {
		return Settings{}, err
	}
	return s.Settings(ctx, a)
}

// Subscribe keeps d as one of a's browsers. The endpoint must be a push
// service the server may post to, and the keys the browser's (RFC 8291).
func (s *Service) Subscribe(ctx context.Context, a core.Actor, d Device) error {
	if err := mine(a); err != nil {
		return err
	}
	if s.Push == nil {
		return errs.E(errs.Conflict, "Push notifications are off on this server.")
	}
	if len(d.Endpoint) > 1000 || !s.allowed(d.Endpoint) {
		return errs.E(errs.Unprocessable, "This browser's push service is not one the server sends to.")
	}
	if key, err := decodeKey(d.Keys.P256dh); err != nil || len(key) != 65 || key[0] != 4 {
		return errs.E(errs.Invalid, "The subscription's p256dh key is not a P-256 public key.")
	}
	if auth, err := decodeKey(d.Keys.Auth); err != nil || len(auth) != 16 {
		return errs.E(errs.Invalid, "The subscription's auth secret is not 16 bytes.")
	}
	n, err := s.Store.CountDevices(ctx, a.UserID)
	if err != nil {
		return err
	}
	if n >= MaxDevices {
		return errs.E(errs.Conflict, "Push is on for %d browsers already: turn it off on one first.", MaxDevices)
	}
	d.UserID = a.UserID
	// A browser's endpoint already kept for another account moves to this
	// one only with the same keys: the same browser, signed in as someone
	// else now. Knowing an endpoint is not owning the browser.
	return s.Store.AddDevice(ctx, d)
}

// allowed tells an endpoint the server may post to (AllowEndpoint).
func (s *Service) allowed(endpoint string) bool {
	u, err := url.Parse(endpoint)
	return err == nil && u.Host != "" && s.AllowEndpoint != nil && s.AllowEndpoint(u)
}

// Unsubscribe forgets one of a's browsers.
func (s *Service) Unsubscribe(ctx context.Context, a core.Actor, endpoint string) error {
	if err := mine(a); err != nil {
		return err
	}
	return s.Store.RemoveDevice(ctx, a.UserID, endpoint)
}

func decodeKey(k string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(k, "="))
}

// UnsubscribeToken is the signed token of the link that turns kind off
// for user: "user.kind.mac".
func (s *Service) UnsubscribeToken(user int64, kind string) string {
	payload := strconv.FormatInt(user, 10) + "." + kind
	return payload + "." + s.mac(payload)
}

func (s *Service) mac(payload string) string {
	h := hmac.New(sha256.New, s.Secret)
	h.Write([]byte("notify-off|" + payload))
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:18])
}

// UnsubscribeURL is the site's page that turns kind off for user.
func (s *Service) UnsubscribeURL(user int64, kind string) string {
	return strings.TrimRight(s.PublicURL, "/") + "/notifications/off?token=" + url.QueryEscape(s.UnsubscribeToken(user, kind))
}

// TurnOff turns the kind of a signed token off on every channel, for its
// player, and answers the kind's label.
func (s *Service) TurnOff(ctx context.Context, token string) (string, error) {
	bad := errs.E(errs.Invalid, "This unsubscribe link is not valid.")
	i := strings.LastIndexByte(token, '.')
	if i < 0 || !hmac.Equal([]byte(s.mac(token[:i])), []byte(token[i+1:])) {
		return "", bad
	}
	idText, kind, _ := strings.Cut(token[:i], ".")
	user, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || !knownKind(kind) {
		return "", bad
	}
	if err := s.Store.TurnOff(ctx, user, kind); err != nil {
		return "", err
	}
	for _, k := range Kinds {
		if k.Kind == kind {
			return k.Label, nil
		}
	}
	return kind, nil
}

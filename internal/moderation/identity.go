package moderation

import (
	"crypto/hmac"
	"crypto/sha256"
	"strconv"
	"strings"
)

// Identity is what a player signs in with: their account, their e-mail
// address, and the Google and Discord accounts they proved.
type Identity struct {
	UserID    int64
	Email     string
	GoogleID  string // Google's subject, "" for none
	DiscordID string // the proven Discord account's id, "" for none
}

// Keys are the identity's keys, as a sanction is kept against them: an
// HMAC of each part under secret, so the table names no address and no
// outside account, yet a new account on any of them is recognised.
func (id Identity) Keys(secret []byte) [][]byte {
	var parts []string
	if id.UserID != 0 {
		parts = append(parts, "user:"+strconv.FormatInt(id.UserID, 10))
	}
	if id.Email != "" {
		parts = append(parts, "email:"+strings.ToLower(strings.TrimSpace(id.Email)))
	}
	if id.GoogleID != "" {
		parts = append(parts, "google:"+id.GoogleID)
	}
	if id.DiscordID != "" {
		parts = append(parts, "discord:"+id.DiscordID)
	}
	keys := make([][]byte, 0, len(parts))
	for _, p := range parts {
		m := hmac.New(sha256.New, secret)
		m.Write([]byte(p))
		keys = append(keys, m.Sum(nil))
	}
	return keys
}

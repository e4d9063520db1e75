package accounts

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// AccountRef is an account as an organiser picks it (a co-organiser, say):
// its id and the names the league knows it by, never its e-mail.
type AccountRef struct {
	ID              int64  `json:"id"`
	Name            string `json:"name"`
	DiscordUsername string `json:"discord_username"`
	DiscordVerified bool   `json:"discord_verified"`
}

// FindAccounts finds up to ten verified accounts whose name or Discord name
// holds q, or whose e-mail is q exactly (the answer never shows it): for
// the site's organisers.
func (s *Service) FindAccounts(ctx context.Context, a core.Actor, q string) ([]AccountRef, error) {
	if err := a.MustBeAdmin(); err != nil {
		return nil, err
	}
	q = strings.TrimSpace(q)
	if n := utf8.RuneCountInString(q); n < 2 || n > 64 {
		return nil, errs.E(errs.Invalid, "Search with 2 to 64 characters")
	}
	return s.Store.FindAccounts(ctx, q, strings.ToLower(q), 10)
}

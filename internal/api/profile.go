package api

import (
	"net/http"
	"time"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Profile is the seed's User as GET /api/auth/profile answers it. It is only
// ever sent to the user it describes.
type Profile struct {
	ID                   int64       `json:"id"`
	Email                string      `json:"email"`
	Name                 string      `json:"name"`
	Role                 string      `json:"role"`
	Avatar               *string     `json:"avatar"`
	EmailVerified        bool        `json:"email_verified"`
	GoogleLinked         bool        `json:"google_linked"`
	HasPassword          bool        `json:"has_password"`
	DiscordUsername      string      `json:"discord_username"`
	DiscordID            string      `json:"discord_id"` // the proven Discord account, "" for none
	DiscordVerified      bool        `json:"discord_verified"`
	SKStatsUploaded      bool        `json:"sk_stats_uploaded"`
	SKStatsVerified      bool        `json:"sk_stats_verified"`
	TournamentRegistered bool        `json:"tournament_registered"`
	StatsData            *core.Stats `json:"stats_data"`
	CreatedAt            time.Time   `json:"created_at"`
}

// profileOf builds the profile of u, acting as a, for the default tournament.
func (s *Server) profileOf(r *http.Request, u accounts.User, a core.Actor) (Profile, error) {
	p := Profile{
		ID: u.ID, Email: u.Email, Name: u.Name, Role: a.Role(), EmailVerified: u.EmailVerified,
		GoogleLinked: u.GoogleID != "", HasPassword: u.PasswordHash != "", DiscordUsername: u.DiscordUsername, DiscordID: u.DiscordID, DiscordVerified: u.DiscordVerified,
		CreatedAt: u.CreatedAt,
	}
	if u.AvatarURL != "" {
		p.Avatar = &u.AvatarURL
	}
	st, err := s.Stats.Get(r.Context(), a)
	if err != nil {
		return p, err
	}
	if st != nil {
		p.StatsData, p.SKStatsUploaded, p.SKStatsVerified = st, true, st.Verified
	}
	p.TournamentRegistered, err = s.Tournaments.IsRegistered(r.Context(), a, "")
	if errs.KindOf(err) == errs.NotFound {
		err = nil // no such tournament (yet): not registered, and signing in still works
	}
	return p, err
}

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
	Security             Security    `json:"security"`
	// StaffOf names the tournaments the account co-organises.
	StaffOf []string `json:"staff_of"`
}

// Security is where the account's sign-in stands: its session, and the
// second factors that guard an organiser's powers.
type Security struct {
	SessionID int64 `json:"session_id"`
	// OrganiserLocked: the account is an organiser's, and this session
	// must use its second factor before it acts as one.
	OrganiserLocked       bool `json:"organiser_locked"`
	SecondFactorAvailable bool `json:"second_factor_available"`
	SecondFactorRequired  bool `json:"second_factor_required"`
	SessionVerified       bool `json:"session_verified"`
	TOTP                  bool `json:"totp"`
	Passkeys              int  `json:"passkeys"`
	RecoveryCodesLeft     int  `json:"recovery_codes_left"`
	PasskeysOn            bool `json:"passkeys_on"`
}

// profileOf builds the profile of the signed-in session au, for the
// default tournament.
func (s *Server) profileOf(r *http.Request, au accounts.Authenticated) (Profile, error) {
	u, a := au.User, au.Actor
	p := Profile{
		ID: u.ID, Email: u.Email, Name: u.Name, Role: a.Role(), EmailVerified: u.EmailVerified,
		GoogleLinked: u.GoogleID != "", HasPassword: u.PasswordHash != "", DiscordUsername: u.DiscordUsername, DiscordID: u.DiscordID, DiscordVerified: u.DiscordVerified,
		CreatedAt: u.CreatedAt,
	}
	if u.AvatarURL != "" {
		p.Avatar = &u.AvatarURL
	}
	p.StaffOf = []string{}
	for _, g := range au.Staff {
		p.StaffOf = append(p.StaffOf, g.Tournament)
	}
	sf, err := s.Accounts.SecondFactors(r.Context(), au)
	if err != nil {
		return p, err
	}
	p.Security = Security{SessionID: au.Session.ID, OrganiserLocked: au.OrganiserLocked,
		SecondFactorAvailable: sf.Available, SecondFactorRequired: sf.Required, SessionVerified: sf.SessionVerified,
		TOTP: sf.TOTP, Passkeys: sf.Passkeys, RecoveryCodesLeft: sf.RecoveryLeft, PasskeysOn: s.Accounts.Passkeys != nil}
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

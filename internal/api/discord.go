package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// discordFlow keeps the OAuth2 state in the browser that started the
// flow: the callback needs it as well as the state Discord hands back, so a
// link started by one person cannot be finished in another's browser.
var discordFlow = oauthFlow{cookie: "pitlane_discord_state", path: "/api/auth/discord/callback", param: "discord", page: "/",
	ttl: accounts.DiscordStateTTL}

// discordRoutes are the proven Discord link of the signed-in user (the
// bot's `!register` is the other way to prove one).
func (s *Server) discordRoutes() chi.Router {
	r := chi.NewRouter()
	r.Get("/callback", s.discordCallback) // the browser, back from Discord: no bearer token
	r.Group(func(r chi.Router) {
		r.Use(requireUser, s.perUser(ratelimit.DiscordUser))
		r.Get("/authorize", s.discordAuthorize)
		r.Delete("/", s.discordUnlink)
	})
	return r
}

func (s *Server) discordAuthorize(w http.ResponseWriter, r *http.Request) {
	authURL, state, err := s.Accounts.StartDiscordLink(r.Context(), actorOf(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	discordFlow.start(w, r, authURL, state)
}

// discordCallback finishes the flow and sends the browser back to the site,
// which shows the outcome on the profile.
func (s *Server) discordCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	back := func(outcome, msg string) { discordFlow.back(w, r, s.Config.PublicURL, outcome, msg) }
	if e := q.Get("error"); e != "" {
		back("error", "Discord linking was cancelled.")
		return
	}
	_, err := s.Accounts.FinishDiscordLink(r.Context(), q.Get("state"), discordFlow.browserState(r), q.Get("code"))
	if err != nil {
		if errs.KindOf(err) == errs.Internal {
			s.Log.Error("discord callback", "err", err)
		}
		back("error", errs.MessageOf(err))
		return
	}
	back("linked", accounts.MsgDiscordLinked)
}

func (s *Server) discordUnlink(w http.ResponseWriter, r *http.Request) {
	u, err := s.Accounts.UnlinkDiscord(r.Context(), actorOf(r))
	s.writeUser(w, r, u, err, accounts.MsgDiscordUnlinked)
}

package api

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// discordStateCookie holds the OAuth2 state in the browser that started the
// flow: the callback needs it as well as the state Discord hands back, so a
// link started by one person cannot be finished in another's browser.
const discordStateCookie = "pitlane_discord_state"

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
	http.SetCookie(w, &http.Cookie{
		Name: discordStateCookie, Value: state, Path: "/api/auth/discord/callback",
		MaxAge: int(accounts.DiscordStateTTL.Seconds()), HttpOnly: true,
		Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https",
		// Lax: the cookie comes along when Discord sends the browser back.
		SameSite: http.SameSiteLaxMode,
	})
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"url": authURL})
}

// discordCallback finishes the flow and sends the browser back to the site,
// which shows the outcome on the profile.
func (s *Server) discordCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	back := func(outcome, msg string) {
		http.SetCookie(w, &http.Cookie{Name: discordStateCookie, Value: "", Path: "/api/auth/discord/callback", MaxAge: -1, HttpOnly: true})
		v := url.Values{"discord": {outcome}}
		if msg != "" {
			v.Set("message", msg)
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, strings.TrimRight(s.Config.PublicURL, "/")+"/?"+v.Encode(), http.StatusFound)
	}
	if e := q.Get("error"); e != "" {
		back("error", "Discord linking was cancelled.")
		return
	}
	cookie := ""
	if c, err := r.Cookie(discordStateCookie); err == nil {
		cookie = c.Value
	}
	_, err := s.Accounts.FinishDiscordLink(r.Context(), q.Get("state"), cookie, q.Get("code"))
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

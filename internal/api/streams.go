// The streams calls: who is live, a player's channel link, a tournament's
// official channels, and Twitch's EventSub webhook.

package api

import (
	"errors"
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/streams"
)

// twitchFlow keeps the link flow's state in the browser that began it, as
// discordFlow does; the browser lands back on /streams, which says how it
// went.
var twitchFlow = oauthFlow{cookie: "pitlane_twitch_state", path: "/api/auth/twitch/callback", param: "twitch", page: "/streams",
	ttl: streams.StateTTL}

// maxWebhookBody bounds an EventSub message (they are a few KB).
const maxWebhookBody = 64 << 10

// twitchRoutes are the player's Twitch channel link under /api/auth/twitch.
func (s *Server) twitchRoutes() chi.Router {
	r := chi.NewRouter()
	r.Get("/callback", s.twitchCallback) // the browser, back from Twitch: no bearer token
	r.With(requireUser, s.perUser(ratelimit.StreamsUser)).Get("/start", s.twitchStart)
	return r
}

// streamAdminRoutes are a tournament's official channels.
func (s *Server) streamAdminRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(requireUser, s.perUser(ratelimit.LeagueAdmin))
		r.Put("/tournaments/{name}/channels/{platform}/{channel}", s.addOfficialChannel)
		r.Delete("/tournaments/{name}/channels/{platform}/{channel}", s.removeOfficialChannel)
	})
}

func (s *Server) streamList(w http.ResponseWriter, r *http.Request) {
	list, err := s.Streams.List(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) twitchStart(w http.ResponseWriter, r *http.Request) {
	authURL, state, err := s.Streams.StartLink(r.Context(), actorOf(r), streams.PlatformTwitch)
	if err != nil {
		writeError(w, r, err)
		return
	}
	twitchFlow.start(w, r, authURL, state)
}

// twitchCallback finishes the link and sends the browser back to the
// profile, which says how it went.
func (s *Server) twitchCallback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	back := func(outcome, msg string) { twitchFlow.back(w, r, s.Config.PublicURL, outcome, msg) }
	if q.Get("error") != "" {
		back("error", "Linking Twitch was cancelled.")
		return
	}
	if _, err := s.Streams.FinishLink(r.Context(), q.Get("state"), twitchFlow.browserState(r), q.Get("code")); err != nil {
		if errs.KindOf(err) == errs.Internal {
			s.Log.Error("twitch callback", "err", err)
		}
		back("error", errs.MessageOf(err))
		return
	}
	back("linked", "Twitch channel linked.")
}

func (s *Server) myChannels(w http.ResponseWriter, r *http.Request) {
	list, err := s.Streams.Mine(r.Context(), actorOf(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"channels": list})
}

func (s *Server) unlinkChannel(w http.ResponseWriter, r *http.Request) {
	if err := s.Streams.Unlink(r.Context(), actorOf(r), chi.URLParam(r, "platform")); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": "Channel unlinked."})
}

func (s *Server) addOfficialChannel(w http.ResponseWriter, r *http.Request) {
	st, err := s.Streams.AddOfficial(r.Context(), actorOf(r), chi.URLParam(r, "name"), chi.URLParam(r, "platform"), chi.URLParam(r, "channel"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) removeOfficialChannel(w http.ResponseWriter, r *http.Request) {
	err := s.Streams.RemoveOfficial(r.Context(), actorOf(r), chi.URLParam(r, "name"), chi.URLParam(r, "platform"), chi.URLParam(r, "channel"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// twitchWebhook reads the raw body once, bounded, and hands it with the
// headers to the service, which checks the signature before reading it.
func (s *Server) twitchWebhook(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.WebhookIP, limitIP(r)) {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, r, errs.E(errs.TooLarge, "An EventSub message is at most 64 KiB."))
			return
		}
		writeError(w, r, errs.E(errs.Invalid, "The body could not be read."))
		return
	}
	a, err := s.Streams.Webhook(r.Context(), r.Header, body)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if a.Challenge != "" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, a.Challenge)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

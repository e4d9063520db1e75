// The notifications a player chooses: their settings and browsers
// (/api/me/notifications), and the unsubscribe link's action.

package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/notify"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// meRoutes are the signed-in player's own things.
func (s *Server) meRoutes() chi.Router {
	r := chi.NewRouter()
	r.Use(requireUser)
	r.Get("/notifications", s.notificationSettings)
	r.Put("/notifications", s.chooseNotifications)
	r.Post("/notifications/push", s.subscribePush)
	r.Delete("/notifications/push", s.unsubscribePush)
	s.accountRoutes(r)
	r.Get("/channels", s.myChannels)
	r.With(s.perUser(ratelimit.StreamsUser)).Delete("/channels/{platform}", s.unlinkChannel)
	r.Get("/sanctions", s.mySanctions)
	r.Get("/follows", s.myFollows)
	r.With(s.perUser(ratelimit.FollowUser)).Put("/follows/visibility", s.setFollowsVisible)
	s.payoutMeRoutes(r)
	return r
}

func (s *Server) notificationSettings(w http.ResponseWriter, r *http.Request) {
	out, err := s.Notify.Settings(r.Context(), actorOf(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) chooseNotifications(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Kinds []notify.Choice `json:"kinds"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	out, err := s.Notify.Choose(r.Context(), actorOf(r), in.Kinds)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) subscribePush(w http.ResponseWriter, r *http.Request) {
	var in notify.Device
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Notify.Subscribe(r.Context(), actorOf(r), in); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"message": "Push notifications are on in this browser."})
}

func (s *Server) unsubscribePush(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Endpoint string `json:"endpoint"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Notify.Unsubscribe(r.Context(), actorOf(r), in.Endpoint); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// notificationsOff is the unsubscribe link's action: the signed token turns
// its kind off, no sign-in needed.
func (s *Server) notificationsOff(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token string `json:"token"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	label, err := s.Notify.TurnOff(r.Context(), in.Token)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"kind": label, "message": "Turned off: " + label + "."})
}

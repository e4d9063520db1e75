// The footer's newsletter sign-up.

package api

import (
	"net/http"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

func (s *Server) subscribe(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.NewsletterIP, limitIP(r)) {
		return
	}
	var in emailOnly
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	email, err := accounts.NormalizeEmail(in.Email)
	if err == nil && s.limited(w, r, ratelimit.NewsletterEmail, emailKey(email)) {
		return
	}
	if err == nil {
		err = s.Newsletter.Subscribe(r.Context(), email)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"message": "Thanks for subscribing! League news will reach your inbox."})
}

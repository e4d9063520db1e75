package api

import (
	"errors"
	"io"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/payments"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/stripepay"
	"github.com/pitlane/pitlane/internal/tournament"
)

// WebhookVerifier checks a payment platform's signed event (stripepay.Client).
type WebhookVerifier interface {
	Verify(body []byte, signature string) (payments.Event, error)
}

// paymentRoutes are a player's checkout, under /api/tournaments.
func (s *Server) paymentRoutes(r chi.Router) {
	r.With(requireUser, s.perUser(ratelimit.RegisterUser)).Post("/{name}/payments/checkout", s.checkout)
}

func (s *Server) checkout(w http.ResponseWriter, r *http.Request) {
	url, err := s.Payments.Checkout(r.Context(), actorOf(r), chi.URLParam(r, "name"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"url": url})
}

// stripeWebhook takes Stripe's events: the raw body read once (bounded),
// its signature checked before anything in it is read, each event handled
// once.
func (s *Server) stripeWebhook(w http.ResponseWriter, r *http.Request) {
	if s.Webhooks == nil || !s.Payments.On() {
		writeError(w, r, errs.E(errs.NotFound, payments.MsgPaymentsOff))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, stripepay.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, r, errs.E(errs.TooLarge, "That event is too large."))
			return
		}
		writeError(w, r, errs.E(errs.Invalid, "The event could not be read."))
		return
	}
	ev, err := s.Webhooks.Verify(body, r.Header.Get("Stripe-Signature"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Payments.Handle(r.Context(), ev); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"received": true})
}

// registerPaying registers the signed-in player, holding a confirmed place
// pending payment when the season asks an entry fee.
func (s *Server) registerPaying(r *http.Request, name string) (tournament.Entry, string, error) {
	if s.Payments == nil {
		e, err := s.Tournaments.Register(r.Context(), actorOf(r), name)
		return e, payments.AnswerNone, err
	}
	return s.Payments.Register(r.Context(), actorOf(r), name)
}

// unregisterPaying takes the signed-in player off the list, refunding a paid fee.
func (s *Server) unregisterPaying(r *http.Request, name string) error {
	if s.Payments == nil {
		return s.Tournaments.Unregister(r.Context(), actorOf(r), name)
	}
	return s.Payments.Unregister(r.Context(), actorOf(r), name)
}

// paymentOf is what a registration answer says of the player's fee.
func (s *Server) paymentOf(r *http.Request, a core.Actor, name string) string {
	if s.Payments == nil {
		return payments.AnswerNone
	}
	p, err := s.Payments.Answer(r.Context(), a, name)
	if err != nil {
		return payments.AnswerNone
	}
	return p
}

package api

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

// sessionRoutes are the account's sessions and second factor, under
// /api/auth.
func (s *Server) sessionRoutes(r chi.Router) {
	r.Post("/password-reset/request", s.requestReset)
	r.Post("/password-reset/confirm", s.confirmReset)
	r.Group(func(r chi.Router) {
		r.Use(requireUser)
		r.Get("/sessions", s.listSessions)
		r.Delete("/sessions/{id}", s.endSession)
		r.Post("/sessions/revoke", s.revokeSessions)
		r.With(s.secondStepLimits).Post("/2fa/verify", s.verifySecondFactor)
		r.Post("/2fa/passkey/begin", s.beginPasskey)
		r.With(s.secondStepLimits).Post("/2fa/passkey/finish", s.finishPasskey)
	})
}

// secondStepLimits bound a session's tries at its second factor so that
// guessing stays bounded and a stranger who has the password cannot lock
// its owner out: per session and per client address, and per account for
// browsers that never used the account's factor (the owner's carries a
// cookie saying it did).
func (s *Server) secondStepLimits(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		au := currentAuth(r)
		if s.limited(w, r, ratelimit.SecondFactorSession, "session:"+strconv.FormatInt(au.Session.ID, 10)) ||
			s.limited(w, r, ratelimit.SecondFactorIP, limitIP(r)) {
			return
		}
		if s.factorDevice(r, au.User.ID) == "" && s.limited(w, r, ratelimit.SecondFactorAccount, "user:"+strconv.FormatInt(au.User.ID, 10)) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// accountRoutes are the signed-in player's own account, under /api/me
// (which requires a user).
func (s *Server) accountRoutes(r chi.Router) {
	r.With(s.perUser(ratelimit.AccountUser)).Delete("/", s.deleteAccount)
	r.With(s.perUser(ratelimit.AccountUser)).Get("/export", s.exportAccount)
	r.With(s.perUser(ratelimit.EmailChangeUser)).Post("/email", s.requestEmailChange)
	r.With(s.perUser(ratelimit.SecondFactorUser)).Post("/email/confirm", s.confirmEmailChange)
	r.With(s.perUser(ratelimit.PasswordUser)).Post("/2fa/totp", s.beginTOTP)
	r.With(s.perUser(ratelimit.SecondFactorUser)).Post("/2fa/totp/confirm", s.confirmTOTP)
	r.Delete("/2fa/totp", s.removeTOTP)
	r.Post("/2fa/recovery-codes", s.newRecoveryCodes)
	r.Get("/passkeys", s.listPasskeys)
	r.With(s.perUser(ratelimit.PasswordUser)).Post("/passkeys/begin", s.beginAddPasskey)
	r.With(s.perUser(ratelimit.SecondFactorUser)).Post("/passkeys/finish", s.finishAddPasskey)
	r.Delete("/passkeys/{id}", s.removePasskey)
}

// writeAuth answers a change to the session: msg, the profile as it now is
// and extra fields.
func (s *Server) writeAuth(w http.ResponseWriter, r *http.Request, au accounts.Authenticated, msg string, extra map[string]any) {
	p, err := s.profileOf(r, au)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := map[string]any{"message": msg, "user": p}
	for k, v := range extra {
		out[k] = v
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) requestReset(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.ResetIP, limitIP(r)) {
		return
	}
	var in emailOnly
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if s.limited(w, r, ratelimit.ResetEmailClient, emailClientKey(r, in.Email)) {
		return
	}
	next, err := s.Accounts.RequestPasswordReset(r.Context(), in.Email)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, codeAnswer(accounts.MsgResetSent, next))
}

type resetInput struct {
	Email           string `json:"email"`
	Code            string `json:"code"`
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword,omitempty"`
}

func (s *Server) confirmReset(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.ResetConfirmIP, limitIP(r)) {
		return
	}
	var in resetInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if s.limited(w, r, ratelimit.ResetConfirmEmail, emailClientKey(r, in.Email)) {
		return
	}
	if in.ConfirmPassword != "" && in.ConfirmPassword != in.Password {
		writeError(w, r, errs.E(errs.Invalid, accounts.MsgPasswordsDiffer))
		return
	}
	sess, err := s.Accounts.ResetPassword(r.Context(), in.Email, in.Code, in.Password)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.setDevice(w, r, sess.User.Email)
	s.writeSession(w, r, sess, accounts.MsgPasswordReset)
}

// sessionView is a session as the account's owner sees it.
type sessionView struct {
	ID             int64      `json:"id"`
	Client         string     `json:"client"`
	Method         string     `json:"method"`
	CreatedAt      time.Time  `json:"created_at"`
	SeenAt         time.Time  `json:"seen_at"`
	ExpiresAt      time.Time  `json:"expires_at"`
	SecondFactorAt *time.Time `json:"second_factor_at"`
	Current        bool       `json:"current"`
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	au := currentAuth(r)
	list, err := s.Accounts.ListSessions(r.Context(), au.Actor)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]sessionView, len(list))
	for i, st := range list {
		out[i] = sessionView{ID: st.ID, Client: st.Client, Method: st.Method, CreatedAt: st.CreatedAt, SeenAt: st.SeenAt,
			ExpiresAt: st.ExpiresAt, SecondFactorAt: st.SecondFactorAt, Current: st.ID == au.Session.ID}
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": out})
}

func (s *Server) endSession(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Session")
	if err == nil {
		err = s.Accounts.EndSession(r.Context(), actorOf(r), id)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": "Signed out of that session.", "current": id == currentAuth(r).Session.ID})
}

func (s *Server) revokeSessions(w http.ResponseWriter, r *http.Request) {
	var in struct {
		// Others keeps the session the call is made from.
		Others bool `json:"others"`
	}
	if r.ContentLength != 0 {
		if err := decode(w, r, &in); err != nil {
			writeError(w, r, err)
			return
		}
	}
	n, err := s.Accounts.SignOutEverywhere(r.Context(), actorOf(r), currentAuth(r).Session.ID, in.Others)
	if err != nil {
		writeError(w, r, err)
		return
	}
	msg := "Signed out everywhere, here too."
	if in.Others {
		msg = "Signed out of every other session."
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": msg, "ended": n})
}

type codeInput struct {
	Code string `json:"code"`
}

type passwordInput struct {
	Password string `json:"password"`
}

func (s *Server) verifySecondFactor(w http.ResponseWriter, r *http.Request) {
	var in codeInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	au, err := s.Accounts.VerifySecondFactor(r.Context(), currentAuth(r), in.Code)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.setFactorDevice(w, r, au.User.ID)
	s.writeAuth(w, r, au, "Confirmed: this session may act as an organiser.", nil)
}

// passkeyPrompt answers the start of a ceremony: its id and the options the
// browser passes to navigator.credentials.
func passkeyPrompt(w http.ResponseWriter, r *http.Request, p accounts.PasskeyPrompt, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ceremony": p.Ceremony, "options": json.RawMessage(p.Options)})
}

type passkeyAnswer struct {
	Ceremony   string          `json:"ceremony"`
	Name       string          `json:"name,omitempty"`
	Credential json.RawMessage `json:"credential"`
}

func (s *Server) beginPasskey(w http.ResponseWriter, r *http.Request) {
	p, err := s.Accounts.BeginPasskey(r.Context(), currentAuth(r))
	passkeyPrompt(w, r, p, err)
}

func (s *Server) finishPasskey(w http.ResponseWriter, r *http.Request) {
	var in passkeyAnswer
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	au, err := s.Accounts.FinishPasskey(r.Context(), currentAuth(r), in.Ceremony, in.Credential)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.setFactorDevice(w, r, au.User.ID)
	s.writeAuth(w, r, au, "Confirmed with your passkey: this session may act as an organiser.", nil)
}

func (s *Server) beginTOTP(w http.ResponseWriter, r *http.Request) {
	var in passwordInput
	if r.ContentLength != 0 {
		if err := decode(w, r, &in); err != nil {
			writeError(w, r, err)
			return
		}
	}
	k, err := s.Accounts.BeginTOTP(r.Context(), currentAuth(r), in.Password)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"secret": k.Secret, "otpauth_url": k.URL, "qr": k.QR})
}

func (s *Server) confirmTOTP(w http.ResponseWriter, r *http.Request) {
	var in codeInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	au, codes, err := s.Accounts.ConfirmTOTP(r.Context(), currentAuth(r), in.Code)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.setFactorDevice(w, r, au.User.ID)
	if codes == nil {
		codes = []string{}
	}
	s.writeAuth(w, r, au, "Your authenticator app is set up.", map[string]any{"recovery_codes": codes})
}

func (s *Server) removeTOTP(w http.ResponseWriter, r *http.Request) {
	au, err := s.Accounts.RemoveTOTP(r.Context(), currentAuth(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.writeAuth(w, r, au, "The authenticator app is removed.", nil)
}

func (s *Server) newRecoveryCodes(w http.ResponseWriter, r *http.Request) {
	codes, err := s.Accounts.NewRecoveryCodes(r.Context(), currentAuth(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": "New recovery codes: the old ones no longer work.", "recovery_codes": codes})
}

type passkeyView struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
}

func (s *Server) listPasskeys(w http.ResponseWriter, r *http.Request) {
	keys, err := s.Accounts.ListPasskeys(r.Context(), currentAuth(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]passkeyView, len(keys))
	for i, k := range keys {
		out[i] = passkeyView{ID: base64.RawURLEncoding.EncodeToString(k.ID), Name: k.Name, CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt}
	}
	writeJSON(w, http.StatusOK, map[string]any{"passkeys": out})
}

func (s *Server) beginAddPasskey(w http.ResponseWriter, r *http.Request) {
	var in passwordInput
	if r.ContentLength != 0 {
		if err := decode(w, r, &in); err != nil {
			writeError(w, r, err)
			return
		}
	}
	p, err := s.Accounts.BeginAddPasskey(r.Context(), currentAuth(r), in.Password)
	passkeyPrompt(w, r, p, err)
}

func (s *Server) finishAddPasskey(w http.ResponseWriter, r *http.Request) {
	var in passkeyAnswer
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	au, err := s.Accounts.FinishAddPasskey(r.Context(), currentAuth(r), in.Ceremony, in.Name, in.Credential)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.setFactorDevice(w, r, au.User.ID)
	s.writeAuth(w, r, au, "Passkey added.", nil)
}

func (s *Server) removePasskey(w http.ResponseWriter, r *http.Request) {
	id, err := accounts.PasskeyID(chi.URLParam(r, "id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	au, err := s.Accounts.RemovePasskey(r.Context(), currentAuth(r), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.writeAuth(w, r, au, "Passkey removed.", nil)
}

func (s *Server) requestEmailChange(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email    string `json:"email"`
		Password string `json:"password,omitempty"`
	}
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.Accounts.RequestEmailChange(r.Context(), currentAuth(r), in.Email, in.Password); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"message": accounts.MsgEmailCodeSent})
}

func (s *Server) confirmEmailChange(w http.ResponseWriter, r *http.Request) {
	var in codeInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	u, err := s.Accounts.ConfirmEmailChange(r.Context(), currentAuth(r), in.Code)
	if err != nil {
		writeError(w, r, err)
		return
	}
	au := currentAuth(r)
	au.User = u
	// The organiser role follows the address (ADMIN_EMAILS): work it out
	// again for the new one.
	fresh, err := s.Accounts.Reauthenticate(r.Context(), au)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.setDevice(w, r, u.Email)
	s.writeAuth(w, r, fresh, "Your address is changed.", nil)
}

func (s *Server) exportAccount(w http.ResponseWriter, r *http.Request) {
	doc, err := s.Accounts.Export(r.Context(), currentAuth(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="pitlane-account-`+
		strconv.FormatInt(currentAuth(r).User.ID, 10)+`.json"`)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(`{"exported_at":"` + time.Now().UTC().Format(time.RFC3339) + `","data":`))
	_, _ = w.Write(doc)
	_, _ = w.Write([]byte("}\n"))
}

func (s *Server) deleteAccount(w http.ResponseWriter, r *http.Request) {
	var in passwordInput
	if r.ContentLength != 0 {
		if err := decode(w, r, &in); err != nil {
			writeError(w, r, err)
			return
		}
	}
	if err := s.Accounts.DeleteAccount(r.Context(), currentAuth(r), in.Password); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": accounts.MsgDeleted})
}

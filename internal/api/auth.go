package api

import (
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/ratelimit"
)

func (s *Server) authRoutes() chi.Router {
	r := chi.NewRouter()
	r.Post("/signup", s.signup)
	r.Post("/verify-otp", s.verifyOTP)
	r.Post("/resend-otp", s.resendOTP)
	r.Post("/login", s.login)
	r.Post("/google-login", s.googleLogin)
	r.Mount("/discord", s.discordRoutes())
	r.Mount("/twitch", s.twitchRoutes())
	s.sessionRoutes(r)
	r.Group(func(r chi.Router) {
		r.Use(requireUser)
		r.Get("/profile", s.profile)
		r.Get("/calendar", s.calendarLink)
		r.With(s.perUser(ratelimit.MatchUser)).Post("/calendar/reset", s.calendarReset)
		r.With(s.perUser(ratelimit.DiscordUser)).Post("/update-discord-username", s.updateDiscord)
		r.With(s.perUser(ratelimit.PasswordUser)).Post("/change-password", s.changePassword)
	})
	return r
}

// emailKey is the per-e-mail rate-limit key: the normalised address, so
// case and spaces do not give an attacker more tries.
func emailKey(email string) string {
	e, err := accounts.NormalizeEmail(email)
	if err != nil {
		return ""
	}
	return e
}

// emailClientKey is the key of a limit per e-mail and client: one client
// using up an address's requests leaves its owner's intact.
func emailClientKey(r *http.Request, email string) string {
	e := emailKey(email)
	if e == "" {
		return ""
	}
	return e + "|" + limitIP(r)
}

// codeAnswer is the answer to sign-up and resend: the message, and how many
// seconds until another code may be requested for the address (for the
// web's countdown).
func codeAnswer(msg string, next time.Duration) map[string]any {
	return map[string]any{"message": msg, "resend_after": int(math.Ceil(next.Seconds()))}
}

func (s *Server) signup(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.SignupIP, limitIP(r)) {
		return
	}
	var in accounts.SignupInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if s.limited(w, r, ratelimit.SignupEmailClient, emailClientKey(r, in.Email)) {
		return
	}
	next, err := s.Accounts.Signup(r.Context(), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, codeAnswer(accounts.MsgAccountCreated, next))
}

type emailOTP struct {
	Email string `json:"email"`
	OTP   string `json:"otp"`
	// Password, optional: the web app sends the one typed at sign-up, so a
	// code cannot verify an account whose password someone else chose.
	Password string `json:"password,omitempty"`
}

func (s *Server) verifyOTP(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.VerifyIP, limitIP(r)) {
		return
	}
	var in emailOTP
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if s.limited(w, r, ratelimit.VerifyEmailClient, emailClientKey(r, in.Email)) {
		return
	}
	if err := s.Accounts.VerifyOTP(r.Context(), in.Email, in.OTP, in.Password); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"message": accounts.MsgVerified})
}

type emailOnly struct {
	Email string `json:"email"`
}

func (s *Server) resendOTP(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.ResendIP, limitIP(r)) {
		return
	}
	var in emailOnly
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if s.limited(w, r, ratelimit.ResendEmailClient, emailClientKey(r, in.Email)) {
		return
	}
	next, err := s.Accounts.ResendOTP(r.Context(), in.Email)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, codeAnswer(accounts.MsgOTPSent, next))
}

type credentials struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var in credentials
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if s.loginLimited(w, r, emailKey(in.Email)) {
		return
	}
	sess, err := s.Accounts.Login(r.Context(), in.Email, in.Password)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.setDevice(w, r, sess.User.Email)
	s.writeSession(w, r, sess, "Login successful!")
}

// loginLimited applies the login limits so that guessing is bounded and
// nobody can lock an account's owner out: strict per account and client (a
// browser that signed in to the account before is its own client, whatever
// its address), per client address across accounts, and, for browsers the
// account has not seen, the account's looser limit across all clients.
func (s *Server) loginLimited(w http.ResponseWriter, r *http.Request, email string) bool {
	if dev := s.device(r, email); dev != "" {
		return s.limited(w, r, ratelimit.LoginEmailClient, email+"|device:"+dev)
	}
	return s.limited(w, r, ratelimit.LoginIP, limitIP(r)) ||
		s.limited(w, r, ratelimit.LoginEmailClient, emailClientKey(r, email)) ||
		s.limited(w, r, ratelimit.LoginEmail, email)
}

// googleCredential is the body of google-login: Google's ID token. The
// seed's email/name/picture/googleId fields are accepted but never trusted.
type googleCredential struct {
	Credential string `json:"credential"`
	Email      string `json:"email"`
	Name       string `json:"name"`
	Picture    string `json:"picture"`
	GoogleID   string `json:"googleId"`
}

func (s *Server) googleLogin(w http.ResponseWriter, r *http.Request) {
	if s.limited(w, r, ratelimit.GoogleIP, limitIP(r)) {
		return
	}
	var in googleCredential
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	sess, err := s.Accounts.GoogleLogin(r.Context(), in.Credential)
	if err != nil {
		writeError(w, r, err)
		return
	}
	s.setDevice(w, r, sess.User.Email)
	s.writeSession(w, r, sess, accounts.MsgGoogleOK)
}

func (s *Server) writeSession(w http.ResponseWriter, r *http.Request, sess accounts.Session, msg string) {
	p, err := s.profileOf(r, sess.Auth)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": msg, "token": sess.Token, "user": p})
}

func (s *Server) profile(w http.ResponseWriter, r *http.Request) {
	p, err := s.profileOf(r, currentAuth(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": p})
}

type discordInput struct {
	DiscordUsername string `json:"discordUsername"`
}

func (s *Server) updateDiscord(w http.ResponseWriter, r *http.Request) {
	var in discordInput
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	u, err := s.Accounts.UpdateDiscord(r.Context(), actorOf(r), in.DiscordUsername)
	s.writeUser(w, r, u, err, accounts.MsgDiscordUpdated)
}

// writeUser answers a change to the signed-in user's account: err, or msg
// with their profile as it now is.
func (s *Server) writeUser(w http.ResponseWriter, r *http.Request, u accounts.User, err error, msg string) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	au := currentAuth(r)
	au.User = u
	p, err := s.profileOf(r, au)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": msg, "user": p})
}

type passwordChange struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
	ConfirmPassword string `json:"confirmPassword"`
}

func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) {
	var in passwordChange
	if err := decode(w, r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	au := currentAuth(r)
	u, err := s.Accounts.ChangePassword(r.Context(), au, in.CurrentPassword, in.NewPassword, in.ConfirmPassword)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// This session goes on with the token it has.
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	au.User = u
	s.writeSession(w, r, accounts.Session{Token: strings.TrimSpace(tok), User: u, Actor: au.Actor, Auth: au},
		"Password changed. Other sessions have been signed out.")
}

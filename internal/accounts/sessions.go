package accounts

import (
	"context"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Sign-in methods, as a session records how it began.
const (
	MethodPassword = "password"
	MethodGoogle   = "google"
	MethodReset    = "password reset"
	MethodChange   = "password change"
)

// FreshFor is how long after a sign-in a session counts as fresh: what a
// password would otherwise be asked for (deleting a Google account, adding
// a first second factor) may then be done without one.
const FreshFor = 10 * time.Minute

// StoredSession is one sign-in on one browser, kept on the server: every
// token names one, and ending it ends the token at once.
type StoredSession struct {
	ID     int64
	UserID int64
	Method string
	// Client names the browser from its User-Agent ("Chrome on Linux");
	// nothing of the client's address is kept.
	Client    string
	CreatedAt time.Time
	SeenAt    time.Time
	ExpiresAt time.Time
	// SecondFactorAt is when a second factor was used in this session; nil
	// for none.
	SecondFactorAt *time.Time
}

// Fresh tells a session that began within FreshFor of now.
func (s StoredSession) Fresh(now time.Time) bool { return now.Sub(s.CreatedAt) < FreshFor }

// SessionStore keeps the sessions.
type SessionStore interface {
	CreateSession(ctx context.Context, s StoredSession) (StoredSession, error)
	// FindSession is the live session id of userID with its account, and
	// whether the account has a second factor; it notes that the session
	// was seen. An ended or expired session is NotFound.
	FindSession(ctx context.Context, userID, id int64) (User, StoredSession, bool, error)
	ListSessions(ctx context.Context, userID int64) ([]StoredSession, error)
	// EndSessions ends userID's sessions: the one id when only is set,
	// else every one but keep (0: all). It returns the ids ended.
	EndSessions(ctx context.Context, userID int64, only, keep int64) ([]int64, error)
	// MarkSecondFactor records that a second factor was used in session id.
	MarkSecondFactor(ctx context.Context, userID, id int64) (StoredSession, error)
}

// Authenticated is who a token belongs to: the account, the session, and
// who they act as in it.
type Authenticated struct {
	User    User
	Session StoredSession
	Actor   core.Actor
	// OrganiserLocked: the account is an organiser's, but this session
	// must use a second factor before it acts as one.
	OrganiserLocked bool
	// HasSecondFactor: a TOTP or a passkey is enrolled.
	HasSecondFactor bool
	// Staff are the tournaments the account co-organises (acted on only
	// when not OrganiserLocked).
	Staff []core.StaffGrant
}

type clientKey struct{}

// WithClient carries the browser's User-Agent to the sign-in that a
// request makes, for the session's label.
func WithClient(ctx context.Context, userAgent string) context.Context {
	return context.WithValue(ctx, clientKey{}, userAgent)
}

// clientLabel names a browser from its User-Agent, coarsely enough that it
// says which of one's own devices it is and no more.
func clientLabel(ctx context.Context) string {
	ua, _ := ctx.Value(clientKey{}).(string)
	if ua == "" {
		return "Unknown browser"
	}
	browser := "A browser"
	for _, b := range []struct{ token, name string }{
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"Chrome/", "Chrome"},
		{"Chromium/", "Chromium"}, {"Safari/", "Safari"}, {"curl/", "curl"}, {"node", "Node.js"},
	} {
		if strings.Contains(ua, b.token) {
			browser = b.name
			break
		}
	}
	os := ""
	for _, o := range []struct{ token, name string }{
		{"Android", "Android"}, {"iPhone", "iPhone"}, {"iPad", "iPad"}, {"Windows", "Windows"},
		{"Mac OS X", "macOS"}, {"CrOS", "ChromeOS"}, {"Linux", "Linux"},
	} {
		if strings.Contains(ua, o.token) {
			os = o.name
			break
		}
	}
	if os == "" {
		return browser
	}
	return browser + " on " + os
}

// startSession opens a session for u and issues its token.
func (s *Service) startSession(ctx context.Context, u User, method string, secondFactor bool) (Session, error) {
	if s.MaySignIn != nil {
		if err := s.MaySignIn(ctx, u); err != nil {
			return Session{}, err
		}
	}
	now := time.Now()
	st := StoredSession{UserID: u.ID, Method: method, Client: clientLabel(ctx), ExpiresAt: now.Add(auth.TokenTTL)}
	if secondFactor {
		st.SecondFactorAt = &now
	}
	st, err := s.Sessions.CreateSession(ctx, st)
	if err != nil {
		return Session{}, err
	}
	au, err := s.authenticated(ctx, u, st, false)
	if err != nil {
		return Session{}, err
	}
	tok, err := s.Tokens.Issue(u.ID, st.ID)
	if err != nil {
		return Session{}, err
	}
	return Session{Token: tok, User: u, Actor: au.Actor, Auth: au}, nil
}

// Authenticate checks a session token: signature and expiry, and a
// session still open on a verified account.
func (s *Service) Authenticate(ctx context.Context, token string) (Authenticated, error) {
	id, sid, err := s.Tokens.Parse(token)
	if err != nil {
		return Authenticated{}, ErrUnauthenticated
	}
	u, st, factor, err := s.Sessions.FindSession(ctx, id, sid)
	if errs.KindOf(err) == errs.NotFound {
		return Authenticated{}, ErrUnauthenticated
	} else if err != nil {
		return Authenticated{}, err
	}
	if !u.EmailVerified {
		return Authenticated{}, ErrUnauthenticated
	}
	return s.authenticated(ctx, u, st, factor)
}

// authenticated works out who u acts as in session st.
func (s *Service) authenticated(ctx context.Context, u User, st StoredSession, hasFactor bool) (Authenticated, error) {
	listed := u.EmailVerified && s.Admins[u.Email]
	if listed && !hasFactor {
		// Only an organiser's role depends on it: one read, for them alone.
		var err error
		if hasFactor, err = s.hasSecondFactor(ctx, u.ID); err != nil {
			return Authenticated{}, err
		}
	}
	caps, staff, err := s.Store.Roles(ctx, u.ID)
	if err != nil {
		return Authenticated{}, err
	}
	// A co-organiser's powers are an organiser's, and wait for the same
	// second factor.
	organiser := u.EmailVerified && (listed || len(staff) > 0)
	if organiser && !listed && !hasFactor {
		if hasFactor, err = s.hasSecondFactor(ctx, u.ID); err != nil {
			return Authenticated{}, err
		}
	}
	locked := organiser && st.SecondFactorAt == nil && (s.RequireSecondFactor || hasFactor)
	a := core.NewActor(u.ID, u.DisplayName(), listed && !locked, caps)
	if !locked {
		a = a.WithStaff(staff)
	}
	return Authenticated{User: u, Session: st, Actor: a, OrganiserLocked: locked, HasSecondFactor: hasFactor, Staff: staff}, nil
}

// hasSecondFactor tells whether the account has a confirmed TOTP or a
// passkey; false when second factors are not kept.
func (s *Service) hasSecondFactor(ctx context.Context, userID int64) (bool, error) {
	if s.Factors == nil {
		return false, nil
	}
	f, err := s.Factors.FactorsOf(ctx, userID)
	return f.Any(), err
}

// Sessions lists the signed-in user's open sessions, newest first.
func (s *Service) ListSessions(ctx context.Context, a core.Actor) ([]StoredSession, error) {
	if err := a.MustBeUser(); err != nil {
		return nil, err
	}
	return s.Sessions.ListSessions(ctx, a.UserID)
}

// EndSession ends one of the signed-in user's sessions (signing out that
// browser); ending another account's is NotFound.
func (s *Service) EndSession(ctx context.Context, a core.Actor, id int64) error {
	if err := a.MustBeUser(); err != nil {
		return err
	}
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		ended, err := s.Sessions.EndSessions(ctx, a.UserID, id, 0)
		if err != nil {
			return err
		}
		if len(ended) == 0 {
			return errs.E(errs.NotFound, "No such session")
		}
		return s.sessionsEnded(ctx, a, ActionSignedOut, ended, map[string]any{"session": id})
	})
}

// SignOutEverywhere ends the signed-in user's sessions: all of them, or
// all but current when others is set, and moves the account's calendar
// feed to a new address (the old one then answers 404). It returns how many
// sessions ended.
func (s *Service) SignOutEverywhere(ctx context.Context, a core.Actor, current int64, others bool) (int, error) {
	if err := a.MustBeUser(); err != nil {
		return 0, err
	}
	keep := int64(0)
	if others {
		keep = current
	}
	var n int
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		ended, err := s.Sessions.EndSessions(ctx, a.UserID, 0, keep)
		if err != nil {
			return err
		}
		if s.RotateFeeds != nil {
			if err := s.RotateFeeds(ctx, a.UserID); err != nil {
				return err
			}
		}
		n = len(ended)
		return s.sessionsEnded(ctx, a, ActionSignedOutEverywhere, ended, map[string]any{"sessions": len(ended), "kept_this_one": others})
	})
	return n, err
}

// Audited account actions of this package besides core's.
const (
	ActionSignedOut           = "account.signed_out"
	ActionSignedOutEverywhere = "account.signed_out_everywhere"
	ActionResetRequested      = "account.password_reset_requested"
	ActionPasswordReset       = "account.password_reset"
	ActionEmailChangeAsked    = "account.email_change_requested"
	ActionEmailChanged        = "account.email_changed"
	ActionDeleted             = "account.deleted"
	ActionExported            = "account.exported"
	ActionSecondFactorAdded   = "account.second_factor_added"
	ActionSecondFactorRemoved = "account.second_factor_removed"
	ActionSecondFactorUsed    = "account.second_factor_used"
)

// EventSessionEnded, on a user's own topic, tells every instance's hub to
// check that user's open websockets again now: those whose session ended
// are closed.
const EventSessionEnded = core.EventSessionEnded

// sessionsEnded audits ended sessions and tells the live layer, in the
// transaction that ended them.
func (s *Service) sessionsEnded(ctx context.Context, a core.Actor, action string, ended []int64, data map[string]any) error {
	if len(ended) == 0 {
		return nil
	}
	u, err := s.Store.FindUserByID(ctx, a.UserID)
	if err != nil {
		return err
	}
	if err := s.Audit.Record(ctx, a, action, 0, userTarget(u), data); err != nil {
		return err
	}
	return s.endedEvent(ctx, a.UserID, ended)
}

// endedEvent tells the live layer which of userID's sessions ended.
func (s *Service) endedEvent(ctx context.Context, userID int64, ended []int64) error {
	if s.Events == nil || len(ended) == 0 {
		return nil
	}
	_, err := s.Events.Emit(ctx, core.UserTopic(userID), EventSessionEnded, map[string]any{"sessions": ended})
	return err
}

// Reauthenticate works out again who au acts as, after a change to its
// account (a new address may carry the organiser role, or lose it).
func (s *Service) Reauthenticate(ctx context.Context, au Authenticated) (Authenticated, error) {
	return s.authenticated(ctx, au.User, au.Session, au.HasSecondFactor)
}

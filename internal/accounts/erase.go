package accounts

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/auth"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// DeletionFacts are what may keep an account from being deleted now.
type DeletionFacts struct {
	// Running are the teams the user captains in tournaments not yet
	// completed: a team needs its captain until the season ends.
	Running []core.Captaincy
	// OnTheBlock names the tournaments where the user is up in an open lot.
	OnTheBlock []string
}

// ErasureStore erases and exports accounts.
type ErasureStore interface {
	DeletionFacts(ctx context.Context, userID int64) (DeletionFacts, error)
	// EraseAccount removes everything personal of the account and leaves
	// it under pseudonym: the league's records (teams, matches, sales,
	// audit) keep pointing at its id and show the pseudonym.
	EraseAccount(ctx context.Context, userID int64, pseudonym string) error
	// Export is everything the site holds about the account, as JSON.
	Export(ctx context.Context, userID int64) (json.RawMessage, error)
}

// Pseudonym is the name a deleted account is shown under.
func Pseudonym(userID int64) string { return "Deleted player " + strconv.FormatInt(userID, 10) }

// MsgDeleted answers a deletion.
const MsgDeleted = "Your account has been deleted. The league's records keep your results under a pseudonym; nothing else of you is kept."

// DeleteAccount erases the signed-in account, confirmed with its password
// (an account without one: a sign-in made in the last ten minutes). Its
// personal data goes at once; the league's history stays whole under the
// pseudonym "Deleted player N". A captain of a season still running must
// wait for its end, or have an organiser name another captain first.
// leave withdraws the player from the tournaments they may still leave
// (internal/tournament), in the same transaction. An account with a second
// factor is deleted only from a session that used it.
func (s *Service) DeleteAccount(ctx context.Context, au Authenticated, password string) error {
	if au.User.ID == 0 {
		return ErrUnauthenticated
	}
	if err := secondFactorUsed(au); err != nil {
		return err
	}
	u := au.User
	switch {
	case u.PasswordHash != "":
		if password == "" || !auth.CheckPassword(u.PasswordHash, password) {
			return errs.E(errs.Invalid, MsgPasswordToConfirm)
		}
	case !au.Session.Fresh(time.Now()):
		return errs.E(errs.Forbidden, "Sign in again (with Google) to confirm it is you, then delete the account within ten minutes.")
	}
	return s.erase(ctx, u, au.Actor)
}

// EraseForOperator deletes the account of email as DeleteAccount does, on
// the site operator's word (a player who lost access asked them): the
// command line's `pitlane account delete`. The same refusals hold.
func (s *Service) EraseForOperator(ctx context.Context, email string) (int64, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return 0, err
	}
	u, err := s.Store.FindUserByEmail(ctx, email)
	if err != nil {
		return 0, err
	}
	return u.ID, s.erase(ctx, u, core.Actor{UserID: u.ID, Name: Pseudonym(u.ID)})
}

// erase is the deletion of u, acting as a, in one transaction.
func (s *Service) erase(ctx context.Context, u User, a core.Actor) error {
	return s.Tx.Transact(ctx, func(ctx context.Context) error {
		f, err := s.Erasure.DeletionFacts(ctx, u.ID)
		if err != nil {
			return err
		}
		if why := f.refusal(); why != "" {
			return errs.E(errs.Conflict, "%s", why)
		}
		if s.Leave != nil {
			if err := s.Leave(ctx, a); err != nil {
				return err
			}
		}
		ended, err := s.Sessions.EndSessions(ctx, u.ID, 0, 0)
		if err != nil {
			return err
		}
		// The entry names the account by id and pseudonym only.
		if err := s.Audit.Record(ctx, core.Actor{UserID: u.ID, Name: Pseudonym(u.ID)}, ActionDeleted, 0,
			"user "+strconv.FormatInt(u.ID, 10)+" ("+Pseudonym(u.ID)+")", nil); err != nil {
			return err
		}
		if err := s.Erasure.EraseAccount(ctx, u.ID, Pseudonym(u.ID)); err != nil {
			return err
		}
		if s.Changed != nil {
			// The lists the player stays on (a season past its
			// registration) show the pseudonym from now on.
			if err := s.Changed(ctx, u.ID); err != nil {
				return err
			}
		}
		if s.History != nil {
			// Nor do the events told before: a visitor who subscribes
			// from the start replays nothing of the account.
			if err := s.History.Redact(ctx, u.ID, Pseudonym(u.ID)); err != nil {
				return err
			}
		}
		return s.endedEvent(ctx, u.ID, ended)
	})
}

// refusal says why the account cannot go now, or "".
func (f DeletionFacts) refusal() string {
	if len(f.Running) > 0 {
		var teams []string
		for _, c := range f.Running {
			teams = append(teams, "team "+c.Team+" of "+c.Tournament)
		}
		return "You captain " + strings.Join(teams, " and ") + ", which is still running: a team needs its captain until " +
			"the season ends. Ask an organiser to name another captain, then delete your account."
	}
	if len(f.OnTheBlock) > 0 {
		return "You are up in the auction of " + strings.Join(f.OnTheBlock, " and ") + " right now: wait for the lot to close."
	}
	return ""
}

// OwnSignedOut are the account events no session makes but the account
// itself: a sign-up confirmed and a password reset, each with the code
// mailed to its address. Its export says they were its own; a failed
// sign-in or a reset asked for its address were anyone's who typed it.
var OwnSignedOut = []string{core.ActionVerified, ActionPasswordReset}

// Export is everything the site holds about the signed-in user, as one
// JSON document (their copy of their data).
func (s *Service) Export(ctx context.Context, au Authenticated) (json.RawMessage, error) {
	if au.User.ID == 0 {
		return nil, ErrUnauthenticated
	}
	doc, err := s.Erasure.Export(ctx, au.User.ID)
	if err != nil {
		return nil, err
	}
	s.record(ctx, au.Actor, ActionExported, au.User, nil)
	return doc, nil
}

// A player who drops out: withdrawn by an organiser, with what becomes of their place and slot.

package tournament

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// ActionWithdraw is a player's withdrawal's audit entry.
const ActionWithdraw = "registration.withdraw"

// MaxWithdrawReason is the longest reason an organiser gives.
const MaxWithdrawReason = 200

// WithdrawInput is an organiser's withdrawal of a player: why, and who
// takes their slot on a team once the auction is over (0: nobody, the
// slot stays empty).
type WithdrawInput struct {
	Reason      string `json:"reason"`
	Replacement int64  `json:"replacement"`
}

// PlayerWithdrawal is what a withdrawal did.
type PlayerWithdrawal struct {
	Tournament string `json:"tournament"`
	UserID     int64  `json:"user_id"`
	Name       string `json:"name"`
	Reason     string `json:"reason"`
	// Team is the team the player left ("" for none); Replacement who took
	// their slot (nil: nobody).
	Team        string  `json:"team,omitempty"`
	Replacement *Player `json:"replacement"`
}

// WithdrawPlayer takes a player out of the season (organisers, until it is
// completed): their registration goes, as if they had unregistered. While
// registering, a confirmed place they free goes to the first waiting
// player, as for an unregistration. During the auction a player bought is
// taken off the team, the sale voided (the credits go back), and a player
// under the hammer waits for the lot to close. Once the matches are on,
// the player leaves their team: their slot stays empty, or goes to the
// replacement named, a confirmed player on no team or one on the waitlist
// (promoted), at the same price and as the same kind of slot (a
// substitute's to a substitute). What they played stands: their kills
// count for the Red Cap. A captain is not withdrawn alone: another captain
// is named first, or, once the matches are on, the team withdrawn.
func (s *Service) WithdrawPlayer(ctx context.Context, a core.Actor, name string, userID int64, in WithdrawInput) (PlayerWithdrawal, error) {
	if err := Admit(a, WithdrawPlayer); err != nil {
		return PlayerWithdrawal{}, err
	}
	in.Reason = strings.TrimSpace(in.Reason)
	if utf8.RuneCountInString(in.Reason) > MaxWithdrawReason {
		return PlayerWithdrawal{}, errs.E(errs.Invalid, "A reason is at most %d characters.", MaxWithdrawReason)
	}
	var w PlayerWithdrawal
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, _, err := s.lockRoster(ctx, a, name, WithdrawPlayer)
		if err != nil {
			return err
		}
		p, err := s.registered(ctx, t, userID)
		if err != nil {
			return err
		}
		w = PlayerWithdrawal{Tournament: t.Name, UserID: p.ID, Name: p.Name, Reason: in.Reason}
		if err := s.notACaptain(ctx, t, p); err != nil {
			return err
		}
		var replacement Player
		if in.Replacement != 0 {
			if t.Status != StatusMatches {
				return errs.E(errs.Invalid, "A replacement takes a team's slot once the auction is over: during %s's %s phase a withdrawal only frees the place.",
					t.Name, t.Status)
			}
			if in.Replacement == userID {
				return errs.E(errs.Invalid, "A player does not replace themselves.")
			}
			if replacement, err = s.registered(ctx, t, in.Replacement); err != nil {
				return err
			}
		}
		was, err := s.Store.Withdraw(ctx, t.ID, userID)
		if err != nil {
			return err
		}
		if replacement.Status == Waitlisted {
			// The place the withdrawn player held is theirs.
			if err := s.Store.Promote(ctx, t.ID, replacement.ID, true); err != nil {
				return err
			}
			if err := s.Audit.RecordAbout(ctx, a, ActionPromote, t.ID, core.AuditSubject{UserID: replacement.ID, Name: replacement.Name},
				map[string]any{"user_id": replacement.ID, "replaces": userID}); err != nil {
				return err
			}
		}
		if t.Status != StatusRegistration && s.OnWithdraw != nil {
			if w.Team, err = s.OnWithdraw(ctx, a, t, userID, in.Replacement); err != nil {
				return err
			}
		}
		data := map[string]any{"user_id": userID, "reason": in.Reason, "status": was, "phase": t.Status}
		if w.Team != "" {
			data["team"] = w.Team
		}
		if in.Replacement != 0 {
			data["replacement"] = in.Replacement
		}
		if err := s.Audit.RecordAbout(ctx, a, ActionWithdraw, t.ID, core.AuditSubject{UserID: userID, Name: p.Name}, data); err != nil {
			return err
		}
		if _, err := s.Events.Emit(ctx, core.TopicRegistrations, EventUnregistered, map[string]any{"tournament": t.Name, "id": userID}); err != nil {
			return err
		}
		if in.Replacement != 0 {
			cards, err := s.emitCards(ctx, t, []int64{in.Replacement})
			if err != nil {
				return err
			}
			w.Replacement = &cards[0]
		}
		if was == Confirmed && t.Status == StatusRegistration {
			return s.promoteInOrder(ctx, t)
		}
		return nil
	})
	return w, err
}

// registered is userID's card in t, or NotFound saying they are not on
// its list.
func (s *Service) registered(ctx context.Context, t Tournament, userID int64) (Player, error) {
	p, err := s.Store.RegisteredPlayer(ctx, t.ID, userID)
	if errs.KindOf(err) == errs.NotFound {
		return p, errs.E(errs.NotFound, "Player %d is not registered for %s.", userID, t.Name)
	}
	return p, err
}

// notACaptain refuses to withdraw a team's captain: the team needs one.
func (s *Service) notACaptain(ctx context.Context, t Tournament, p Player) error {
	teams, err := s.Store.Teams(ctx, t.ID)
	if err != nil {
		return err
	}
	for _, team := range teams {
		if team.Captain == nil || team.Captain.ID != p.ID {
			continue
		}
		if t.Status == StatusMatches {
			return errs.E(errs.Conflict, "%s captains team %s: a team plays with its captain, so withdraw the team instead.", p.Name, team.Letter)
		}
		return errs.E(errs.Conflict, "%s captains team %s: name another captain first, then withdraw them.", p.Name, team.Letter)
	}
	return nil
}

package tournament

import (
	"context"
	"fmt"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Events of the cap, the waitlist and the check-in, on the registrations
// topic: cards whose status or check-in changed, and a season's places
// when its cap or its check-in window changed.
const (
	EventRegistration = "registration.updated" // {"tournament","players":[card]}
	EventPlaces       = "registration.places"  // {"tournament","places"}
)

// Audited actions of the cap, the waitlist and the check-in.
const (
	ActionCap           = "registration.cap"
	ActionCheckinWindow = "registration.checkin_window"
	ActionCheckin       = "registration.checkin"
	ActionCheckinClosed = "registration.checkin_closed"
	ActionPromote       = "registration.promote"
)

// CheckinDeadline is the job that closes a check-in window at its
// deadline. It is written with the window (again when its deadline moves),
// so it survives restarts; a window moved, cancelled or closed since, or a
// season no longer registering, leaves it nothing to do.
type CheckinDeadline struct {
	Tournament int64     `json:"tournament"`
	Deadline   time.Time `json:"deadline"`
}

// Kind implements core.Job.
func (CheckinDeadline) Kind() string { return "tournament.checkin_deadline" }

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// lockRoster finds the named tournament, refuses act to a who may not
// take it there (Authorize) or in its phase, and locks its row (its list
// and phase) until the transaction ends, checking the phase again as it is
// now.
func (s *Service) lockRoster(ctx context.Context, a core.Actor, name string, act Action) (Tournament, Places, error) {
	t, err := s.Find(ctx, name)
	if err != nil {
		return t, Places{}, err
	}
	if err := Authorize(a, t, act); err != nil {
		return t, Places{}, err
	}
	if err := t.Allows(act); err != nil {
		return t, Places{}, err
	}
	if err := s.Barred(ctx, a, t, act); err != nil {
		return t, Places{}, err
	}
	t, places, err := s.Store.LockRoster(ctx, t.ID)
	if err != nil {
		return t, places, err
	}
	return t, places, t.Allows(act)
}

// entry is p's registration in t.
func (s *Service) entry(ctx context.Context, t Tournament, p Player) (Entry, error) {
	e := Entry{Tournament: t.Name, Registered: true, Status: p.Status, CheckedInAt: p.CheckedInAt}
	if p.Status != Waitlisted {
		return e, nil
	}
	waiting, err := s.Store.Waiting(ctx, t.ID)
	for i, id := range waiting {
		if id == p.ID {
			e.Place = i + 1
		}
	}
	return e, err
}

// cardAndEntry reads userID's card in t and their registration as it is
// now.
func (s *Service) cardAndEntry(ctx context.Context, t Tournament, userID int64) (Player, Entry, error) {
	p, err := s.Store.RegisteredPlayer(ctx, t.ID, userID)
	if err != nil {
		return p, Entry{}, err
	}
	e, err := s.entry(ctx, t, p)
	return p, e, err
}

// EntryOf is the signed-in player's registration in the named tournament.
func (s *Service) EntryOf(ctx context.Context, a core.Actor, name string) (Entry, error) {
	if err := a.MustBeUser(); err != nil {
		return Entry{}, err
	}
	t, err := s.Find(ctx, name)
	if err != nil {
		return Entry{}, err
	}
	_, e, err := s.cardAndEntry(ctx, t, a.UserID)
	if errs.KindOf(err) == errs.NotFound {
		return Entry{Tournament: t.Name}, nil
	}
	return e, err
}

// emitCards tells every list of the cards of ids (their status or check-in
// changed).
func (s *Service) emitCards(ctx context.Context, t Tournament, ids []int64) ([]Player, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	cards, err := s.Store.Cards(ctx, t.ID, ids)
	if err != nil {
		return nil, err
	}
	_, err = s.Events.Emit(ctx, core.TopicRegistrations, EventRegistration, map[string]any{"tournament": t.Name, "players": cards})
	return cards, err
}

// emitPlaces tells every list of t's places (its cap or check-in changed),
// as the store now has them, and returns them.
func (s *Service) emitPlaces(ctx context.Context, id int64) (Places, error) {
	t, places, err := s.Store.LockRoster(ctx, id)
	if err != nil {
		return places, err
	}
	places.CheckinState = t.Checkin.State(s.now())
	_, err = s.Events.Emit(ctx, core.TopicRegistrations, EventPlaces, map[string]any{"tournament": t.Name, "places": places})
	return places, err
}

// promoteInOrder confirms waiting players, first come first, while t (as
// locked) has places and moves its waitlist by itself (PromotesInOrder).
func (s *Service) promoteInOrder(ctx context.Context, t Tournament) error {
	if !PromotesInOrder(t) {
		return nil
	}
	places, err := s.Store.Places(ctx, t)
	if err != nil {
		return err
	}
	waiting, err := s.Store.Waiting(ctx, t.ID)
	if err != nil {
		return err
	}
	waiting = waiting[:max(min(len(waiting), t.Cap-places.Confirmed), 0)]
	for _, id := range waiting {
		if err := s.Store.Promote(ctx, t.ID, id, false); err != nil {
			return err
		}
	}
	cards, err := s.emitCards(ctx, t, waiting)
	for _, p := range cards {
		if err := s.Audit.RecordAbout(ctx, core.System, ActionPromote, t.ID, core.AuditSubject{UserID: p.ID, Name: p.Name},
			map[string]any{"user_id": p.ID, "in_order": true}); err != nil {
			return err
		}
	}
	return err
}

// SetCap caps the named tournament's confirmed registrations (organisers,
// while registering; 0 takes the cap away). Nobody confirmed is moved to
// the waitlist by a lower cap; a higher one promotes waiting players in
// order, until the check-in has closed.
func (s *Service) SetCap(ctx context.Context, a core.Actor, name string, limit int) (Places, error) {
	if err := Admit(a, SetCap); err != nil {
		return Places{}, err
	}
	if limit < 0 || limit > MaxCap {
		return Places{}, errs.E(errs.Invalid, "A cap is from 1 to %d players (0: no cap).", MaxCap)
	}
	var places Places
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, _, err := s.lockRoster(ctx, a, name, SetCap)
		if err != nil {
			return err
		}
		if err := s.Store.SetCap(ctx, t.ID, limit); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionCap, t.ID, t.Name, map[string]int{"from": t.Cap, "to": limit}); err != nil {
			return err
		}
		t.Cap = limit
		if err := s.promoteInOrder(ctx, t); err != nil {
			return err
		}
		places, err = s.emitPlaces(ctx, t.ID)
		return err
	})
	return places, err
}

// OpenCheckin opens the named tournament's check-in until deadline
// (organisers, while registering), moves the deadline of the window open,
// opens one again after one closed, or with nil takes the window away
// (nobody is moved to the waitlist). The window's job is written with it.
func (s *Service) OpenCheckin(ctx context.Context, a core.Actor, name string, deadline *time.Time) (Places, error) {
	if err := Admit(a, OpenCheckin); err != nil {
		return Places{}, err
	}
	if deadline != nil {
		d := deadline.UTC().Truncate(time.Minute)
		if now := s.now(); !d.After(now) || d.After(now.Add(CheckinAhead)) {
			return Places{}, errs.E(errs.Unprocessable, "A check-in deadline is in the future, within %d days.", int(CheckinAhead.Hours()/24))
		}
		deadline = &d
	}
	var places Places
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, _, err := s.lockRoster(ctx, a, name, OpenCheckin)
		if err != nil {
			return err
		}
		if deadline == nil && t.Checkin.Deadline == nil {
			return errs.E(errs.Conflict, "%s has no check-in to cancel.", t.Name)
		}
		// The job of the deadline before goes: a window closes once, at the
		// deadline it has.
		if err := s.Jobs.Unschedule(ctx, CheckinDeadline{}.Kind(), "tournament", t.ID); err != nil {
			return err
		}
		if deadline != nil {
			if err := s.Jobs.Schedule(ctx, CheckinDeadline{Tournament: t.ID, Deadline: *deadline}, *deadline); err != nil {
				return err
			}
		}
		if err := s.Store.SetCheckin(ctx, t.ID, deadline); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionCheckinWindow, t.ID, t.Name,
			map[string]any{"deadline": deadline, "was": t.Checkin.Deadline}); err != nil {
			return err
		}
		places, err = s.emitPlaces(ctx, t.ID)
		return err
	})
	return places, err
}

// CheckIn checks the signed-in player in for the named tournament while
// its window is open: a confirmed player keeps their place at the
// deadline; a waiting one shows the organisers they are there.
func (s *Service) CheckIn(ctx context.Context, a core.Actor, name string) (Entry, error) {
	if err := a.MustBeUser(); err != nil {
		return Entry{}, err
	}
	var e Entry
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, _, err := s.lockRoster(ctx, a, name, CheckIn)
		if err != nil {
			return err
		}
		if why := checkinRefusal(t, s.now()); why != "" {
			return errs.E(errs.Conflict, "%s", why)
		}
		changed, err := s.Store.CheckIn(ctx, t.ID, a.UserID)
		if errs.KindOf(err) == errs.NotFound {
			return errs.E(errs.Conflict, MsgNotRegistered)
		} else if err != nil {
			return err
		}
		var p Player
		if p, e, err = s.cardAndEntry(ctx, t, a.UserID); err != nil {
			return err
		}
		switch {
		case !changed:
			e.Message = fmt.Sprintf(MsgCheckedInAlready, t.Name)
			return nil
		case e.Status == Waitlisted:
			e.Message = fmt.Sprintf(MsgCheckedInWaiting, t.Name, e.Place)
		default:
			e.Message = fmt.Sprintf(MsgCheckedIn, t.Name)
		}
		if err := s.Audit.RecordAbout(ctx, a, ActionCheckin, t.ID, core.AuditSubject{UserID: p.ID, Name: p.Name}, map[string]any{"user_id": p.ID, "status": p.Status}); err != nil {
			return err
		}
		_, err = s.emitCards(ctx, t, []int64{p.ID})
		return err
	})
	return e, err
}

// CheckinDeadlineDue closes a check-in window at its deadline (the job):
// the confirmed players who did not check in, captains aside, go to the
// waitlist, behind those already waiting. A window moved, cancelled or
// closed since, or a season that is not registering, is left alone.
func (s *Service) CheckinDeadlineDue(ctx context.Context, job CheckinDeadline) error {
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, _, err := s.Store.LockRoster(ctx, job.Tournament)
		if err != nil {
			return err
		}
		if t.Allows(CloseCheckin) != nil || !t.Checkin.Pending() || !t.Checkin.Deadline.Equal(job.Deadline) {
			return nil
		}
		dropped, err := s.Store.CloseCheckin(ctx, t.ID, job.Deadline)
		if err != nil {
			return err
		}
		cards, err := s.emitCards(ctx, t, dropped)
		if err != nil {
			return err
		}
		names := make([]string, len(cards))
		for i, p := range cards {
			names[i] = p.Name
		}
		if err := s.Audit.Record(ctx, core.System, ActionCheckinClosed, t.ID, t.Name,
			map[string]any{"deadline": job.Deadline, "waitlisted": dropped, "names": names}); err != nil {
			return err
		}
		_, err = s.emitPlaces(ctx, t.ID)
		return err
	})
	if errs.KindOf(err) == errs.NotFound {
		return nil // the tournament is gone
	}
	return err
}

// Promote confirms a waiting player (organisers, before the matches), the
// one they choose, while the season has a place: during the auction they
// join the players it may put up. Once the check-in has closed, the
// promotion is their check-in.
func (s *Service) Promote(ctx context.Context, a core.Actor, name string, userID int64) (Entry, error) {
	if err := Admit(a, Promote); err != nil {
		return Entry{}, err
	}
	var e Entry
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, places, err := s.lockRoster(ctx, a, name, Promote)
		if err != nil {
			return err
		}
		p, err := s.Store.RegisteredPlayer(ctx, t.ID, userID)
		if errs.KindOf(err) == errs.NotFound {
			return errs.E(errs.NotFound, "Player %d is not registered for %s.", userID, t.Name)
		} else if err != nil {
			return err
		}
		if p.Status != Waitlisted {
			return errs.E(errs.Conflict, "%s is not on the waitlist.", p.Name)
		}
		if !HasPlace(t, places.Confirmed) {
			return errs.E(errs.Conflict, "%s is full (%d of %d places): raise the cap first.", t.Name, places.Confirmed, t.Cap)
		}
		if err := s.Store.Promote(ctx, t.ID, userID, PromotionChecksIn(t)); err != nil {
			return err
		}
		if err := s.Audit.RecordAbout(ctx, a, ActionPromote, t.ID, core.AuditSubject{UserID: p.ID, Name: p.Name}, map[string]any{"user_id": p.ID}); err != nil {
			return err
		}
		cards, err := s.emitCards(ctx, t, []int64{userID})
		if err != nil {
			return err
		}
		e, err = s.entry(ctx, t, cards[0])
		return err
	})
	return e, err
}

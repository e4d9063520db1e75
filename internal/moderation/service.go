package moderation

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/paging"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Audited actions.
const (
	ActionSanction    = "moderation.sanction"
	ActionLift        = "moderation.lift"
	ActionCloseReport = "moderation.close_report"
)

// Store keeps reports and sanctions (postgres.Moderation).
type Store interface {
	// Identity is the account's sign-in identity and display name;
	// NotFound when there is no such account.
	Identity(ctx context.Context, userID int64) (Identity, string, error)
	AddSanction(ctx context.Context, s Sanction, by int64, keys [][]byte) (Sanction, error)
	// LockSanction reads a sanction for a change, NotFound when missing.
	LockSanction(ctx context.Context, id int64) (Sanction, error)
	LiftSanction(ctx context.Context, id, by int64, reason string) (Sanction, error)
	// Sanctions are those of kinds (all kinds when empty) given to userID or
	// kept against any of keys, newest first, in every state.
	Sanctions(ctx context.Context, userID int64, keys [][]byte, kinds []string) ([]Sanction, error)
	// Subject finds what a report points at; NotFound when it is not there.
	Subject(ctx context.Context, kind string, id int64) (Subject, error)
	// AddReport files a report; Conflict when its reporter has an open one
	// about the same thing.
	AddReport(ctx context.Context, r Report, s Subject, reporter int64) (Report, error)
	// Reports lists reports newest first, at most limit, of tournamentID's
	// queue (0: every queue) in status, older than before (0: the newest).
	Reports(ctx context.Context, tournamentID int64, status string, before int64, limit int) ([]Report, error)
	LockReport(ctx context.Context, id int64) (Report, int64, error)
	CloseReport(ctx context.Context, id int64, status string, by int64) (Report, error)
}

// Tournaments finds tournaments.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
}

// Service applies the moderation rules.
type Service struct {
	Store       Store
	Tournaments Tournaments
	Tx          core.Transactor
	Audit       core.AuditLog
	// Key is the secret the identities' keys are made with.
	Key []byte
	// Organiser tells the site's organisers' addresses (ADMIN_EMAILS): no
	// sanction reaches them.
	Organiser func(email string) bool
	// EndSessions ends every session of a player banned from the site, in
	// the ban's transaction (nil: none are kept).
	EndSessions func(ctx context.Context, userID int64) error
	// Now is the clock (time.Now).
	Now func() time.Time
}

var _ core.Sanctions = (*Service)(nil)

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// SanctionInput is a sanction staff give.
type SanctionInput struct {
	UserID     int64      `json:"user_id"`
	Kind       string     `json:"kind"`
	Tournament string     `json:"tournament"`
	Until      *time.Time `json:"until"`
	Reason     string     `json:"reason"`
}

// reason checks a reason's length and trims it.
func reason(r string) (string, error) {
	r = strings.TrimSpace(r)
	if n := utf8.RuneCountInString(r); n < MinReason || n > MaxReason {
		return "", errs.E(errs.Invalid, "Give a reason of %d to %d characters.", MinReason, MaxReason)
	}
	return r, nil
}

// mayGive refuses a who may not give (or lift) a sanction of kind in the
// tournament (0: site-wide): a tournament's staff mute and ban in their
// tournament, the site's organisers anything anywhere.
func mayGive(a core.Actor, kind string, tournamentID int64) error {
	if kind == SiteBan || tournamentID == 0 {
		return a.MustBeAdmin()
	}
	return a.MustOrganise(tournamentID)
}

// Sanction gives a sanction: audited with who and why, in force at once; a
// site ban ends the player's sessions.
func (s *Service) Sanction(ctx context.Context, a core.Actor, in SanctionInput) (Sanction, error) {
	if err := a.MustBeUser(); err != nil {
		return Sanction{}, err
	}
	why, err := reason(in.Reason)
	if err != nil {
		return Sanction{}, err
	}
	now := s.now()
	sn := Sanction{Kind: in.Kind, Reason: why, EndsAt: in.Until}
	switch in.Kind {
	case Mute, TournamentBan:
	case SiteBan:
		if in.Tournament != "" {
			return Sanction{}, errs.E(errs.Invalid, "A site ban covers the whole site: name no tournament.")
		}
	default:
		return Sanction{}, errs.E(errs.Invalid, "kind must be mute, tournament_ban or site_ban")
	}
	switch {
	case in.Kind == Mute && in.Until == nil:
		return Sanction{}, errs.E(errs.Invalid, "A mute is for a time: say until when.")
	case in.Until != nil && in.Until.Before(now.Add(MinTerm)):
		return Sanction{}, errs.E(errs.Invalid, "until must be at least a minute from now.")
	case in.Until != nil && in.Until.After(now.Add(MaxTerm)):
		return Sanction{}, errs.E(errs.Invalid, "until is at most ten years from now; leave it out for a sanction until lifted.")
	}
	if in.Tournament != "" {
		t, err := s.Tournaments.Find(ctx, in.Tournament)
		if err != nil {
			return Sanction{}, err
		}
		sn.tournamentID, sn.Tournament = t.ID, t.Name
	}
	if err := mayGive(a, in.Kind, sn.tournamentID); err != nil {
		return Sanction{}, err
	}
	if in.UserID == a.UserID {
		return Sanction{}, errs.E(errs.Invalid, "You cannot sanction yourself.")
	}
	id, name, err := s.Store.Identity(ctx, in.UserID)
	if err != nil {
		return Sanction{}, err
	}
	if s.Organiser != nil && s.Organiser(id.Email) {
		return Sanction{}, errs.E(errs.Forbidden, "The site's organisers cannot be sanctioned.")
	}
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		uid := in.UserID
		sn.UserID = &uid
		if sn, err = s.Store.AddSanction(ctx, sn, a.UserID, id.Keys(s.Key)); err != nil {
			return err
		}
		data := map[string]any{"sanction": sn.ID, "kind": sn.Kind, "reason": sn.Reason, "until": sn.EndsAt, "user_id": in.UserID}
		if err := s.Audit.RecordAbout(ctx, a, ActionSanction, sn.tournamentID, core.AuditSubject{UserID: in.UserID, Name: name}, data); err != nil {
			return err
		}
		if sn.Kind == SiteBan && s.EndSessions != nil {
			return s.EndSessions(ctx, in.UserID)
		}
		return nil
	})
	sn.State = sn.StateAt(now)
	return sn, err
}

// LiftSanction ends an active sanction early, audited with who and why.
func (s *Service) LiftSanction(ctx context.Context, a core.Actor, id int64, why string) (Sanction, error) {
	if err := a.MustBeUser(); err != nil {
		return Sanction{}, err
	}
	why = strings.TrimSpace(why)
	if utf8.RuneCountInString(why) > MaxReason {
		return Sanction{}, errs.E(errs.Invalid, "A reason is at most %d characters.", MaxReason)
	}
	var sn Sanction
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		var err error
		if sn, err = s.Store.LockSanction(ctx, id); err != nil {
			return err
		}
		if err := mayGive(a, sn.Kind, sn.tournamentID); err != nil {
			return err
		}
		if st := sn.StateAt(s.now()); !allows(Lift, st) {
			return refuse(Lift, "sanction", st)
		}
		if sn, err = s.Store.LiftSanction(ctx, id, a.UserID, why); err != nil {
			return err
		}
		data := map[string]any{"sanction": sn.ID, "kind": sn.Kind, "reason": why}
		about := core.AuditSubject{}
		if sn.UserID != nil {
			about.UserID = *sn.UserID
			if _, about.Name, err = s.Store.Identity(ctx, *sn.UserID); err != nil {
				return err
			}
			data["user_id"] = *sn.UserID
			return s.Audit.RecordAbout(ctx, a, ActionLift, sn.tournamentID, about, data)
		}
		return s.Audit.Record(ctx, a, ActionLift, sn.tournamentID, "deleted account", data)
	})
	sn.State = sn.StateAt(s.now())
	return sn, err
}

// Mine are the caller's own sanctions, in force or past, with reasons and
// ends: those given to the account and those kept against its identities.
func (s *Service) Mine(ctx context.Context, a core.Actor) ([]Sanction, error) {
	if err := a.MustBeUser(); err != nil {
		return nil, err
	}
	id, _, err := s.Store.Identity(ctx, a.UserID)
	if err != nil {
		return nil, err
	}
	list, err := s.Store.Sanctions(ctx, a.UserID, id.Keys(s.Key), nil)
	now := s.now()
	for i := range list {
		list[i].State = list[i].StateAt(now)
	}
	return list, err
}

// inForce is the first sanction of kinds in force against id that covers
// the tournament (0: a place of none, which only site-wide ones cover).
func (s *Service) inForce(ctx context.Context, id Identity, tournamentID int64, kinds ...string) (*Sanction, error) {
	list, err := s.Store.Sanctions(ctx, id.UserID, id.Keys(s.Key), kinds)
	if err != nil {
		return nil, err
	}
	now := s.now()
	for i := range list {
		sn := list[i]
		if allows(Enforce, sn.StateAt(now)) && (sn.Kind == SiteBan || sn.covers(tournamentID)) {
			return &sn, nil
		}
	}
	return nil, nil
}

func (s *Service) check(ctx context.Context, userID, tournamentID int64, kinds ...string) error {
	id, _, err := s.Store.Identity(ctx, userID)
	if err != nil {
		return err
	}
	sn, err := s.inForce(ctx, id, tournamentID, kinds...)
	if err != nil || sn == nil {
		return err
	}
	return sn.Refusal()
}

// MayTakePart implements core.Sanctions.
func (s *Service) MayTakePart(ctx context.Context, userID, tournamentID int64) error {
	return s.check(ctx, userID, tournamentID, TournamentBan, SiteBan)
}

// MaySpeak implements core.Sanctions.
func (s *Service) MaySpeak(ctx context.Context, userID, tournamentID int64) error {
	return s.check(ctx, userID, tournamentID, Mute, TournamentBan, SiteBan)
}

// MaySignIn refuses an identity banned from the site, with the ban's
// reason and end: whichever of its account, address, Google or Discord
// identity the ban was kept against.
func (s *Service) MaySignIn(ctx context.Context, id Identity) error {
	sn, err := s.inForce(ctx, id, 0, SiteBan)
	if err != nil || sn == nil {
		return err
	}
	return sn.Refusal()
}

// ReportInput is a player's report.
type ReportInput struct {
	Kind   string `json:"kind"`
	ID     int64  `json:"id"`
	Reason string `json:"reason"`
}

// File files a player's report into the queue of the tournament it
// concerns (the site organisers' when none), with what was reported as it
// was then.
func (s *Service) File(ctx context.Context, a core.Actor, in ReportInput) (Report, error) {
	if err := a.MustBeUser(); err != nil {
		return Report{}, err
	}
	switch in.Kind {
	case ReportMessage, ReportProfile, ReportTeam:
	default:
		return Report{}, errs.E(errs.Invalid, "kind must be message, profile or team")
	}
	if in.ID <= 0 {
		return Report{}, errs.E(errs.Invalid, "id must be the id of what is reported")
	}
	why, err := reason(in.Reason)
	if err != nil {
		return Report{}, err
	}
	if in.Kind == ReportProfile && in.ID == a.UserID {
		return Report{}, errs.E(errs.Invalid, "You cannot report yourself.")
	}
	sub, err := s.Store.Subject(ctx, in.Kind, in.ID)
	if err != nil {
		return Report{}, err
	}
	return s.Store.AddReport(ctx, Report{Kind: in.Kind, SubjectID: in.ID, Reason: why}, sub, a.UserID)
}

// ReportQuery is one read of the queue.
type ReportQuery struct {
	Tournament string // "": every queue (the site's organisers)
	Status     string // "": open
	Cursor     string
	Limit      int
}

// ReportPage is a page of the queue, newest first; Next is the cursor of
// the following page, "" at the end.
type ReportPage struct {
	Reports []Report `json:"reports"`
	Next    string   `json:"next,omitempty"`
}

// Reports reads the queue: a tournament's for its staff, every one for the
// site's organisers.
func (s *Service) Reports(ctx context.Context, a core.Actor, q ReportQuery) (ReportPage, error) {
	var tid int64
	if q.Tournament == "" {
		if err := a.MustBeAdmin(); err != nil {
			return ReportPage{}, err
		}
	} else {
		t, err := s.Tournaments.Find(ctx, q.Tournament)
		if err != nil {
			return ReportPage{}, err
		}
		if err := a.MustOrganise(t.ID); err != nil {
			return ReportPage{}, err
		}
		tid = t.ID
	}
	switch q.Status {
	case "":
		q.Status = Open
	case Open, Resolved, Dismissed:
	default:
		return ReportPage{}, errs.E(errs.Invalid, "status must be open, resolved or dismissed")
	}
	key, err := paging.Decode(q.Cursor)
	if err != nil {
		return ReportPage{}, err
	}
	if q.Limit <= 0 || q.Limit > paging.Max {
		q.Limit = paging.Default
	}
	var before int64
	if key != nil {
		before = key.ID
	}
	list, err := s.Store.Reports(ctx, tid, q.Status, before, q.Limit+1)
	if err != nil {
		return ReportPage{}, err
	}
	p := ReportPage{Reports: list}
	if len(list) > q.Limit {
		p.Reports = list[:q.Limit]
		p.Next = paging.Key{ID: p.Reports[q.Limit-1].ID}.Encode()
	}
	return p, nil
}

// CloseReport settles an open report, resolved or dismissed, audited.
func (s *Service) CloseReport(ctx context.Context, a core.Actor, id int64, status string) (Report, error) {
	if err := a.MustBeUser(); err != nil {
		return Report{}, err
	}
	if status != Resolved && status != Dismissed {
		return Report{}, errs.E(errs.Invalid, "status must be resolved or dismissed")
	}
	var r Report
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		cur, tid, err := s.Store.LockReport(ctx, id)
		if err != nil {
			return err
		}
		if tid == 0 {
			err = a.MustBeAdmin()
		} else {
			err = a.MustOrganise(tid)
		}
		if err != nil {
			return errNotFound("report", id) // another queue's report is not this caller's to see
		}
		if !allows(CloseQueue, cur.Status) {
			return refuse(CloseQueue, "report", cur.Status)
		}
		if r, err = s.Store.CloseReport(ctx, id, status, a.UserID); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionCloseReport, tid, "report "+itoa(id), map[string]any{"report": id, "status": status})
	})
	return r, err
}

package auction

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// MaxReason is the longest reason an organiser gives for a refusal.
const MaxReason = 200

// Signable is a player a team may sign as a substitute, at Price (their
// tier's base price).
type Signable struct {
	PlayerRef
	Price int `json:"price"`
}

// Bench is the substitutes' market at one moment (the teams topic's seq):
// every request, and the players a team may sign now (none before the
// matches phase).
type Bench struct {
	Tournament string              `json:"tournament"`
	Status     string              `json:"status"`
	Seq        int64               `json:"seq"`
	Max        int                 `json:"max"` // substitutes a team may sign
	Requests   []SubstituteRequest `json:"requests"`
	Pool       []Signable          `json:"pool"`
}

// Substitutes is the named tournament's substitutes' market.
func (s *Service) Substitutes(ctx context.Context, name string) (Bench, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return Bench{}, err
	}
	b := Bench{Tournament: t.Name, Status: t.Status, Max: Substitutes, Pool: []Signable{}}
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if b.Seq, err = s.Events.Seq(ctx, core.TopicTeams); err != nil {
			return err
		}
		if b.Requests, err = s.Store.SubstituteRequests(ctx, t.ID); err != nil {
			return err
		}
		if t.Allows(tournament.AskSubstitute) != nil {
			return nil
		}
		pool, err := s.Store.Pool(ctx, t.ID)
		for _, p := range pool {
			b.Pool = append(b.Pool, Signable{PlayerRef: p, Price: PriceOf(p.Tier).Base})
		}
		return err
	})
	return b, err
}

// AskSubstitute asks, as a team's captain, to sign a free player as a
// substitute at their tier's base price: once the auction is over, while
// the team's substitutes and requests number fewer than Substitutes and
// its purse left covers the price with its other requests'.
func (s *Service) AskSubstitute(ctx context.Context, a core.Actor, name string, userID int64) (SubstituteRequest, error) {
	if err := tournament.Admit(a, tournament.AskSubstitute); err != nil {
		return SubstituteRequest{}, err
	}
	var req SubstituteRequest
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, letter, err := s.captainIn(ctx, a, name, tournament.AskSubstitute, "Only a team's captain asks to sign substitutes for it.")
		if err != nil {
			return err
		}
		p, err := s.free(ctx, t, userID)
		if err != nil {
			return err
		}
		teams, err := s.Store.Teams(ctx, t.ID, t.Purse)
		if err != nil {
			return err
		}
		team, _ := teamOf(teams, letter)
		requests, err := s.Store.SubstituteRequests(ctx, t.ID)
		if err != nil {
			return err
		}
		bench, left := len(team.Substitutes), team.PurseLeft
		for _, r := range requests {
			if r.Team == letter && r.Status == RequestPending {
				bench, left = bench+1, left-r.Price
			}
		}
		price := PriceOf(p.Tier).Base
		if err := CheckSigning(letter, left, bench, price); err != nil {
			return err
		}
		if req, err = s.Store.AddSubstituteRequest(ctx, t.ID, team, userID, a.UserID, price); err != nil {
			return err
		}
		if err := s.Audit.RecordAbout(ctx, a, ActionAskSubstitute, t.ID, subjectOf(p),
			map[string]any{"request": req.ID, "team": letter, "user_id": userID, "price": price}); err != nil {
			return err
		}
		return s.emitRequest(ctx, t, req)
	})
	return req, err
}

// free is a registered player of t, locked, who may be signed: confirmed
// and on no team.
func (s *Service) free(ctx context.Context, t tournament.Tournament, userID int64) (PlayerRef, error) {
	p, err := s.Store.LockPlayer(ctx, t.ID, userID)
	if errs.KindOf(err) == errs.NotFound {
		return p, errs.E(errs.NotFound, "Player %d is not registered for %s.", userID, t.Name)
	} else if err != nil {
		return p, err
	}
	why, err := s.Store.Engaged(ctx, t.ID, userID)
	if err != nil {
		return p, err
	}
	if why != "" {
		return p, errs.E(errs.Conflict, "%s %s: only a player on no team is signed.", p.Name, why)
	}
	return p, nil
}

// DecideSubstitute approves or refuses a pending request (organisers, once
// the auction is over). An approval checks the rules again (the player is
// still free, the bench has room, the purse covers the price), signs the
// player and refuses the other teams' requests for them.
func (s *Service) DecideSubstitute(ctx context.Context, a core.Actor, name string, id int64, approve bool, reason string) (SubstituteRequest, error) {
	if err := tournament.Admit(a, tournament.RuleSubstitute); err != nil {
		return SubstituteRequest{}, err
	}
	reason = strings.TrimSpace(reason)
	if utf8.RuneCountInString(reason) > MaxReason {
		return SubstituteRequest{}, errs.E(errs.Invalid, "A reason is at most %d characters.", MaxReason)
	}
	var req SubstituteRequest
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.inPhase(ctx, a, name, tournament.RuleSubstitute)
		if err != nil {
			return err
		}
		r, err := s.Store.LockSubstituteRequest(ctx, t.ID, id)
		if err != nil {
			return err
		}
		if r.Status != RequestPending {
			return errs.E(errs.Conflict, "Request %d is %s already.", r.ID, r.Status)
		}
		if !approve {
			if req, err = s.Store.DecideSubstituteRequest(ctx, r, RequestRefused, a.UserID, reason); err != nil {
				return err
			}
			if err := s.Audit.RecordAbout(ctx, a, ActionRefuseSubstitute, t.ID, subjectOf(r.Player),
				map[string]any{"request": r.ID, "team": r.Team, "user_id": r.Player.UserID, "reason": reason}); err != nil {
				return err
			}
			return s.emitRequest(ctx, t, req)
		}
		if _, err := s.free(ctx, t, r.Player.UserID); err != nil {
			return err
		}
		teams, err := s.Store.Teams(ctx, t.ID, t.Purse)
		if err != nil {
			return err
		}
		team, _ := teamOf(teams, r.Team)
		if err := CheckSigning(r.Team, team.PurseLeft, len(team.Substitutes), r.Price); err != nil {
			return err
		}
		if req, err = s.Store.DecideSubstituteRequest(ctx, r, RequestApproved, a.UserID, reason); err != nil {
			return err
		}
		if err := s.emitRequest(ctx, t, req); err != nil {
			return err
		}
		// The player is signed: the other teams' requests for them are moot.
		others, err := s.Store.PendingFor(ctx, t.ID, r.Player.UserID)
		if err != nil {
			return err
		}
		refused := []int64{}
		for _, o := range others {
			if o, err = s.Store.DecideSubstituteRequest(ctx, o, RequestRefused, a.UserID, "Signed by Team "+r.Team+"."); err != nil {
				return err
			}
			if err := s.emitRequest(ctx, t, o); err != nil {
				return err
			}
			refused = append(refused, o.ID)
		}
		if err := s.Audit.RecordAbout(ctx, a, ActionSignSubstitute, t.ID, subjectOf(r.Player), map[string]any{"request": r.ID,
			"team": r.Team, "user_id": r.Player.UserID, "price": r.Price, "refused_requests": refused}); err != nil {
			return err
		}
		_, err = s.emitTeam(ctx, t, r.Team)
		return err
	})
	return req, err
}

func (s *Service) emitRequest(ctx context.Context, t tournament.Tournament, r SubstituteRequest) error {
	_, err := s.Events.Emit(ctx, core.TopicTeams, EventSubstitute, map[string]any{"tournament": t.Name, "request": r})
	return err
}

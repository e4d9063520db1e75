package auction

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Tournaments finds a tournament by name or id.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
	FindByID(ctx context.Context, id int64) (tournament.Tournament, error)
	// Barred refuses a player a ban keeps out of the tournament.
	Barred(ctx context.Context, a core.Actor, t tournament.Tournament, act tournament.Action) error
}

// Cards re-sends a player's card to the lists they are on (a new tier).
type Cards interface {
	PlayerChanged(ctx context.Context, userID int64) error
}

// Service runs the auction. Each change commits with its audit entry, its
// live events on the teams topic and, for a lot, the job that closes it.
type Service struct {
	Store       Store
	Tournaments Tournaments
	Cards       Cards
	Tx          core.Transactor
	Events      core.Outbox
	Audit       core.AuditLog
	Jobs        core.Scheduler
	Log         *slog.Logger
	// Now is the clock (time.Now); LotTime and LateBid default to the
	// rules' (tests shorten them).
	Now              func() time.Time
	LotTime, LateBid time.Duration

	// timers close a lot on time on the instance that set its deadline;
	// the job is the backstop when that instance is gone.
	mu     sync.Mutex
	timers map[int64]*time.Timer
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) lotTime() time.Duration {
	if s.LotTime > 0 {
		return s.LotTime
	}
	return LotTime
}

func (s *Service) lateBid() time.Duration {
	if s.LateBid > 0 {
		return s.LateBid
	}
	return LateBid
}

// View is the auction as anyone may watch it, read at one moment (Seq of
// the teams topic).
type View struct {
	Tournament string      `json:"tournament"`
	Status     string      `json:"status"`
	Seq        int64       `json:"seq"`
	Now        time.Time   `json:"now"`
	Lot        *Lot        `json:"lot"`
	Flow       Flow        `json:"flow"`
	Sold       []Sale      `json:"sold"`
	Unsold     []Unsold    `json:"unsold"`
	Pool       []PlayerRef `json:"pool"`
	Teams      []Team      `json:"teams"`
	Rules      Rules       `json:"rules"`
}

// Rules are the auction's figures, for the page to state.
type Rules struct {
	MinPrice   int           `json:"min_price"`
	MaxPrice   int           `json:"max_price"`
	Slots      int           `json:"slots"`
	LotSeconds int           `json:"lot_seconds"`
	LateBid    int           `json:"late_bid_seconds"`
	Prices     map[int]Price `json:"tier_prices"`
	Bands      []TierBand    `json:"tier_bands"`
}

// TierBand states one of core.TierBands.
type TierBand struct {
	Tier     int     `json:"tier"`
	MinKD    float64 `json:"min_kd"`
	MinGames int     `json:"min_games"`
}

func (s *Service) rules() Rules {
	r := Rules{MinPrice: MinPrice, MaxPrice: MaxPrice, Slots: Slots, LotSeconds: int(s.lotTime().Seconds()),
		LateBid: int(s.lateBid().Seconds()), Prices: TierPrices}
	for _, b := range core.TierBands {
		r.Bands = append(r.Bands, TierBand{b.Tier, b.MinKD, b.MinGames})
	}
	return r
}

// State is the auction of the named tournament.
func (s *Service) State(ctx context.Context, name string) (View, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return View{}, err
	}
	v := View{Tournament: t.Name, Status: t.Status, Rules: s.rules()}
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if v.Seq, err = s.Events.Seq(ctx, core.TopicTeams); err != nil {
			return err
		}
		if v.Lot, err = s.Store.OpenLot(ctx, t.ID); err != nil {
			return err
		}
		if v.Flow, err = s.Store.Flow(ctx, t.ID); err != nil {
			return err
		}
		if v.Sold, v.Unsold, err = s.Store.Results(ctx, t.ID); err != nil {
			return err
		}
		if v.Pool, err = s.Store.Pool(ctx, t.ID); err != nil {
			return err
		}
		v.Teams, err = s.Store.Teams(ctx, t.ID, t.Purse)
		return err
	})
	v.Now = s.now()
	return v, err
}

// LotView is the lot under the hammer (nil between lots), read at one
// moment (Seq of the teams topic). It carries no clock of its own, so the
// same lot reads the same until an event changes it.
type LotView struct {
	Tournament string `json:"tournament"`
	Status     string `json:"status"`
	Seq        int64  `json:"seq"`
	Lot        *Lot   `json:"lot"`
}

// CurrentLot is the named tournament's open lot, if any.
func (s *Service) CurrentLot(ctx context.Context, name string) (LotView, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return LotView{}, err
	}
	v := LotView{Tournament: t.Name, Status: t.Status}
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if v.Seq, err = s.Events.Seq(ctx, core.TopicTeams); err != nil {
			return err
		}
		v.Lot, err = s.Store.OpenLot(ctx, t.ID)
		return err
	})
	return v, err
}

// TeamsView is the eight teams read at one moment.
type TeamsView struct {
	Tournament string `json:"tournament"`
	Seq        int64  `json:"seq"`
	Teams      []Team `json:"teams"`
}

// Teams lists the named tournament's teams.
func (s *Service) Teams(ctx context.Context, name string) (TeamsView, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return TeamsView{}, err
	}
	v := TeamsView{Tournament: t.Name}
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if v.Seq, err = s.Events.Seq(ctx, core.TopicTeams); err != nil {
			return err
		}
		v.Teams, err = s.Store.Teams(ctx, t.ID, t.Purse)
		return err
	})
	return v, err
}

func teamOf(teams []Team, letter string) (Team, bool) {
	for _, t := range teams {
		if t.ID == letter {
			return t, true
		}
	}
	return Team{}, false
}

// validLetter normalises a team letter, A to H.
func validLetter(letter string) (string, error) {
	l := strings.ToUpper(strings.TrimSpace(letter))
	if len(l) != 1 || !strings.Contains(Letters, l) {
		return "", errs.E(errs.NotFound, "Team %s not found: teams are A to H", errs.Echo(letter))
	}
	return l, nil
}

// emitTeam tells every client of a team's new purse, roster or captain,
// and returns the team as told.
func (s *Service) emitTeam(ctx context.Context, t tournament.Tournament, letter string) (Team, error) {
	teams, err := s.Store.Teams(ctx, t.ID, t.Purse)
	if err != nil {
		return Team{}, err
	}
	team, _ := teamOf(teams, letter)
	_, err = s.Events.Emit(ctx, core.TopicTeams, EventTeamUpdated, map[string]any{"tournament": t.Name, "team": team})
	return team, err
}

// captainIn finds the tournament and the team a captains in it (else a
// refusal saying who may), then holds its phase, which must allow act.
func (s *Service) captainIn(ctx context.Context, a core.Actor, name string, act tournament.Action, refusal string) (tournament.Tournament, string, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return t, "", err
	}
	letter, ok := a.CaptainOf(t.ID)
	if !ok {
		return t, "", errs.E(errs.Forbidden, "%s", refusal)
	}
	if err := s.Tournaments.Barred(ctx, a, t, act); err != nil {
		return t, "", err
	}
	t, err = s.inPhase(ctx, a, name, act)
	return t, letter, err
}

// inPhase finds the tournament, refuses act to a who may not take it
// there (tournament.Authorize), and holds its phase until the transaction
// ends (a phase change waits for it), which must allow act.
func (s *Service) inPhase(ctx context.Context, a core.Actor, name string, act tournament.Action) (tournament.Tournament, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return t, err
	}
	if err := tournament.Authorize(a, t, act); err != nil {
		return t, err
	}
	if t.Status, err = s.Store.LockPhase(ctx, t.ID); err != nil {
		return t, err
	}
	return t, t.Allows(act)
}

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

// CloseLot is the scheduled job that closes a lot when its countdown ends.
// It is written with the lot (and again with each late bid), so it survives
// restarts; whichever instance runs it first closes the lot, once.
type CloseLot struct {
	Tournament int64 `json:"tournament"`
	Lot        int64 `json:"lot"`
}

// Kind implements core.Job.
func (CloseLot) Kind() string { return "auction.close_lot" }

// Tournaments finds a tournament by name or id.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
	FindByID(ctx context.Context, id int64) (tournament.Tournament, error)
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
		return "", errs.E(errs.NotFound, "Team %s not found: teams are A to H", letter)
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

// SetCaptain makes a registered player the captain of a team (organisers,
// while registration or the auction runs). A captain captains one team per
// tournament and is not auctioned.
func (s *Service) SetCaptain(ctx context.Context, a core.Actor, name, letter string, userID int64) (Team, error) {
	if err := tournament.Admit(a, tournament.NameCaptain); err != nil {
		return Team{}, err
	}
	letter, err := validLetter(letter)
	if err != nil {
		return Team{}, err
	}
	var team Team
	err = s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.inPhase(ctx, name, tournament.NameCaptain)
		if err != nil {
			return err
		}
		p, err := s.Store.LockPlayer(ctx, t.ID, userID)
		if errs.KindOf(err) == errs.NotFound {
			return errs.E(errs.Unprocessable, "Only a player registered for %s can captain a team.", t.Name)
		} else if err != nil {
			return err
		}
		why, err := s.Store.Engaged(ctx, t.ID, userID)
		if err != nil {
			return err
		}
		if why != "" && !strings.HasPrefix(why, "captains team "+letter) {
			return errs.E(errs.Conflict, "%s %s and cannot captain team %s.", p.Name, why, letter)
		}
		if err := s.Store.SetCaptain(ctx, t.ID, letter, userID); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionCaptain, t.ID, "team "+letter,
			map[string]any{"user_id": userID, "name": p.Name}); err != nil {
			return err
		}
		team, err = s.emitTeam(ctx, t, letter)
		return err
	})
	return team, err
}

// SetTier sets an organiser's tier for a registered player (0: back to the
// tier of their stats). It sets their lots' default price.
func (s *Service) SetTier(ctx context.Context, a core.Actor, name string, userID int64, tier int) (PlayerRef, error) {
	if err := tournament.Admit(a, tournament.SetTier); err != nil {
		return PlayerRef{}, err
	}
	if tier < 0 || tier > core.Tiers {
		return PlayerRef{}, errs.E(errs.Invalid, "Tier must be from 1 to %d (0: the tier of the player's stats)", core.Tiers)
	}
	var p PlayerRef
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.inPhase(ctx, name, tournament.SetTier)
		if err != nil {
			return err
		}
		before, err := s.Store.LockPlayer(ctx, t.ID, userID)
		if err != nil {
			return err
		}
		if err := s.Store.SetTier(ctx, t.ID, userID, tier); err != nil {
			return err
		}
		if p, err = s.Store.Player(ctx, t.ID, userID); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionTier, t.ID, p.Name,
			map[string]any{"user_id": userID, "from": before.Tier, "to": p.Tier}); err != nil {
			return err
		}
		return s.Cards.PlayerChanged(ctx, userID)
	})
	return p, err
}

// OpenLot puts a registered player under the hammer (organisers, during the
// auction): one lot at a time, at basePrice or (0) their tier's.
func (s *Service) OpenLot(ctx context.Context, a core.Actor, name string, userID int64, basePrice int) (Lot, error) {
	if err := tournament.Admit(a, tournament.OpenLot); err != nil {
		return Lot{}, err
	}
	if basePrice != 0 && (basePrice < MinPrice || basePrice > MaxPrice) {
		return Lot{}, errs.E(errs.Unprocessable, "The base price must be from %d to %d credits.", MinPrice, MaxPrice)
	}
	var lot Lot
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.inPhase(ctx, name, tournament.OpenLot)
		if err != nil {
			return err
		}
		// The player's row is locked: naming them captain meanwhile waits,
		// then finds them under the hammer.
		p, err := s.Store.LockPlayer(ctx, t.ID, userID)
		if errs.KindOf(err) == errs.NotFound {
			return errs.E(errs.NotFound, "Player %d is not registered for %s.", userID, t.Name)
		} else if err != nil {
			return err
		}
		why, err := s.Store.Engaged(ctx, t.ID, userID)
		if err != nil {
			return err
		}
		if why != "" {
			return errs.E(errs.Conflict, "%s %s.", p.Name, why)
		}
		price := PriceOf(p.Tier)
		if basePrice != 0 {
			price.Base = basePrice
		}
		now := s.now()
		lot, err = s.Store.CreateLot(ctx, Lot{TournamentID: t.ID, Player: p, BasePrice: price.Base,
			Increment: price.Increment, Status: LotOpen, EndsAt: now.Add(s.lotTime()), OpenedAt: now})
		if err != nil {
			return err
		}
		if err := s.Jobs.Schedule(ctx, CloseLot{Tournament: t.ID, Lot: lot.ID}, lot.EndsAt); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionOpenLot, t.ID, p.Name,
			map[string]any{"lot": lot.ID, "user_id": userID, "base_price": lot.BasePrice, "increment": lot.Increment}); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicTeams, EventLot, map[string]any{"tournament": t.Name, "lot": lot})
		return err
	})
	if err == nil {
		s.arm(lot.TournamentID, lot.ID, lot.EndsAt)
	}
	return lot, err
}

// inPhase finds the tournament and holds its phase until the transaction
// ends (a phase change waits for it), which must allow act.
func (s *Service) inPhase(ctx context.Context, name string, act tournament.Action) (tournament.Tournament, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return t, err
	}
	if t.Status, err = s.Store.LockPhase(ctx, t.ID); err != nil {
		return t, err
	}
	return t, t.Allows(act)
}

// Bid places a captain's bid on the open lot. Bids on a lot are taken one
// at a time (the lot's row is locked), so of two bids in the same
// millisecond the second sees the first.
func (s *Service) Bid(ctx context.Context, a core.Actor, name string, lotID int64, amount int) (Lot, error) {
	if err := a.MustSignIn(); err != nil {
		return Lot{}, err
	}
	var lot Lot
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		t, err := s.Tournaments.Find(ctx, name)
		if err != nil {
			return err
		}
		letter, ok := a.CaptainOf(t.ID)
		if !ok {
			return errs.E(errs.Forbidden, MsgCaptainsOnly)
		}
		if _, err := s.inPhase(ctx, name, tournament.Bid); err != nil {
			return err
		}
		l, err := s.Store.LockLot(ctx, t.ID, lotID)
		if err != nil {
			return err
		}
		teams, err := s.Store.Teams(ctx, t.ID, t.Purse)
		if err != nil {
			return err
		}
		team, _ := teamOf(teams, letter)
		now := s.now()
		if err := CheckBid(l, team.State(), amount, now); err != nil {
			return err
		}
		endsAt := Deadline(l.EndsAt, now, s.lateBid())
		if err := s.Store.AddBid(ctx, l.ID, team, a.UserID, amount, endsAt); err != nil {
			return err
		}
		if endsAt.After(l.EndsAt) {
			if err := s.Jobs.Schedule(ctx, CloseLot{Tournament: t.ID, Lot: l.ID}, endsAt); err != nil {
				return err
			}
		}
		if err := s.Audit.Record(ctx, a, ActionBid, t.ID, l.Player.Name,
			map[string]any{"lot": l.ID, "team": letter, "amount": amount}); err != nil {
			return err
		}
		if lot, err = s.Store.FindLot(ctx, t.ID, l.ID); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicTeams, EventBid, BidNews{Tournament: t.Name, LotID: lot.ID,
			Bid: Bid{Team: letter, Amount: amount, At: now}, High: HighBid{Team: letter, Amount: amount}, EndsAt: lot.EndsAt})
		return err
	})
	if err == nil {
		s.arm(lot.TournamentID, lot.ID, lot.EndsAt)
	}
	return lot, err
}

// Close closes a lot now (organisers): sold to its high bid, else unsold.
func (s *Service) Close(ctx context.Context, a core.Actor, name string, lotID int64) (Lot, error) {
	if err := tournament.Admit(a, tournament.CloseLot); err != nil {
		return Lot{}, err
	}
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return Lot{}, err
	}
	if err := t.Allows(tournament.CloseLot); err != nil {
		return Lot{}, err
	}
	l, closed, err := s.closeLot(ctx, a, t.ID, lotID, true)
	if err == nil && !closed {
		return l, errs.E(errs.Conflict, MsgLotClosed)
	}
	return l, err
}

// CloseDue closes a lot whose countdown has ended (the job and the timer);
// a lot already closed, or given more time by a late bid, is left alone.
func (s *Service) CloseDue(ctx context.Context, tournamentID, lotID int64) error {
	_, _, err := s.closeLot(ctx, core.System, tournamentID, lotID, false)
	return err
}

func (s *Service) closeLot(ctx context.Context, a core.Actor, tournamentID, lotID int64, force bool) (Lot, bool, error) {
	var (
		lot    Lot
		closed bool
	)
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		closed = false
		l, err := s.Store.LockLot(ctx, tournamentID, lotID)
		if err != nil {
			return err
		}
		lot = l
		if l.Status != LotOpen || (!force && s.now().Before(l.EndsAt)) {
			return nil
		}
		status := LotUnsold
		if l.High != nil {
			status = LotSold
		}
		if err := s.Store.FinishLot(ctx, l, status); err != nil {
			return err
		}
		closed = true
		if lot, err = s.Store.FindLot(ctx, tournamentID, lotID); err != nil {
			return err
		}
		t, err := s.Tournaments.FindByID(ctx, tournamentID)
		if err != nil {
			return err
		}
		data := map[string]any{"lot": lot.ID, "status": status, "early": force}
		if l.High != nil {
			data["team"], data["price"] = l.High.Team, l.High.Amount
		}
		if err := s.Audit.Record(ctx, a, ActionCloseLot, tournamentID, l.Player.Name, data); err != nil {
			return err
		}
		if status == LotUnsold {
			_, err = s.Events.Emit(ctx, core.TopicTeams, EventUnsold, map[string]any{"tournament": t.Name, "lot": lot})
			return err
		}
		sale := Sale{LotID: lot.ID, Player: lot.Player, Team: l.High.Team, Price: l.High.Amount, At: s.now()}
		if _, err := s.Events.Emit(ctx, core.TopicTeams, EventSold, map[string]any{"tournament": t.Name, "lot": lot, "sale": sale}); err != nil {
			return err
		}
		_, err = s.emitTeam(ctx, t, l.High.Team)
		return err
	})
	if err == nil && lot.Status != LotOpen {
		s.disarm(lotID)
	}
	return lot, closed, err
}

// Void undoes a sale (organisers, while the auction runs): the player
// leaves the team, the credits go back to its purse, and the player can be
// put up again.
func (s *Service) Void(ctx context.Context, a core.Actor, name string, lotID int64) (Lot, error) {
	if err := tournament.Admit(a, tournament.VoidSale); err != nil {
		return Lot{}, err
	}
	var lot Lot
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		// Rosters are final once the auction is over: the fixtures and the
		// Points Table stand on them.
		t, err := s.inPhase(ctx, name, tournament.VoidSale)
		if err != nil {
			return err
		}
		l, err := s.Store.LockLot(ctx, t.ID, lotID)
		if err != nil {
			return err
		}
		if l.Status != LotSold || l.High == nil {
			return errs.E(errs.Conflict, "Only a sale can be voided: lot %d is %s.", l.ID, l.Status)
		}
		if err := s.Store.FinishLot(ctx, l, LotVoided); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionVoid, t.ID, l.Player.Name,
			map[string]any{"lot": l.ID, "team": l.High.Team, "price": l.High.Amount}); err != nil {
			return err
		}
		if lot, err = s.Store.FindLot(ctx, t.ID, l.ID); err != nil {
			return err
		}
		if _, err := s.Events.Emit(ctx, core.TopicTeams, EventVoided, map[string]any{"tournament": t.Name, "lot": lot}); err != nil {
			return err
		}
		_, err = s.emitTeam(ctx, t, l.High.Team)
		return err
	})
	return lot, err
}

// arm closes the lot at its deadline on this instance.
func (s *Service) arm(tournamentID, lotID int64, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.timers == nil {
		s.timers = map[int64]*time.Timer{}
	}
	if t := s.timers[lotID]; t != nil {
		t.Stop()
	}
	s.timers[lotID] = time.AfterFunc(time.Until(at)+20*time.Millisecond, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.CloseDue(ctx, tournamentID, lotID); err != nil && s.Log != nil {
			// The job closes it instead.
			s.Log.Warn("closing a lot on time failed", slog.Int64("lot", lotID), slog.Any("err", err))
		}
	})
}

func (s *Service) disarm(lotID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.timers[lotID]; t != nil {
		t.Stop()
		delete(s.timers, lotID)
	}
}

// Stop cancels this instance's timers (the jobs remain).
func (s *Service) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, t := range s.timers {
		t.Stop()
		delete(s.timers, id)
	}
}

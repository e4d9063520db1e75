package auction

import (
	"context"
	"time"

	"github.com/pitlane/pitlane/internal/core"
)

// Lot statuses.
const (
	LotOpen   = "open"
	LotSold   = "sold"
	LotUnsold = "unsold"
	LotVoided = "voided" // sold, then the sale was undone by an organiser
)

// Events on the teams topic (docs/hub.md lists the topics).
const (
	EventLot    = "auction.lot"
	EventBid    = "auction.bid"
	EventSold   = "auction.sold"
	EventUnsold = "auction.unsold"
	EventVoided = "auction.voided"
	// The auction's flow ({"tournament","flow","lot"}: lot is the open
	// lot, or null): paused (the lot's countdown stopped, its time left
	// in paused_left_ms), resumed (the lot's new ends_at), and a new turn
	// to nominate (or turns set on or off).
	EventPaused      = "auction.paused"
	EventResumed     = "auction.resumed"
	EventTurn        = "auction.turn"
	EventTeamUpdated = "team.updated"
	// EventSubstitute tells of a request to sign a substitute: asked,
	// approved or refused ({"tournament","request"}).
	EventSubstitute = "substitute.request"
)

// Audited actions of the auction.
const (
	ActionCaptain  = "team.captain"
	ActionTier     = "player.tier"
	ActionOpenLot  = "auction.open_lot"
	ActionBid      = "auction.bid"
	ActionCloseLot = "auction.close_lot"
	ActionVoid     = "auction.void"
	ActionPause    = "auction.pause"
	ActionResume   = "auction.resume"
	ActionUndo     = "auction.undo_sale"
	ActionTurns    = "auction.turns"
	ActionNominate = "auction.nominate"
	// A captain's request to sign a substitute, and an organiser's answer.
	ActionAskSubstitute    = "team.substitute_request"
	ActionSignSubstitute   = "team.substitute_signed"
	ActionRefuseSubstitute = "team.substitute_refused"
	// ActionReplace: a player took a withdrawn player's slot.
	ActionReplace = "team.replacement"
)

// PlayerRef is a player as the auction shows them.
type PlayerRef struct {
	UserID      int64   `json:"user_id"`
	Name        string  `json:"name"`
	Tier        int     `json:"tier"`
	Image       *string `json:"image"`
	KD          float64 `json:"kd"`
	GamesPlayed int     `json:"games_played"`
	Level       int     `json:"level"`
	// Hidden: the player hid their profile; captains bid on the name and
	// the tier (core.ShowCard).
	Hidden bool `json:"hidden,omitempty"`
}

// Whose implements core.Card.
func (p *PlayerRef) Whose() (int64, bool) { return p.UserID, p.Hidden }

// NameOnly implements core.Card: the name and the tier stay.
func (p *PlayerRef) NameOnly() {
	*p = PlayerRef{UserID: p.UserID, Name: p.Name, Tier: p.Tier, Hidden: true}
}

// subjectOf is p as the audit log names the player an entry is about.
func subjectOf(p PlayerRef) core.AuditSubject {
	return core.AuditSubject{UserID: p.UserID, Name: p.Name}
}

// HighBid is the lot's leading bid.
type HighBid struct {
	Team   string `json:"team"`
	Amount int    `json:"amount"`
}

// Bid is one bid in a lot's history.
type Bid struct {
	Team   string    `json:"team"`
	Amount int       `json:"amount"`
	At     time.Time `json:"at"`
}

// BidNews is what a bid tells every spectator (EventBid): the bid and what
// it changed of its lot, not the whole lot, whose history grows with every
// bid. A bid is then one small broadcast, as cheap as any other; a client
// that does not hold the lot reads the auction again.
type BidNews struct {
	Tournament string    `json:"tournament"`
	LotID      int64     `json:"lot_id"`
	Bid        Bid       `json:"bid"`
	High       HighBid   `json:"high_bid"`
	EndsAt     time.Time `json:"ends_at"`
}

// Lot is one player under the hammer, or once was.
type Lot struct {
	ID           int64     `json:"id"`
	TournamentID int64     `json:"-"`
	Player       PlayerRef `json:"player"`
	BasePrice    int       `json:"base_price"`
	Increment    int       `json:"increment"`
	Status       string    `json:"status"`
	High         *HighBid  `json:"high_bid"`
	EndsAt       time.Time `json:"ends_at"`
	// PausedLeftMs is the countdown's time left while the auction is
	// paused (EndsAt is then stale), else nil.
	PausedLeftMs *int64     `json:"paused_left_ms"`
	OpenedAt     time.Time  `json:"opened_at"`
	ClosedAt     *time.Time `json:"closed_at"`
	Bids         []Bid      `json:"bids"`
}

// Sale is a lot that sold.
type Sale struct {
	LotID  int64     `json:"lot_id"`
	Player PlayerRef `json:"player"`
	Team   string    `json:"team"`
	Price  int       `json:"price"`
	At     time.Time `json:"at"`
}

// Unsold is a player whose last lot found no bid; they can come back.
type Unsold struct {
	LotID  int64     `json:"lot_id"`
	Player PlayerRef `json:"player"`
	At     time.Time `json:"at"`
}

// Captain is a team's captain as the public sees them.
type Captain struct {
	UserID int64   `json:"user_id"`
	Name   string  `json:"name"`
	Image  *string `json:"image"`
	Hidden bool    `json:"hidden,omitempty"` // the profile is hidden: no picture
}

// Whose implements core.Card.
func (c *Captain) Whose() (int64, bool) { return c.UserID, c.Hidden }

// NameOnly implements core.Card.
func (c *Captain) NameOnly() { c.Image = nil }

// TeamPlayer is a bought roster slot.
type TeamPlayer struct {
	UserID int64   `json:"user_id"`
	Name   string  `json:"name"`
	Image  *string `json:"image"`
	Price  int     `json:"price"`
	Tier   int     `json:"tier"`
	Hidden bool    `json:"hidden,omitempty"` // the profile is hidden: no picture
}

// Whose implements core.Card.
func (p *TeamPlayer) Whose() (int64, bool) { return p.UserID, p.Hidden }

// NameOnly implements core.Card.
func (p *TeamPlayer) NameOnly() { p.Image = nil }

// Team is one of the eight teams with its captain, purse and roster.
type Team struct {
	ID        string       `json:"id"` // the letter, A to H
	DBID      int64        `json:"-"`
	Name      string       `json:"name"`
	Logo      string       `json:"logo"`
	Captain   *Captain     `json:"captain"`
	Purse     int          `json:"purse"`
	PurseLeft int          `json:"purse_left"`
	Slots     int          `json:"slots"`
	FreeSlots int          `json:"free_slots"`
	MaxBid    int          `json:"max_bid"`
	Players   []TeamPlayer `json:"players"`
	// Substitutes are signed after the auction, beside the five players;
	// their prices come out of the same purse.
	Substitutes []TeamPlayer `json:"substitutes"`
}

// State is what a team's purse and roster allow it to bid.
func (t Team) State() TeamState {
	return TeamState{Letter: t.ID, PurseLeft: t.PurseLeft, FreeSlots: t.FreeSlots}
}

// TeamState is a team as the bidding rules see it.
type TeamState struct {
	Letter    string
	PurseLeft int
	FreeSlots int
}

// Store is what the auction needs from the database. Every method joins
// the transaction of its ctx.
type Store interface {
	// Teams lists the tournament's eight teams with purses and rosters.
	Teams(ctx context.Context, tournamentID int64, purse int) ([]Team, error)
	// SetCaptain makes userID the captain of team letter; the previous
	// captain, if any, steps down. Conflict when userID captains another
	// team of the tournament.
	SetCaptain(ctx context.Context, tournamentID int64, letter string, userID int64) error
	// LockPhase reads the tournament's status, holding it until the end of
	// the transaction (a phase change waits for a bid in progress).
	LockPhase(ctx context.Context, tournamentID int64) (string, error)
	// Player is a registered player of the tournament with their tier
	// (the organiser's, else their stats'); NotFound when not registered.
	Player(ctx context.Context, tournamentID, userID int64) (PlayerRef, error)
	// LockPlayer is Player, holding the player's registration until the end
	// of the transaction: two organiser actions on one player (a captaincy
	// and a lot) are taken one at a time.
	LockPlayer(ctx context.Context, tournamentID, userID int64) (PlayerRef, error)
	// SetTier sets the organiser's tier for a registered player (0 clears it).
	SetTier(ctx context.Context, tournamentID, userID int64, tier int) error
	// Engaged says why a player cannot go under the hammer (a captain, on a
	// team, in the open lot), or "".
	Engaged(ctx context.Context, tournamentID, userID int64) (string, error)
	// CreateLot records an open lot; Conflict while another is open.
	CreateLot(ctx context.Context, l Lot) (Lot, error)
	// LockLot reads a lot of the tournament and locks it; NotFound if none.
	LockLot(ctx context.Context, tournamentID, lotID int64) (Lot, error)
	// FindLot reads a lot with its bids.
	FindLot(ctx context.Context, tournamentID, lotID int64) (Lot, error)
	// OpenLot is the lot under the hammer, or nil.
	OpenLot(ctx context.Context, tournamentID int64) (*Lot, error)
	// AddBid records a bid and makes it the lot's high bid until endsAt.
	AddBid(ctx context.Context, lotID int64, team Team, userID int64, amount int, endsAt time.Time) error
	// FinishLot closes a lot as sold (to its high bid: the player joins the
	// team at that price), unsold or voided (the sale undone).
	FinishLot(ctx context.Context, l Lot, status string) error
	// Results lists the sales and the players left unsold.
	Results(ctx context.Context, tournamentID int64) ([]Sale, []Unsold, error)
	// Pool lists the confirmed players who can still be put up (and, once
	// the auction is over, signed): not a captain, not on a team, not under
	// the hammer, not waiting for a place.
	Pool(ctx context.Context, tournamentID int64) ([]PlayerRef, error)
	// SubstituteRequests lists the tournament's requests, newest first.
	SubstituteRequests(ctx context.Context, tournamentID int64) ([]SubstituteRequest, error)
	// AddSubstituteRequest records a team's pending request; Conflict when
	// the team asked for the player already.
	AddSubstituteRequest(ctx context.Context, tournamentID int64, team Team, userID, askedBy int64, price int) (SubstituteRequest, error)
	// LockSubstituteRequest reads a request of the tournament and locks it;
	// NotFound if none.
	LockSubstituteRequest(ctx context.Context, tournamentID, id int64) (SubstituteRequest, error)
	// DecideSubstituteRequest approves or refuses a pending request (an
	// approval signs the player: they join the team as a substitute at
	// the request's price) and returns it as it now is.
	DecideSubstituteRequest(ctx context.Context, r SubstituteRequest, status string, by int64, reason string) (SubstituteRequest, error)
	// LockFlow reads the tournament's auction flow and locks it: pauses,
	// turns and lots change it one at a time. Taken before a lot's lock.
	// Slot is the player's place on a team of the tournament (false: on
	// none).
	Slot(ctx context.Context, tournamentID, userID int64) (Slot, bool, error)
	// LeaveTeam takes the player off their team and out of the lineups of
	// its matches still to play.
	LeaveTeam(ctx context.Context, tournamentID, userID int64) error
	// JoinTeam puts the player in slot (its team, price and kind).
	JoinTeam(ctx context.Context, tournamentID int64, slot Slot, userID int64) error
	LockFlow(ctx context.Context, tournamentID int64) (Flow, error)
	// Flow reads the tournament's auction flow.
	Flow(ctx context.Context, tournamentID int64) (Flow, error)
	// SaveFlow writes the tournament's auction flow.
	SaveFlow(ctx context.Context, tournamentID int64, f Flow) error
	// SetLotClock sets an open lot's deadline and its paused time left
	// (nil: running).
	SetLotClock(ctx context.Context, lotID int64, endsAt time.Time, pausedLeftMs *int64) error
	// LastSale is the most recent sale standing (sold, not voided);
	// NotFound when there is none.
	LastSale(ctx context.Context, tournamentID int64) (int64, error)
	// PendingFor lists the pending requests for a player.
	PendingFor(ctx context.Context, tournamentID, userID int64) ([]SubstituteRequest, error)
}

// Statuses of a request to sign a substitute.
const (
	RequestPending  = "pending"
	RequestApproved = "approved"
	RequestRefused  = "refused"
)

// SubstituteRequest is a captain's request to sign a player as a
// substitute, at the price of their tier.
type SubstituteRequest struct {
	ID        int64      `json:"id"`
	Team      string     `json:"team"`
	TeamDBID  int64      `json:"-"`
	Player    PlayerRef  `json:"player"`
	Price     int        `json:"price"`
	Status    string     `json:"status"`
	AskedAt   time.Time  `json:"asked_at"`
	DecidedAt *time.Time `json:"decided_at"`
	Reason    string     `json:"reason"`
}

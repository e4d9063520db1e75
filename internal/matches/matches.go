// Package matches holds the league's second half: fixtures made from the
// teams (internal/bracket), each match's room, lineups and result with its
// proof, the other side's confirmation or dispute, an organiser's ruling,
// results confirmed by themselves after a deadline, winners advancing, the
// Points Table and the Red Cap, and the season's awards.
package matches

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Match statuses (MatchRules says how a match moves between them).
const (
	StatusScheduled = "scheduled"
	StatusLive      = "live" // stored: the home captain posted the room; shown: Match.LiveAt
	StatusReported  = "reported"
	StatusCompleted = "completed"
	StatusDisputed  = "disputed"
	StatusCancelled = "cancelled"
)

// Events on the bracket topic.
const (
	EventMatch     = "match.updated"
	EventBracket   = "bracket.generated"
	EventSeeds     = "bracket.seeds" // the seeds' order, set before the fixtures
	EventStandings = "standings.updated"
	// EventReminder announces a match shortly before its time.
	EventReminder = "match.reminder"
	// EventOverdue tells of a match OverdueAfter its time with no result.
	EventOverdue = "match.overdue"
	// EventProposal tells of times proposed for a match (its proposal).
	EventProposal = "match.proposal"
)

// Audited actions.
const (
	ActionGenerate = "bracket.generate"
	ActionSeeds    = "bracket.seeds"
	ActionRoom     = "match.room"
	ActionTime     = "match.time"
	ActionPropose  = "match.time.propose"
	ActionAccept   = "match.time.accept"
	ActionCheckin  = "match.checkin"
	ActionLineup   = "match.lineup"
	ActionReport   = "match.report"
	ActionConfirm  = "match.confirm"
	ActionDispute  = "match.dispute"
	ActionResolve  = "match.resolve"
	ActionForfeit  = "match.forfeit"
	ActionAward    = "season.award"
)

// Limits of a report.
const (
	KartsPerSide = 4 // a Smash Karts room holds eight karts
	MaxKills     = 1000
	MaxRoom      = 200
	MaxReason    = 500
	// ConfirmAfter is how long the other side has to confirm or dispute a
	// report before it confirms by itself.
	ConfirmAfter = 24 * time.Hour
	// MaxProposals is how many times one side proposes at once.
	MaxProposals = 3
	// MaxAhead is how far ahead a match's time may be set.
	MaxAhead = 120 * 24 * time.Hour
	// RemindBefore is how long before its time a match is announced.
	RemindBefore = 30 * time.Minute
	// CheckinBefore is how long before its time a match's check-in opens;
	// it closes at the time.
	CheckinBefore = 60 * time.Minute
	// OverdueAfter is how long after its time a match with no report yet
	// is called overdue (the captains and organisers are told).
	OverdueAfter = 2 * time.Hour
	// MaxProofs is how many end-of-match screenshots a side may upload for
	// one match.
	MaxProofs = 5
	// ProofKeep is how long a screenshot no report cites is kept.
	ProofKeep = 24 * time.Hour
)

// TeamRef is a side of a match.
type TeamRef struct {
	ID   string `json:"id"` // the letter
	DBID int64  `json:"-"`
	Name string `json:"name"`
}

// PlayerLine is one player's line of a report or a result.
type PlayerLine struct {
	UserID    int64  `json:"user_id"`
	Name      string `json:"name,omitempty"`
	Team      string `json:"team"`
	Kills     int    `json:"kills"`
	Deaths    int    `json:"deaths"`
	Placement int    `json:"placement"`
}

// Report is a side's account of a match.
type Report struct {
	Winner  string       `json:"winner"`
	Players []PlayerLine `json:"players"`
}

// Member is a player who may play for a team (its captain, its players
// and its substitutes).
type Member struct {
	UserID     int64  `json:"user_id"`
	Name       string `json:"name"`
	Substitute bool   `json:"substitute,omitempty"`
}

// Match is one fixture with where it stands.
type Match struct {
	ID           int64  `json:"id"`
	TournamentID int64  `json:"-"`
	Tournament   string `json:"tournament"` // its tournament's name
	// Season is its tournament's phase: a match is played or ruled on only
	// while it is "matches".
	Season      string     `json:"season_status"`
	Stage       string     `json:"stage"`
	Bracket     string     `json:"bracket,omitempty"` // winners, losers, grand_final or swiss (bracket.BracketOf)
	Round       int        `json:"round_number"`
	Slot        int        `json:"slot"`
	Team1       *TeamRef   `json:"team1"`
	Team2       *TeamRef   `json:"team2"`
	Winner      *string    `json:"winner"`
	Status      string     `json:"status"`
	ScheduledAt *time.Time `json:"scheduled_at"`
	Room        string     `json:"room"`     // shown to the two sides and organisers only
	RoomSet     bool       `json:"room_set"` // whether the home captain posted it
	NextMatch   *int64     `json:"next_match"`
	NextSide    int        `json:"next_side,omitempty"`
	// LoserMatch is where a double elimination's winners-bracket loser
	// plays next (its LoserSide).
	LoserMatch *int64              `json:"loser_match"`
	LoserSide  int                 `json:"loser_side,omitempty"`
	ReportedBy *string             `json:"reported_by"`
	ReportedAt *time.Time          `json:"reported_at"`
	Report     *Report             `json:"report"`
	Proof      *string             `json:"proof"` // the end-of-match screenshot's URL
	Dispute    string              `json:"dispute_reason"`
	ConfirmBy  *time.Time          `json:"confirm_by"`
	Forfeit    bool                `json:"forfeit"`
	Lineups    map[string][]Member `json:"lineups"`
	UpdatedAt  time.Time           `json:"updated_at"`
	Members    map[string][]Member `json:"members"` // who may play for each side: its captain, players and substitutes
	// CheckedIn is when each side's captain checked in for the match's
	// time, by letter; the check-in opens at CheckinOpensAt (CheckinBefore
	// the time) and closes at the time.
	CheckedIn      map[string]time.Time `json:"checked_in"`
	CheckinOpensAt *time.Time           `json:"checkin_opens_at"`
	// LiveFrom is when the match is live (LiveFrom, the rule), nil while
	// it has no time and not both sides have checked in; set on the way
	// out, as the status is (shown).
	LiveFrom *time.Time `json:"live_from"`
	// Proposal is the times one side proposed for the match, waiting for
	// the other side's answer (nil: none).
	Proposal *Proposal `json:"proposal"`
}

// Proposal is up to MaxProposals times one side proposed, soonest first.
type Proposal struct {
	By    string      `json:"by"` // the letter of the side that proposed
	Times []time.Time `json:"times"`
}

// CheckinRefusal says why a side may not check in for m at now, or "".
func (m Match) CheckinRefusal(now time.Time) string {
	switch {
	case m.ScheduledAt == nil:
		return fmt.Sprintf("Match %d has no time yet: its check-in opens %d minutes before it.", m.ID, int(CheckinBefore.Minutes()))
	case now.Before(m.ScheduledAt.Add(-CheckinBefore)):
		return fmt.Sprintf("Check-in for match %d opens at %s, %d minutes before its time.", m.ID,
			m.ScheduledAt.Add(-CheckinBefore).UTC().Format("Mon 2 Jan 15:04 UTC"), int(CheckinBefore.Minutes()))
	case !now.Before(*m.ScheduledAt):
		return fmt.Sprintf("Check-in for match %d closed at its time: an organiser decides about a side that did not check in.", m.ID)
	}
	return ""
}

// Open is whether the match is still to be played: scheduled, or its room
// posted.
func (m Match) Open() bool { return m.Status == StatusScheduled || m.Status == StatusLive }

// StartsAt is when the match is live (LiveFrom): its agreed time, or the
// moment the second side checked in when that came first.
func (m Match) StartsAt() *time.Time {
	if m.Team1 == nil || m.Team2 == nil {
		return LiveFrom(m.ScheduledAt, nil)
	}
	in1, ok1 := m.CheckedIn[m.Team1.ID]
	in2, ok2 := m.CheckedIn[m.Team2.ID]
	if !ok1 || !ok2 {
		return LiveFrom(m.ScheduledAt, nil)
	}
	if in2.After(in1) {
		in1 = in2
	}
	return LiveFrom(m.ScheduledAt, &in1)
}

// LiveAt is whether the match is live at now (ShownStatus).
func (m Match) LiveAt(now time.Time) bool {
	return ShownStatus(m.Status, m.StartsAt(), now) == StatusLive
}

// LiveFrom is the league's one rule of when a match is live: from its
// agreed time, or from when both sides had checked in (bothIn, the second
// check-in) if that came first. Posting the room does not start a match (a
// room is often posted half an hour early). Nil: neither yet.
func LiveFrom(scheduledAt, bothIn *time.Time) *time.Time {
	at := scheduledAt
	if bothIn != nil && (at == nil || bothIn.Before(*at)) {
		at = bothIn
	}
	if at == nil {
		return nil
	}
	t := *at
	return &t
}

// ShownStatus is the status the API and the bot show for a match stored
// as status that goes live at liveFrom: an open match is "live" from then
// on and "scheduled" before, whether or not its room is posted (the stored
// StatusLive); any other status is itself.
func ShownStatus(status string, liveFrom *time.Time, now time.Time) string {
	if status != StatusScheduled && status != StatusLive {
		return status
	}
	if liveFrom != nil && !now.Before(*liveFrom) {
		return StatusLive
	}
	return StatusScheduled
}

// Sides lists the match's known teams.
func (m Match) Sides() []*TeamRef {
	var out []*TeamRef
	for _, t := range []*TeamRef{m.Team1, m.Team2} {
		if t != nil {
			out = append(out, t)
		}
	}
	return out
}

// Side is the side with letter, if the match has it.
func (m Match) Side(letter string) *TeamRef {
	for _, t := range m.Sides() {
		if t.ID == letter {
			return t
		}
	}
	return nil
}

// Other is the side that is not letter.
func (m Match) Other(letter string) *TeamRef {
	for _, t := range m.Sides() {
		if t.ID != letter {
			return t
		}
	}
	return nil
}

// SeededTeam is a team with its seed and the strength it was seeded by.
type SeededTeam struct {
	Seed     int     `json:"seed"`
	Team     TeamRef `json:"team"`
	Strength float64 `json:"strength"` // the mean K/D of its captain and players
	// Withdrawn: the team withdrew from the season (it plays no more).
	Withdrawn bool `json:"withdrawn,omitempty"`
}

// Store is what the matches need from the database; every method joins the
// transaction of its ctx.
type Store interface {
	// SeedTeams lists the tournament's teams that have a captain, seed 1
	// first: by the seeds set (SetSeeds), else strongest first (mean K/D of
	// captain and roster, then more games, then letter).
	SeedTeams(ctx context.Context, tournamentID int64) ([]SeededTeam, error)
	// SetSeeds sets the teams' seeds in order (the first is seed 1) and
	// whether an organiser chose them; no order clears them (by strength).
	SetSeeds(ctx context.Context, tournamentID int64, order []string, byHand bool) error
	// CreateMatches records fixtures (in order; Next and LoserNext index
	// into them), the seeds mapped to teams.
	CreateMatches(ctx context.Context, tournamentID int64, fixtures []bracket.Match, seeds map[int]TeamRef) ([]int64, error)
	// DeleteMatch removes a match nobody played (a grand final's reset a
	// correction made needless).
	DeleteMatch(ctx context.Context, id int64) error
	SetFormat(ctx context.Context, tournamentID int64, format string, o bracket.Options) error
	Matches(ctx context.Context, tournamentID int64) ([]Match, error)
	// LockMatch reads a match and locks it, with its teams' members.
	LockMatch(ctx context.Context, id int64) (Match, error)
	FindMatch(ctx context.Context, id int64) (Match, error)
	SetRoom(ctx context.Context, id int64, room string) error
	// SetTime sets when the match is played (nil: not set); a new time
	// clears the sides' check-ins.
	SetTime(ctx context.Context, id int64, at *time.Time) error
	// Propose records side's proposed times, replacing any standing
	// proposal; a time set clears it.
	Propose(ctx context.Context, id int64, side TeamRef, times []time.Time) error
	SetLineup(ctx context.Context, id int64, team TeamRef, userIDs []int64) error
	// CheckIn records that side checked in for the match's time and says
	// whether it had not already.
	CheckIn(ctx context.Context, id int64, side TeamRef, userID int64) (bool, error)
	SaveReport(ctx context.Context, id int64, by TeamRef, r Report, proofImageID string, confirmBy time.Time) error
	SetDisputed(ctx context.Context, id int64, reason string) error
	// Complete records the result: the winner, the players' lines (none for
	// a forfeit), the winner in the next match's side and the loser in the
	// loser's next match's side.
	Complete(ctx context.Context, m Match, winner TeamRef, lines []PlayerLine, forfeit bool) error
	// Results are the completed matches of a tournament's stage ("" all).
	Results(ctx context.Context, tournamentID int64, stage string) ([]bracket.Result, error)
	Names(ctx context.Context, userIDs []int64) (map[int64]string, error)
	// Teams are the tournament's teams by letter.
	Teams(ctx context.Context, tournamentID int64) (map[string]TeamRef, error)
	// SetChampion crowns team (nil: nobody yet).
	SetChampion(ctx context.Context, tournamentID int64, team *TeamRef) error
	Champion(ctx context.Context, tournamentID int64) (*TeamRef, error)
	// LockPhase reads the tournament's phase, holding it until the end of
	// the transaction (a phase change waits).
	LockPhase(ctx context.Context, tournamentID int64) (string, error)
	// AddProof records that side uploaded image for the match.
	AddProof(ctx context.Context, matchID int64, side TeamRef, userID int64, imageID string) error
	// CountProofs is how many screenshots side uploaded for the match.
	CountProofs(ctx context.Context, matchID int64, side TeamRef) (int, error)
	// HasProof tells whether image was uploaded for the match.
	HasProof(ctx context.Context, matchID int64, imageID string) (bool, error)
	// PruneProofs forgets the screenshots uploaded before that no report
	// cites, and the images nothing else uses; it returns how many.
	PruneProofs(ctx context.Context, before time.Time) (int, error)
	// Award gives the badge named (made once) to the users.
	Award(ctx context.Context, badge, icon, color string, userIDs []int64) error
	TeamMembers(ctx context.Context, teamID int64) ([]Member, error)
	// Withdrawn are the tournament's withdrawn teams by letter, each with
	// the Swiss rounds paired when it withdrew.
	Withdrawn(ctx context.Context, tournamentID int64) (bracket.Withdrawn, error)
	// WithdrawTeam marks the team withdrawn, rounds Swiss rounds paired.
	WithdrawTeam(ctx context.Context, teamID int64, reason string, rounds int) error
	// ResetFixtures archives the tournament's fixtures with their results
	// (a reset by the user, forced or not), deletes them, and takes their
	// format and champion away; the seeds go too unless an organiser set
	// them.
	ResetFixtures(ctx context.Context, t tournament.Tournament, by int64, forced bool) (Reset, error)
	// Resets are the tournament's resets, the newest first, with their
	// archived fixtures.
	Resets(ctx context.Context, tournamentID int64) ([]Reset, error)
}

// RoundName is how a round is called: "Round 3" of a league, "Semi-finals"
// of a knockout, "Winners round 2", "Losers round 1", "Grand final",
// "Grand final reset", "Swiss round 2".
func RoundName(stage string, round int) string {
	switch stage {
	case bracket.StageLeague, "":
		return fmt.Sprintf("Round %d", round)
	case bracket.StageWinners:
		return fmt.Sprintf("Winners round %d", round)
	case bracket.StageLosers:
		return fmt.Sprintf("Losers round %d", round)
	case bracket.StageSwiss:
		return fmt.Sprintf("Swiss round %d", round)
	case bracket.StageGrandFinal:
		if round > 1 {
			return "Grand final reset"
		}
		return "Grand final"
	case bracket.StageFinal:
		return "Final"
	case bracket.StageSemi:
		return "Semi-finals"
	case "quarter_final":
		return "Quarter-finals"
	}
	if n, ok := strings.CutPrefix(stage, "round_of_"); ok {
		return "Round of " + n
	}
	return strings.ReplaceAll(stage, "_", " ")
}

// FormatName is a format and its options in words: "swiss, 3 rounds, top 4
// cut", "double elimination with a grand final reset".
func FormatName(format string, o *bracket.Options) string {
	s := strings.ReplaceAll(format, "_", " ")
	switch {
	case o == nil:
	case format == bracket.Swiss && o.TopCut > 0:
		s += fmt.Sprintf(", %d rounds, top %d cut", o.Rounds, o.TopCut)
	case format == bracket.Swiss:
		s += fmt.Sprintf(", %d rounds", o.Rounds)
	case format == bracket.DoubleElimination && o.GrandFinalReset:
		s += " with a grand final reset"
	}
	return s
}

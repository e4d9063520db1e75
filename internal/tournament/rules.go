package tournament

import (
	"fmt"
	"slices"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Who is the kind of actor an action is for.
type Who string

// The kinds of actor of the league's rules. A captain acts for their own
// team of the tournament at hand: a captain of another season is a player
// here.
const (
	Players    Who = "player"    // any signed-in player, for themselves
	Captains   Who = "captain"   // the tournament's captains (and for a match, only its sides')
	Organisers Who = "organiser" // ADMIN_EMAILS
	// Scheduled is the league's own jobs (a check-in closing at its
	// deadline): nobody's request.
	Scheduled Who = "the league's scheduled jobs"
)

// Action is one thing done within a tournament. The matches' own actions
// (internal/matches) run inside PlayMatch and RuleMatch.
type Action string

// The actions of a season, in the order a season runs them.
const (
	Register     Action = "register"
	Unregister   Action = "unregister"
	SetCap       Action = "set the registration cap"
	OpenCheckin  Action = "open the check-in"
	CheckIn      Action = "check in"
	CloseCheckin Action = "close the check-in at its deadline"
	Promote      Action = "promote from the waitlist"
	NameCaptain  Action = "name a captain"
	SetTier      Action = "set a player's tier"
	OpenLot      Action = "open a lot"
	Bid          Action = "bid"
	CloseLot     Action = "close a lot"
	VoidSale     Action = "void a sale"
	// The auction's flow: a pause stops the open lot's countdown (and a
	// captain's turn); undoing voids the most recent sale.
	PauseAuction  Action = "pause the auction"
	ResumeAuction Action = "resume the auction"
	UndoSale      Action = "undo the last sale"
	// Nomination turns, when an organiser turns them on: the captains put
	// players up in turn, and the league's job nominates for a captain out
	// of time.
	SetTurns     Action = "set the nomination turns"
	Nominate     Action = "nominate a player on the team's turn"
	NominateDue  Action = "nominate for a captain out of time"
	TalkInRoom   Action = "speak in the captains room"
	ReorderSeeds Action = "reorder the seeds"
	MakeFixtures Action = "make the fixtures"
	// ResetFixtures takes the fixtures back (archived with their results),
	// so they can be made again or the season go back to its auction.
	ResetFixtures Action = "reset the fixtures"
	// Substitutes are signed once the auction is over, from the players
	// it left: a captain asks, an organiser approves or refuses.
	AskSubstitute  Action = "ask to sign a substitute"
	RuleSubstitute Action = "approve or refuse a substitute"
	// WithdrawPlayer takes a player out of the season (an organiser's
	// unregistration; from a team, its slot left empty or given to a
	// replacement); WithdrawTeam takes a team out of the matches, its
	// remaining matches forfeited to its opponents.
	WithdrawPlayer Action = "withdraw a player"
	WithdrawTeam   Action = "withdraw a team"
	PlayMatch      Action = "play a match" // a side's room, time, check-in, lineup, proof, report, answer, forfeit
	RuleMatch      Action = "rule on a match"
)

// Rule is when an action may run and who may run it.
type Rule struct {
	Who    []Who
	Phases []string
	// Refusal is the 409's message in another phase: %[1]s is the
	// tournament, %[2]s its phase.
	Refusal string
}

// Rules is the one table of what may happen in which phase of a season,
// and by whom. Every service of the league consults it; docs/league.md
// states it for people.
var Rules = map[Action]Rule{
	Register:    {[]Who{Players}, []string{StatusRegistration}, "Registration for %[1]s is closed."},
	Unregister:  {[]Who{Players}, []string{StatusRegistration}, "Registration for %[1]s is closed; ask an organiser to withdraw you."},
	SetCap:      {[]Who{Organisers}, []string{StatusRegistration}, "The registration cap is set while registering: %[1]s is in its %[2]s phase."},
	OpenCheckin: {[]Who{Organisers}, []string{StatusRegistration}, "Check-in is opened before the auction: %[1]s is in its %[2]s phase."},
	CheckIn:     {[]Who{Players}, []string{StatusRegistration}, "Check-in for %[1]s is over: it is in its %[2]s phase."},
	// The window's job, at its deadline; a season leaves registration only
	// once its check-in has closed (Moves).
	CloseCheckin: {[]Who{Scheduled}, []string{StatusRegistration}, "Check-in closes while registering: %[1]s is in its %[2]s phase."},
	// A waiting player may still be promoted while the auction runs: they
	// join the players it may put up.
	Promote:      {[]Who{Organisers}, []string{StatusRegistration, StatusAuction}, "Players are promoted from the waitlist before the matches: %[1]s is in its %[2]s phase."},
	NameCaptain:  {[]Who{Organisers}, []string{StatusRegistration, StatusAuction}, "Captains are chosen before the matches: %[1]s is in its %[2]s phase."},
	SetTier:      {[]Who{Organisers}, []string{StatusRegistration, StatusAuction}, "Tiers are set before the matches: %[1]s is in its %[2]s phase."},
	OpenLot:      {[]Who{Organisers}, []string{StatusAuction}, "The auction is not running: %[1]s is in its %[2]s phase."},
	Bid:          {[]Who{Captains}, []string{StatusAuction}, "The auction is not running: %[1]s is in its %[2]s phase."},
	CloseLot:     {[]Who{Organisers}, []string{StatusAuction}, "The auction is not running: %[1]s is in its %[2]s phase."},
	VoidSale:     {[]Who{Organisers}, []string{StatusAuction}, "A sale can be voided only while the auction runs: %[1]s is in its %[2]s phase."},
	PauseAuction: {[]Who{Organisers}, []string{StatusAuction}, "The auction is paused only while it runs: %[1]s is in its %[2]s phase."},
	ResumeAuction: {[]Who{Organisers}, []string{StatusAuction},
		"The auction is resumed only while it runs: %[1]s is in its %[2]s phase."},
	UndoSale: {[]Who{Organisers}, []string{StatusAuction}, "A sale can be undone only while the auction runs: %[1]s is in its %[2]s phase."},
	SetTurns: {[]Who{Organisers}, []string{StatusRegistration, StatusAuction},
		"Nomination turns are set before the matches: %[1]s is in its %[2]s phase."},
	Nominate:    {[]Who{Captains}, []string{StatusAuction}, "The auction is not running: %[1]s is in its %[2]s phase."},
	NominateDue: {[]Who{Scheduled}, []string{StatusAuction}, "The auction is not running: %[1]s is in its %[2]s phase."},
	TalkInRoom:  {[]Who{Captains, Organisers}, []string{StatusRegistration, StatusAuction, StatusMatches}, "The captains room of %[1]s is closed: the season is %[2]s."},
	// Seeds are reordered before the fixtures are made (checked by the
	// matches), once the rosters are final.
	ReorderSeeds: {[]Who{Organisers}, []string{StatusMatches}, "Seeds are reordered in the matches phase, before the fixtures: %[1]s is in its %[2]s phase."},
	MakeFixtures: {[]Who{Organisers}, []string{StatusMatches}, "Fixtures are made in the matches phase: %[1]s is in its %[2]s phase."},
	ResetFixtures: {[]Who{Organisers}, []string{StatusMatches},
		"Fixtures are reset in the matches phase (a completed season is final): %[1]s is in its %[2]s phase."},
	AskSubstitute: {[]Who{Captains}, []string{StatusMatches},
		"Substitutes are signed once the auction is over, in the matches phase: %[1]s is in its %[2]s phase."},
	RuleSubstitute: {[]Who{Organisers}, []string{StatusMatches},
		"Substitutes are signed once the auction is over, in the matches phase: %[1]s is in its %[2]s phase."},
	WithdrawPlayer: {[]Who{Organisers}, []string{StatusRegistration, StatusAuction, StatusMatches},
		"Players are withdrawn until the season ends (a completed season is final): %[1]s is in its %[2]s phase."},
	WithdrawTeam: {[]Who{Organisers}, []string{StatusMatches},
		"Teams are withdrawn in the matches phase: %[1]s is in its %[2]s phase."},
	PlayMatch: {[]Who{Captains}, []string{StatusMatches}, "Matches are played in the matches phase: %[1]s is in its %[2]s phase."},
	RuleMatch: {[]Who{Organisers}, []string{StatusMatches}, "Matches are ruled on in the matches phase: %[1]s is in its %[2]s phase."},
}

// Allows says whether act may run in t's phase: nil, or a Conflict that
// says why not.
func (t Tournament) Allows(act Action) error {
	r, ok := Rules[act]
	if !ok {
		panic(fmt.Sprintf("tournament: no rule for %q", act))
	}
	if slices.Contains(r.Phases, t.Status) {
		return nil
	}
	return errs.E(errs.Conflict, r.Refusal, t.Name, t.Status)
}

// Admit checks the part of act's rule that the actor alone decides: an
// anonymous caller is refused where a player is needed (401), a player
// where only organisers act (403). A co-organiser is let through to the
// tournament's own check (Authorize); whether a captain captains the right
// team is the action's own check, once the tournament is known.
func Admit(a core.Actor, act Action) error {
	r, ok := Rules[act]
	if !ok {
		panic(fmt.Sprintf("tournament: no rule for %q", act))
	}
	if slices.Equal(r.Who, []Who{Organisers}) {
		return MayOrganise(a)
	}
	if slices.Equal(r.Who, []Who{Scheduled}) {
		if a.System {
			return nil
		}
		if err := a.MustSignIn(); err != nil {
			return err
		}
		return errs.E(errs.Forbidden, "Only the league's scheduled jobs %s.", act)
	}
	if slices.Contains(r.Who, Players) {
		return a.MustBeUser()
	}
	return a.MustSignIn()
}

// Authorize checks the part of act's rule that depends on the tournament:
// an organisers' action is for the site's organisers and the tournament's
// own co-organisers (core.Actor.MustOrganise), nobody else's.
func Authorize(a core.Actor, t Tournament, act Action) error {
	r, ok := Rules[act]
	if !ok {
		panic(fmt.Sprintf("tournament: no rule for %q", act))
	}
	if slices.Equal(r.Who, []Who{Organisers}) {
		return a.MustOrganise(t.ID)
	}
	return nil
}

// MayOrganise refuses, before the tournament is known, whoever organises
// no tournament at all: the site's organisers and co-organisers go on to
// the tournament's own check (core.Actor.MustOrganise).
func MayOrganise(a core.Actor) error {
	if a.OrganisesAny() {
		return nil
	}
	return a.MustBeAdmin()
}

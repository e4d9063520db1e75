package matches

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
	"github.com/pitlane/pitlane/internal/upload"
)

// AutoConfirm is the job that confirms a report nobody answered by its
// deadline. It is written with the report, so it survives restarts.
type AutoConfirm struct {
	Match int64 `json:"match"`
}

// Kind implements core.Job.
func (AutoConfirm) Kind() string { return "match.auto_confirm" }

// Remind is the job that announces a match RemindBefore its time, or, Late,
// tells of it OverdueAfter its time when nobody has reported it. It is
// written with the time; a time changed or cleared since, or a match
// reported or played already, leaves it nothing to do.
type Remind struct {
	Match int64     `json:"match"`
	At    time.Time `json:"at"`
	Late  bool      `json:"late,omitempty"`
}

// Kind implements core.Job.
func (Remind) Kind() string { return "match.remind" }

// Tournaments finds tournaments.
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
	FindByID(ctx context.Context, id int64) (tournament.Tournament, error)
}

// Images keeps the end-of-match screenshots.
type Images interface {
	SaveImage(ctx context.Context, contentType string, data []byte) (string, error)
}

// Service runs the matches. Each change commits with its audit entry and
// its live events on the bracket topic.
type Service struct {
	Store       Store
	Images      Images
	Tournaments Tournaments
	Tx          core.Transactor
	Events      core.Outbox
	Audit       core.AuditLog
	Jobs        core.Scheduler
	// Now is the clock (time.Now); ConfirmAfter defaults to the rules'.
	Now          func() time.Time
	ConfirmAfter time.Duration
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) confirmAfter() time.Duration {
	if s.ConfirmAfter > 0 {
		return s.ConfirmAfter
	}
	return ConfirmAfter
}

// Round is one round of the bracket as it is shown.
type Round struct {
	Number int    `json:"number"`
	Stage  string `json:"stage"`
	// Bracket is the part of the draw the round is in: winners, losers,
	// grand_final or swiss ("" for a one-bracket format).
	Bracket string  `json:"bracket,omitempty"`
	Matches []Match `json:"matches"`
	// Bye is the team that sits out a Swiss round (a win).
	Bye *TeamRef `json:"bye,omitempty"`
}

// Bracket is the fixtures of a tournament at one moment (the bracket
// topic's seq).
type Bracket struct {
	Tournament string       `json:"tournament"`
	Format     string       `json:"format"`
	Seq        int64        `json:"seq"`
	Seeds      []SeededTeam `json:"seeds"`
	SeededBy   string       `json:"seeded_by"`
	Rounds     []Round      `json:"rounds"`
	Champion   *TeamRef     `json:"champion"`
	// Options are a Swiss stage's or a double elimination's.
	Options *bracket.Options `json:"options,omitempty"`
}

// How teams are seeded: by strength unless an organiser set the order.
const (
	SeededBy       = "team strength: the mean K/D of the captain and the players bought, then games played"
	SeededByOrder  = "the organisers' order"
	formatsAllowed = "league_then_playoffs, round_robin, single_elimination, double_elimination or swiss"
)

// FormatInput is an organiser's choice of fixtures: a format ("" the
// default) and its options. A Swiss stage's Rounds (0: enough for one
// unbeaten team) and TopCut (0: none); a double elimination's
// GrandFinalReset, on unless set false.
type FormatInput struct {
	Format          string `json:"format"`
	Rounds          int    `json:"rounds"`
	TopCut          int    `json:"top_cut"`
	GrandFinalReset *bool  `json:"grand_final_reset"`
}

// options are in's format options, the defaults filled.
func (in FormatInput) options() bracket.Options {
	o := bracket.Options{Rounds: in.Rounds, TopCut: in.TopCut}
	if in.GrandFinalReset != nil {
		o.GrandFinalReset = *in.GrandFinalReset
	} else if in.Format == bracket.DoubleElimination {
		o.GrandFinalReset = true
	}
	return o
}

// Generate makes the tournament's fixtures in format with its default
// options (GenerateWith).
func (s *Service) Generate(ctx context.Context, a core.Actor, name, format string) (Bracket, error) {
	return s.GenerateWith(ctx, a, name, FormatInput{Format: format})
}

// GenerateWith makes the tournament's fixtures (organisers, in the matches
// phase, once): every team with a captain, seeded by the organisers' order
// or else by strength; the seeds are kept from then on.
func (s *Service) GenerateWith(ctx context.Context, a core.Actor, name string, in FormatInput) (Bracket, error) {
	if err := tournament.Admit(a, tournament.MakeFixtures); err != nil {
		return Bracket{}, err
	}
	format := strings.ToLower(strings.TrimSpace(in.Format))
	if format == "" {
		format = bracket.DefaultFormat
	}
	in.Format = format
	if !bracket.ValidFormat(format) {
		return Bracket{}, errs.E(errs.Invalid, "Format must be %s.", formatsAllowed)
	}
	opts := in.options()
	if err := opts.Check(format, bracket.MaxTeams); err != nil {
		return Bracket{}, errs.E(errs.Invalid, "%s.", capitalize(err.Error()))
	}
	var t tournament.Tournament
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		var (
			seeds []SeededTeam
			err   error
		)
		if t, seeds, err = s.beforeFixtures(ctx, name, tournament.MakeFixtures, "The fixtures of %s are made already."); err != nil {
			return err
		}
		if len(seeds) < bracket.MinTeams || len(seeds) > bracket.MaxTeams {
			return errs.E(errs.Conflict, "%d teams have a captain; fixtures need %d to %d.", len(seeds), bracket.MinTeams, bracket.MaxTeams)
		}
		fx, err := bracket.Generate(format, len(seeds), opts)
		if err != nil {
			return errs.E(errs.Unprocessable, "%s.", capitalize(err.Error()))
		}
		bySeed := map[int]TeamRef{}
		order := make([]string, len(seeds))
		for i, st := range seeds {
			bySeed[st.Seed] = st.Team
			order[i] = st.Team.ID
		}
		// The seeds are kept: later Swiss rounds and play-offs rank by the
		// ones the fixtures were made with, whatever the stats say since.
		if err := s.Store.SetSeeds(ctx, t.ID, order, t.SeedsByHand); err != nil {
			return err
		}
		if _, err := s.Store.CreateMatches(ctx, t.ID, fx.Matches, bySeed); err != nil {
			return err
		}
		if err := s.Store.SetFormat(ctx, t.ID, format, fx.Options); err != nil {
			return err
		}
		data := map[string]any{"format": format, "teams": len(seeds), "matches": len(fx.Matches), "seeds": order}
		if fx.Options != (bracket.Options{}) {
			data["options"] = fx.Options
		}
		if err := s.Audit.Record(ctx, a, ActionGenerate, t.ID, t.Name, data); err != nil {
			return err
		}
		return s.emitBracket(ctx, t.ID)
	})
	if err != nil {
		return Bracket{}, err
	}
	return s.Bracket(ctx, a, t.Name)
}

// beforeFixtures reads the named tournament, holding its phase until the
// transaction ends, and its seeded teams, once act may be done to it: in
// its phase (the rules' refusal), and while no fixtures are made (a
// Conflict saying made, %s the tournament).
func (s *Service) beforeFixtures(ctx context.Context, name string, act tournament.Action, made string) (tournament.Tournament, []SeededTeam, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return t, nil, err
	}
	if t.Status, err = s.Store.LockPhase(ctx, t.ID); err != nil {
		return t, nil, err
	}
	if err := t.Allows(act); err != nil {
		return t, nil, err
	}
	existing, err := s.Store.Matches(ctx, t.ID)
	if err != nil {
		return t, nil, err
	}
	if len(existing) > 0 {
		return t, nil, errs.E(errs.Conflict, made, t.Name)
	}
	seeds, err := s.Store.SeedTeams(ctx, t.ID)
	return t, seeds, err
}

func capitalize(msg string) string {
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg)
	return string(unicode.ToUpper(r)) + msg[n:]
}

// SetSeeds orders the seeds by hand (organisers, in the matches phase,
// before the fixtures are made): order names every team with a captain
// once, seed 1 first; an empty order goes back to seeding by strength.
func (s *Service) SetSeeds(ctx context.Context, a core.Actor, name string, order []string) (Bracket, error) {
	if err := tournament.Admit(a, tournament.ReorderSeeds); err != nil {
		return Bracket{}, err
	}
	var t tournament.Tournament
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		var (
			seeds []SeededTeam
			err   error
		)
		if t, seeds, err = s.beforeFixtures(ctx, name, tournament.ReorderSeeds, "The fixtures of %s are made: its seeds are final."); err != nil {
			return err
		}
		letters := make([]string, len(seeds))
		for i, st := range seeds {
			letters[i] = st.Team.ID
		}
		clean := make([]string, len(order))
		for i, l := range order {
			clean[i] = strings.ToUpper(strings.TrimSpace(l))
		}
		sorted := slices.Sorted(slices.Values(clean))
		if len(order) > 0 && !slices.Equal(sorted, slices.Sorted(slices.Values(letters))) {
			slices.Sort(letters)
			return errs.E(errs.Unprocessable, "The order names each team with a captain once (%s), the first seed first.",
				strings.Join(letters, ", "))
		}
		if len(order) == 0 {
			clean = nil
		}
		if err := s.Store.SetSeeds(ctx, t.ID, clean, len(clean) > 0); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, ActionSeeds, t.ID, t.Name, map[string]any{"order": clean}); err != nil {
			return err
		}
		if seeds, err = s.Store.SeedTeams(ctx, t.ID); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicBracket, EventSeeds, map[string]any{"tournament": t.Name, "seeds": seeds})
		return err
	})
	if err != nil {
		return Bracket{}, err
	}
	return s.Bracket(ctx, a, t.Name)
}

func (s *Service) emitBracket(ctx context.Context, tournamentID int64) error {
	t, err := s.Tournaments.FindByID(ctx, tournamentID)
	if err != nil {
		return err
	}
	b, err := s.bracketOf(ctx, core.Actor{}, t)
	if err != nil {
		return err
	}
	_, err = s.Events.Emit(ctx, core.TopicBracket, EventBracket, map[string]any{"tournament": t.Name, "bracket": b})
	return err
}

// Bracket is the named tournament's fixtures, rooms shown as a's to see.
func (s *Service) Bracket(ctx context.Context, a core.Actor, name string) (Bracket, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return Bracket{}, err
	}
	var b Bracket
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		b, err = s.bracketOf(ctx, a, t)
		if err != nil {
			return err
		}
		b.Seq, err = s.Events.Seq(ctx, core.TopicBracket)
		return err
	})
	return b, err
}

func (s *Service) bracketOf(ctx context.Context, a core.Actor, t tournament.Tournament) (Bracket, error) {
	b := Bracket{Tournament: t.Name, Format: t.Format, SeededBy: SeededBy, Rounds: []Round{}}
	if t.SeedsByHand {
		b.SeededBy = SeededByOrder
	}
	if t.Format == bracket.Swiss || t.Format == bracket.DoubleElimination {
		b.Options = &t.Options
	}
	ms, err := s.Store.Matches(ctx, t.ID)
	if err != nil {
		return b, err
	}
	if b.Seeds, err = s.Store.SeedTeams(ctx, t.ID); err != nil {
		return b, err
	}
	for _, m := range ms {
		m = shown(m, a)
		n := len(b.Rounds)
		if n == 0 || b.Rounds[n-1].Number != m.Round || b.Rounds[n-1].Stage != m.Stage {
			b.Rounds = append(b.Rounds, Round{Number: m.Round, Stage: m.Stage, Bracket: m.Bracket})
			n++
		}
		b.Rounds[n-1].Matches = append(b.Rounds[n-1].Matches, m)
	}
	for i, r := range b.Rounds {
		if r.Stage != bracket.StageSwiss {
			continue
		}
		for _, st := range b.Seeds {
			if !slices.ContainsFunc(r.Matches, func(m Match) bool { return m.Side(st.Team.ID) != nil }) {
				b.Rounds[i].Bye = &st.Team
			}
		}
	}
	b.Champion, err = s.Store.Champion(ctx, t.ID)
	return b, err
}

// shown hides the room from everyone but the two sides and organisers.
func shown(m Match, a core.Actor) Match {
	m.RoomSet = m.Room != ""
	if !a.Admin {
		team, ok := a.CaptainOf(m.TournamentID)
		member := ok && m.Side(team) != nil
		for letter, members := range m.Members {
			for _, p := range members {
				if p.UserID == a.UserID && a.UserID != 0 && m.Side(letter) != nil {
					member = true
				}
			}
		}
		if !member {
			m.Room = ""
		}
	}
	return m
}

// Matches lists the tournament's matches, of one team when team is given:
// upcoming first (those with a time soonest first), then the played ones,
// the last first.
func (s *Service) Matches(ctx context.Context, a core.Actor, name, team string) ([]Match, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return nil, err
	}
	all, err := s.Store.Matches(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	team = strings.ToUpper(strings.TrimSpace(team))
	out := []Match{}
	for _, m := range all {
		if team == "" || m.Side(team) != nil {
			out = append(out, shown(m, a))
		}
	}
	done := func(m Match) bool { return m.Status == StatusCompleted || m.Status == StatusCancelled }
	slices.SortStableFunc(out, func(x, y Match) int {
		switch {
		case done(x) != done(y):
			if done(x) {
				return 1
			}
			return -1
		case done(x):
			return y.Round - x.Round // the last played first
		case (x.ScheduledAt == nil) != (y.ScheduledAt == nil):
			if x.ScheduledAt == nil {
				return 1
			}
			return -1
		case x.ScheduledAt != nil:
			return x.ScheduledAt.Compare(*y.ScheduledAt) // the soonest first
		}
		return 0
	})
	return out, nil
}

// Match is one match, as a may see it.
func (s *Service) Match(ctx context.Context, a core.Actor, id int64) (Match, error) {
	m, err := s.Store.FindMatch(ctx, id)
	return shown(m, a), err
}

// change runs fn on the locked match once the rules (MatchRules) let a do
// act to it, with the side a acts for, and tells everyone of the match
// after. The tournament's phase is held meanwhile, so a season completing
// waits for the change and then counts it.
func (s *Service) change(ctx context.Context, a core.Actor, act Action, id int64, fn func(ctx context.Context, m Match, side *TeamRef) error) (Match, error) {
	if slices.Equal(MatchRules[act].Who, []Party{Organiser}) {
		if err := a.MustBeAdmin(); err != nil { // before the match is read: its existence is not news
			return Match{}, err
		}
	}
	var out Match
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		m, err := s.Store.LockMatch(ctx, id)
		if err != nil {
			return err
		}
		side, err := s.may(ctx, act, a, m)
		if err != nil {
			return err
		}
		if err := fn(ctx, m, side); err != nil {
			return err
		}
		if out, err = s.Store.FindMatch(ctx, id); err != nil {
			return err
		}
		return s.emitMatch(ctx, EventMatch, out)
	})
	return out, err
}

// may reads m's tournament, holding its phase, and checks the rules.
func (s *Service) may(ctx context.Context, act Action, a core.Actor, m Match) (*TeamRef, error) {
	t, err := s.Tournaments.FindByID(ctx, m.TournamentID)
	if err != nil {
		return nil, err
	}
	if t.Status, err = s.Store.LockPhase(ctx, t.ID); err != nil {
		return nil, err
	}
	return may(act, a, m, t)
}

// emitMatch tells the bracket topic of m as the public sees it.
func (s *Service) emitMatch(ctx context.Context, event string, m Match) error {
	t, err := s.Tournaments.FindByID(ctx, m.TournamentID)
	if err != nil {
		return err
	}
	_, err = s.Events.Emit(ctx, core.TopicBracket, event, map[string]any{"tournament": t.Name, "match": shown(m, core.Actor{})})
	return err
}

// PostRoom sets the Smash Karts private room (a code or a link) the home
// captain made; the match is then live.
func (s *Service) PostRoom(ctx context.Context, a core.Actor, id int64, room string) (Match, error) {
	room = strings.TrimSpace(room)
	m, err := s.change(ctx, a, ActPostRoom, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		if room == "" || utf8.RuneCountInString(room) > MaxRoom || strings.IndexFunc(room, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			return errs.E(errs.Invalid, "The room is a code or a link of 1 to %d characters.", MaxRoom)
		}
		if err := s.Store.SetRoom(ctx, id, room); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionRoom, m.TournamentID, matchTarget(m), nil)
	})
	return shown(m, a), err
}

// SetTime sets when the match is played, or clears it with nil: the home
// captain (who also posts the room) or an organiser. RemindBefore that time
// the match is announced (EventReminder), and OverdueAfter it, with no
// report yet, called overdue (EventOverdue), if the time still holds then.
func (s *Service) SetTime(ctx context.Context, a core.Actor, id int64, at *time.Time) (Match, error) {
	m, err := s.change(ctx, a, ActSetTime, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		// The jobs of the time before are dropped: a match is announced once,
		// for the time it has.
		if err := s.Jobs.Unschedule(ctx, Remind{}.Kind(), "match", m.ID); err != nil {
			return err
		}
		var data map[string]any
		if at != nil {
			t := at.UTC().Truncate(time.Minute)
			now := s.now()
			if !t.After(now) || t.After(now.Add(MaxAhead)) {
				return errs.E(errs.Unprocessable, "The match time must be in the future, within %d days.", int(MaxAhead.Hours()/24))
			}
			at = &t
			data = map[string]any{"at": t}
			if remind := t.Add(-RemindBefore); remind.After(now) {
				if err := s.Jobs.Schedule(ctx, Remind{Match: m.ID, At: t}, remind); err != nil {
					return err
				}
			}
			if err := s.Jobs.Schedule(ctx, Remind{Match: m.ID, At: t, Late: true}, t.Add(OverdueAfter)); err != nil {
				return err
			}
		}
		if err := s.Store.SetTime(ctx, id, at); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionTime, m.TournamentID, matchTarget(m), data)
	})
	return shown(m, a), err
}

// RemindDue announces a match whose time is job.At (the job), or tells
// that it is overdue, unless the time changed or the match is no longer to
// be played.
func (s *Service) RemindDue(ctx context.Context, job Remind) error {
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		m, err := s.Store.LockMatch(ctx, job.Match)
		if err != nil {
			return err
		}
		if m.ScheduledAt == nil || !m.ScheduledAt.Equal(job.At) {
			return nil
		}
		if _, err := s.may(ctx, ActRemind, core.System, m); err != nil {
			return nil // played, reported, or its season over: nothing to announce
		}
		if job.Late {
			return s.emitMatch(ctx, EventOverdue, m)
		}
		return s.emitMatch(ctx, EventReminder, m)
	})
	if errs.KindOf(err) == errs.NotFound {
		return nil
	}
	return err
}

func letterOf(t *TeamRef) string {
	if t == nil {
		return "?"
	}
	return t.ID
}

func matchTarget(m Match) string {
	return fmt.Sprintf("match %d (%s v %s)", m.ID, letterOf(m.Team1), letterOf(m.Team2))
}

// CheckIn checks a side in for the match (its captain), from CheckinBefore
// its time until the time. A new time clears the check-ins; a side that
// did not check in is shown to organisers, whose forfeit is one click
// (ForfeitFor), never the league's own.
func (s *Service) CheckIn(ctx context.Context, a core.Actor, id int64) (Match, error) {
	m, err := s.change(ctx, a, ActCheckIn, id, func(ctx context.Context, m Match, side *TeamRef) error {
		if why := m.CheckinRefusal(s.now()); why != "" {
			return errs.E(errs.Conflict, "%s", why)
		}
		changed, err := s.Store.CheckIn(ctx, m.ID, *side, a.UserID)
		if err != nil || !changed {
			return err
		}
		return s.Audit.Record(ctx, a, ActionCheckin, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID, "at": m.ScheduledAt})
	})
	return shown(m, a), err
}

// SetLineup picks the side's karts for the match: up to four of the team's
// captain, players and substitutes.
func (s *Service) SetLineup(ctx context.Context, a core.Actor, id int64, userIDs []int64) (Match, error) {
	m, err := s.change(ctx, a, ActPickLineup, id, func(ctx context.Context, m Match, side *TeamRef) error {
		if len(userIDs) == 0 || len(userIDs) > KartsPerSide {
			return errs.E(errs.Invalid, "A lineup is 1 to %d players.", KartsPerSide)
		}
		seen := map[int64]bool{}
		for _, u := range userIDs {
			if seen[u] {
				return errs.E(errs.Invalid, "Player %d is in the lineup twice.", u)
			}
			seen[u] = true
			if !isMember(m.Members[side.ID], u) {
				return errs.E(errs.Unprocessable, "Player %d does not play for team %s.", u, side.ID)
			}
		}
		if err := s.Store.SetLineup(ctx, id, *side, userIDs); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionLineup, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID, "players": userIDs})
	})
	return shown(m, a), err
}

func isMember(members []Member, userID int64) bool {
	for _, p := range members {
		if p.UserID == userID {
			return true
		}
	}
	return false
}

// checkReport applies the rules of a result (filling each line's team when
// it is not given): a winner of the two sides,
// each line a player of the side it names (in its lineup when one was
// picked), at most four a side, kills and deaths in range, placements 1 to 8
// given once (0: not given).
func checkReport(m Match, r Report) error {
	for i, p := range r.Players {
		if p.Team != "" {
			continue
		}
		for _, side := range m.Sides() {
			if isMember(m.Members[side.ID], p.UserID) {
				r.Players[i].Team = side.ID
			}
		}
		if r.Players[i].Team == "" {
			return errs.E(errs.Unprocessable, "Player %d plays for neither side of this match.", p.UserID)
		}
	}
	if m.Side(r.Winner) == nil {
		return errs.E(errs.Invalid, "The winner must be team %s or team %s.", letterOf(m.Team1), letterOf(m.Team2))
	}
	perSide := map[string]int{}
	seen := map[int64]bool{}
	places := map[int]bool{}
	for _, p := range r.Players {
		side := m.Side(p.Team)
		switch {
		case side == nil:
			return errs.E(errs.Invalid, "Player %d is given for team %q, which is not in this match.", p.UserID, p.Team)
		case seen[p.UserID]:
			return errs.E(errs.Invalid, "Player %d is reported twice.", p.UserID)
		case !isMember(m.Members[p.Team], p.UserID):
			return errs.E(errs.Unprocessable, "Player %d does not play for team %s.", p.UserID, p.Team)
		case len(m.Lineups[p.Team]) > 0 && !isMember(m.Lineups[p.Team], p.UserID):
			return errs.E(errs.Unprocessable, "Player %d is not in team %s's lineup.", p.UserID, p.Team)
		case p.Kills < 0 || p.Kills > MaxKills || p.Deaths < 0 || p.Deaths > MaxKills:
			return errs.E(errs.Invalid, "Kills and deaths are whole numbers from 0 to %d.", MaxKills)
		case p.Placement < 0 || p.Placement > 2*KartsPerSide:
			return errs.E(errs.Invalid, "A placement is from 1 to %d.", 2*KartsPerSide)
		case p.Placement > 0 && places[p.Placement]:
			return errs.E(errs.Invalid, "Placement %d is given twice.", p.Placement)
		}
		seen[p.UserID] = true
		places[p.Placement] = p.Placement > 0
		perSide[p.Team]++
		if perSide[p.Team] > KartsPerSide {
			return errs.E(errs.Invalid, "At most %d players a side.", KartsPerSide)
		}
	}
	if len(r.Players) == 0 {
		return errs.E(errs.Invalid, "Report the players' kills, deaths and placements.")
	}
	return nil
}

// ReportInput is a captain's report.
type ReportInput struct {
	Report
	ScreenshotID string
}

// ReportResult records a side's report with the end-of-match screenshot;
// the other side has ConfirmAfter to confirm or dispute it.
func (s *Service) ReportResult(ctx context.Context, a core.Actor, id int64, in ReportInput) (Match, error) {
	m, err := s.change(ctx, a, ActReport, id, func(ctx context.Context, m Match, side *TeamRef) error {
		if err := checkReport(m, in.Report); err != nil {
			return err
		}
		if in.ScreenshotID == "" {
			return errs.E(errs.Invalid, "Attach the end-of-match screenshot (upload it first).")
		}
		ok, err := s.Store.HasProof(ctx, m.ID, in.ScreenshotID)
		if err != nil {
			return err
		}
		if !ok {
			return errs.E(errs.Invalid, "The screenshot %q was not uploaded for match %d: upload it on this match first.", in.ScreenshotID, m.ID)
		}
		confirmBy := s.now().Add(s.confirmAfter())
		if err := s.Store.SaveReport(ctx, id, *side, in.Report, in.ScreenshotID, confirmBy); err != nil {
			return err
		}
		if err := s.Jobs.Schedule(ctx, AutoConfirm{Match: id}, confirmBy); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionReport, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID, "report": in.Report})
	})
	return shown(m, a), err
}

// Confirm accepts the other side's report (the side that did not report).
func (s *Service) Confirm(ctx context.Context, a core.Actor, id int64) (Match, error) {
	m, err := s.change(ctx, a, ActConfirm, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		if err := s.Audit.Record(ctx, a, ActionConfirm, m.TournamentID, matchTarget(m), nil); err != nil {
			return err
		}
		return s.complete(ctx, m, *m.Report, false)
	})
	return shown(m, a), err
}

// Dispute refuses the other side's report, with a reason; an organiser
// then rules.
func (s *Service) Dispute(ctx context.Context, a core.Actor, id int64, reason string) (Match, error) {
	reason = strings.TrimSpace(reason)
	m, err := s.change(ctx, a, ActDispute, id, func(ctx context.Context, m Match, side *TeamRef) error {
		if utf8.RuneCountInString(reason) < 3 || utf8.RuneCountInString(reason) > MaxReason {
			return errs.E(errs.Invalid, "Say why you dispute the result (3 to %d characters).", MaxReason)
		}
		if err := s.Store.SetDisputed(ctx, id, reason); err != nil {
			return err
		}
		return s.Audit.Record(ctx, a, ActionDispute, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID, "reason": reason})
	})
	return shown(m, a), err
}

// Resolve rules on a match (organisers): a dispute, a report nobody
// answered, a match nobody reported (a no-show), or a correction of a
// completed result. A correction that changes the winner waits on nothing
// the result decided being played: the winner's and the loser's next
// matches, a grand final's reset; a Swiss result's winner is final once the
// next round is paired on it. A ruling that names only the winner keeps the
// lines reported, else counts each side's lineup (or its first four
// players) with no kills.
func (s *Service) Resolve(ctx context.Context, a core.Actor, id int64, r Report) (Match, error) {
	m, err := s.change(ctx, a, ActResolve, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		if len(r.Players) == 0 {
			r.Players = linesWithoutScore(m)
		}
		if err := checkReport(m, r); err != nil {
			return err
		}
		if m.Status == StatusCompleted && m.Winner != nil && *m.Winner != r.Winner {
			if err := s.mayOverturn(ctx, m); err != nil {
				return err
			}
		}
		if err := s.Audit.Record(ctx, a, ActionResolve, m.TournamentID, matchTarget(m),
			map[string]any{"was": m.Status, "report": r}); err != nil {
			return err
		}
		return s.complete(ctx, m, r, false)
	})
	return shown(m, a), err
}

// linesWithoutScore are the lines of a ruling that gives only the winner:
// those reported, else each side's lineup (or first four players) with no
// kills.
func linesWithoutScore(m Match) []PlayerLine {
	if m.Report != nil && len(m.Report.Players) > 0 {
		return slices.Clone(m.Report.Players)
	}
	var lines []PlayerLine
	for _, side := range m.Sides() {
		list := m.Lineups[side.ID]
		if len(list) == 0 {
			list = m.Members[side.ID]
		}
		for _, p := range list[:min(len(list), KartsPerSide)] {
			lines = append(lines, PlayerLine{UserID: p.UserID, Team: side.ID})
		}
	}
	return lines
}

// Forfeit gives the match to the other side (a side's captain forfeits
// their own team) while nobody has reported it.
func (s *Service) Forfeit(ctx context.Context, a core.Actor, id int64) (Match, error) {
	m, err := s.change(ctx, a, ActForfeit, id, func(ctx context.Context, m Match, side *TeamRef) error {
		return s.forfeit(ctx, a, m, side)
	})
	return shown(m, a), err
}

// ForfeitFor forfeits a side on an organiser's word (a side that does not
// turn up): the other side wins, as when its captain forfeits. A match
// reported already is ruled on instead (Resolve), so no kills are lost.
func (s *Service) ForfeitFor(ctx context.Context, a core.Actor, id int64, team string) (Match, error) {
	team = strings.ToUpper(strings.TrimSpace(team))
	m, err := s.change(ctx, a, ActForfeitSide, id, func(ctx context.Context, m Match, _ *TeamRef) error {
		side := m.Side(team)
		if side == nil {
			return errs.E(errs.Invalid, "Team %q does not play match %d: name one of its sides.", team, m.ID)
		}
		return s.forfeit(ctx, a, m, side)
	})
	return shown(m, a), err
}

// forfeit completes the locked match m against side, with no kills (the
// rules let it only where nobody reported any).
func (s *Service) forfeit(ctx context.Context, a core.Actor, m Match, side *TeamRef) error {
	if err := s.Audit.Record(ctx, a, ActionForfeit, m.TournamentID, matchTarget(m), map[string]any{"team": side.ID}); err != nil {
		return err
	}
	return s.complete(ctx, m, Report{Winner: m.Other(side.ID).ID}, true)
}

// AutoConfirmDue confirms a report nobody answered by its deadline (the
// job); anything else is left alone.
func (s *Service) AutoConfirmDue(ctx context.Context, id int64) error {
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		m, err := s.Store.LockMatch(ctx, id)
		if err != nil {
			return err
		}
		if m.Report == nil || m.ConfirmBy == nil || s.now().Before(*m.ConfirmBy) {
			return nil
		}
		if _, err := s.may(ctx, ActAutoConfirm, core.System, m); err != nil {
			return nil // answered, ruled on, or its season over: nothing to confirm
		}
		if err := s.Audit.Record(ctx, core.System, ActionConfirm, m.TournamentID, matchTarget(m),
			map[string]any{"by": "deadline"}); err != nil {
			return err
		}
		if err := s.complete(ctx, m, *m.Report, false); err != nil {
			return err
		}
		done, err := s.Store.FindMatch(ctx, id)
		if err != nil {
			return err
		}
		return s.emitMatch(ctx, EventMatch, done)
	})
	if errs.KindOf(err) == errs.NotFound {
		return nil // the match is gone: nothing to confirm
	}
	return err
}

// mayOverturn says whether the winner of the completed match m may change:
// not once a match it decided is played, nor a Swiss round paired after it.
func (s *Service) mayOverturn(ctx context.Context, m Match) error {
	all, err := s.Store.Matches(ctx, m.TournamentID)
	if err != nil {
		return err
	}
	played := func(x Match) bool { return x.Status != StatusScheduled && x.Status != StatusLive }
	for _, x := range all {
		switch {
		case m.NextMatch != nil && x.ID == *m.NextMatch && played(x):
			return errs.E(errs.Conflict, "The winner's next match (%d) is played already: correct that one first.", x.ID)
		case m.LoserMatch != nil && x.ID == *m.LoserMatch && played(x):
			return errs.E(errs.Conflict, "The loser's next match (%d) is played already: correct that one first.", x.ID)
		case m.Stage == bracket.StageGrandFinal && x.Stage == bracket.StageGrandFinal && x.Round > m.Round && played(x):
			return errs.E(errs.Conflict, "The grand final's reset (%d) is played already: correct that one first.", x.ID)
		case m.Stage == bracket.StageSwiss && (x.Stage != bracket.StageSwiss || x.Round > m.Round):
			return errs.E(errs.Conflict, "Match %d is paired on this result already: a Swiss result's winner stands once the next round is made.", x.ID)
		}
	}
	return nil
}

// complete records a result: the winner advances (and a double
// elimination's loser drops), a finished league stage makes its play-offs,
// a finished Swiss round the next round or the top cut, a final or a
// grand final crowns the champion, and the tables change.
func (s *Service) complete(ctx context.Context, m Match, r Report, forfeit bool) error {
	winner := m.Side(r.Winner)
	lines := r.Players
	if forfeit {
		lines = nil
	}
	if err := s.Store.Complete(ctx, m, *winner, lines, forfeit); err != nil {
		return err
	}
	t, err := s.Tournaments.FindByID(ctx, m.TournamentID)
	if err != nil {
		return err
	}
	all, err := s.Store.Matches(ctx, t.ID)
	if err != nil {
		return err
	}
	switch {
	case m.Stage == bracket.StageLeague:
		if stageDone(all, bracket.StageLeague) {
			err = s.afterLeague(ctx, t, all)
		}
	case m.Stage == bracket.StageSwiss:
		if stageDone(all, bracket.StageSwiss) {
			err = s.afterSwiss(ctx, t, all)
		}
	case m.Stage == bracket.StageGrandFinal:
		err = s.afterGrandFinal(ctx, t, m, *winner, all)
	case m.NextMatch == nil:
		err = s.Store.SetChampion(ctx, t.ID, winner)
	}
	if err != nil {
		return err
	}
	return s.emitStandings(ctx, t)
}

// afterGrandFinal crowns a grand final's winner, unless the losers'
// champion won the first with the reset on: then the two play again, and
// nobody is champion until they have. A correction that gives the first
// back to the winners' champion takes the unplayed reset away.
func (s *Service) afterGrandFinal(ctx context.Context, t tournament.Tournament, m Match, winner TeamRef, all []Match) error {
	var reset *Match
	for _, x := range all {
		if x.Stage == bracket.StageGrandFinal && x.Round > m.Round {
			reset = &x
		}
	}
	gf := bracket.Match{Round: m.Round, Stage: m.Stage, Home: 1, Away: 2}
	if again, ok := bracket.AfterGrandFinal(t.Options, gf, winner.ID == m.Team2.ID); ok {
		if err := s.Store.SetChampion(ctx, t.ID, nil); err != nil || reset != nil {
			return err
		}
		if _, err := s.Store.CreateMatches(ctx, t.ID, []bracket.Match{again}, map[int]TeamRef{1: *m.Team1, 2: *m.Team2}); err != nil {
			return err
		}
		return s.emitBracket(ctx, t.ID)
	}
	if reset != nil {
		if err := s.Store.DeleteMatch(ctx, reset.ID); err != nil {
			return err
		}
		if err := s.emitBracket(ctx, t.ID); err != nil {
			return err
		}
	}
	return s.Store.SetChampion(ctx, t.ID, &winner)
}

// swissStage is a Swiss stage so far, as internal/bracket takes it.
type swissStage struct {
	teams   []string // in seed order
	bySeed  map[int]TeamRef
	rounds  [][]bracket.Pair
	results []bracket.Result
}

func (s *Service) swissStage(ctx context.Context, t tournament.Tournament, all []Match) (swissStage, error) {
	st := swissStage{bySeed: map[int]TeamRef{}}
	seeds, err := s.Store.SeedTeams(ctx, t.ID)
	if err != nil {
		return st, err
	}
	for _, sd := range seeds {
		st.teams = append(st.teams, sd.Team.ID)
		st.bySeed[sd.Seed] = sd.Team
	}
	for _, m := range all {
		if m.Stage != bracket.StageSwiss || m.Team1 == nil || m.Team2 == nil {
			continue
		}
		for len(st.rounds) < m.Round {
			st.rounds = append(st.rounds, nil)
		}
		st.rounds[m.Round-1] = append(st.rounds[m.Round-1], bracket.Pair{Home: m.Team1.ID, Away: m.Team2.ID})
	}
	st.results, err = s.Store.Results(ctx, t.ID, bracket.StageSwiss)
	return st, err
}

// afterSwiss follows a Swiss round's last result: the next round, paired
// on the standings, or once every round is played the top cut's play-offs,
// seeded by the standings, or without a cut the leader is champion.
func (s *Service) afterSwiss(ctx context.Context, t tournament.Tournament, all []Match) error {
	for _, m := range all {
		if m.Stage != bracket.StageSwiss {
			return nil // the top cut is made already
		}
	}
	st, err := s.swissStage(ctx, t, all)
	if err != nil {
		return err
	}
	played := len(st.rounds)
	if played < t.Options.Rounds {
		if _, err := s.Store.CreateMatches(ctx, t.ID, bracket.SwissRound(st.teams, st.rounds, st.results), st.bySeed); err != nil {
			return err
		}
		return s.emitBracket(ctx, t.ID)
	}
	rows := bracket.SwissStandings(st.teams, st.rounds, st.results)
	if len(rows) == 0 {
		return nil
	}
	refs := map[int]TeamRef{}
	for i, row := range rows {
		refs[i+1] = st.bySeed[slices.Index(st.teams, row.Team)+1]
	}
	if t.Options.TopCut == 0 {
		leader := refs[1]
		return s.Store.SetChampion(ctx, t.ID, &leader)
	}
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i + 1
	}
	po, err := bracket.Playoffs(order, t.Options.TopCut)
	if err != nil {
		return err
	}
	for i := range po {
		po[i].Round += played
	}
	if _, err := s.Store.CreateMatches(ctx, t.ID, po, refs); err != nil {
		return err
	}
	return s.emitBracket(ctx, t.ID)
}

func stageDone(all []Match, stage string) bool {
	for _, m := range all {
		if m.Stage == stage && m.Status != StatusCompleted && m.Status != StatusCancelled {
			return false
		}
	}
	return true
}

// afterLeague ends a league stage: the table's leader is champion of a
// round robin; a league then play-offs sends its top four to the semi-finals.
func (s *Service) afterLeague(ctx context.Context, t tournament.Tournament, all []Match) error {
	table, err := s.standings(ctx, t)
	if err != nil {
		return err
	}
	if len(table.Rows) == 0 {
		return nil
	}
	if t.Format != bracket.LeagueThenPlayoffs || len(table.Rows) < bracket.PlayoffTeams {
		return s.Store.SetChampion(ctx, t.ID, &table.Rows[0].TeamRef)
	}
	for _, m := range all {
		if m.Stage != bracket.StageLeague {
			return nil // the play-offs are made already
		}
	}
	refs := map[int]TeamRef{}
	order := make([]int, len(table.Rows))
	for i, row := range table.Rows {
		refs[i+1] = row.TeamRef
		order[i] = i + 1
	}
	po, err := bracket.Playoffs(order, bracket.PlayoffTeams)
	if err != nil {
		return err
	}
	lastRound := 0
	for _, m := range all {
		lastRound = max(lastRound, m.Round)
	}
	for i := range po {
		po[i].Round += lastRound
	}
	if _, err := s.Store.CreateMatches(ctx, t.ID, po, refs); err != nil {
		return err
	}
	return s.emitBracket(ctx, t.ID)
}

// TableRow is a Points Table row with the team's name.
type TableRow struct {
	bracket.Row
	TeamRef TeamRef `json:"-"`
	Name    string  `json:"name"`
}

// Table is the Points Table and the Red Cap at one moment.
type Table struct {
	Tournament string          `json:"tournament"`
	Seq        int64           `json:"seq"`
	Stage      string          `json:"stage"` // the matches it counts: "league", or "all"
	Scoring    bracket.Scoring `json:"scoring"`
	TieBreak   []string        `json:"tie_break"`
	Rows       []TableRow      `json:"rows"`
}

// RedCapRow is a Red Cap row with the player's name.
type RedCapRow struct {
	bracket.Killer
	Name     string `json:"name"`
	TeamName string `json:"team_name"`
}

// RedCap is the top-killer race at one moment.
type RedCap struct {
	Tournament string      `json:"tournament"`
	Seq        int64       `json:"seq"`
	Rows       []RedCapRow `json:"rows"`
}

func (s *Service) standings(ctx context.Context, t tournament.Tournament) (Table, error) {
	tab := Table{Tournament: t.Name, Scoring: t.Scoring, TieBreak: bracket.TieBreak, Stage: bracket.StageLeague, Rows: []TableRow{}}
	switch t.Format {
	case bracket.SingleElimination, bracket.DoubleElimination:
		tab.Stage = "all"
	case bracket.Swiss:
		return s.swissTable(ctx, t, tab)
	}
	stage := tab.Stage
	if stage == "all" {
		stage = ""
	}
	results, err := s.Store.Results(ctx, t.ID, stage)
	if err != nil {
		return tab, err
	}
	seeds, err := s.Store.SeedTeams(ctx, t.ID)
	if err != nil {
		return tab, err
	}
	refs, err := s.Store.Teams(ctx, t.ID)
	if err != nil {
		return tab, err
	}
	var letters []string // the teams in the fixtures, played or not
	for _, st := range seeds {
		letters = append(letters, st.Team.ID)
	}
	for _, row := range bracket.Standings(letters, results, t.Scoring) {
		tab.Rows = append(tab.Rows, TableRow{Row: row, TeamRef: refs[row.Team], Name: refs[row.Team].Name})
	}
	return tab, nil
}

// swissTable is a Swiss stage's standings as the Points Table: a win or a
// bye a point, ties by Buchholz, then kill difference, then seed.
func (s *Service) swissTable(ctx context.Context, t tournament.Tournament, tab Table) (Table, error) {
	tab.Stage, tab.Scoring, tab.TieBreak = bracket.StageSwiss, bracket.SwissScoring, bracket.SwissTieBreak
	all, err := s.Store.Matches(ctx, t.ID)
	if err != nil {
		return tab, err
	}
	st, err := s.swissStage(ctx, t, all)
	if err != nil {
		return tab, err
	}
	refs := map[string]TeamRef{}
	for _, ref := range st.bySeed {
		refs[ref.ID] = ref
	}
	for _, row := range bracket.SwissStandings(st.teams, st.rounds, st.results) {
		tab.Rows = append(tab.Rows, TableRow{Row: row, TeamRef: refs[row.Team], Name: refs[row.Team].Name})
	}
	return tab, nil
}

func (s *Service) redCap(ctx context.Context, t tournament.Tournament) (RedCap, error) {
	rc := RedCap{Tournament: t.Name, Rows: []RedCapRow{}}
	results, err := s.Store.Results(ctx, t.ID, "")
	if err != nil {
		return rc, err
	}
	killers := bracket.RedCap(results)
	ids := make([]int64, len(killers))
	for i, k := range killers {
		ids[i] = k.UserID
	}
	names, err := s.Store.Names(ctx, ids)
	if err != nil {
		return rc, err
	}
	teams, err := s.Store.Teams(ctx, t.ID)
	if err != nil {
		return rc, err
	}
	for _, k := range killers {
		rc.Rows = append(rc.Rows, RedCapRow{Killer: k, Name: names[k.UserID], TeamName: teams[k.Team].Name})
	}
	return rc, nil
}

func (s *Service) emitStandings(ctx context.Context, t tournament.Tournament) error {
	tab, err := s.standings(ctx, t)
	if err != nil {
		return err
	}
	rc, err := s.redCap(ctx, t)
	if err != nil {
		return err
	}
	_, err = s.Events.Emit(ctx, core.TopicBracket, EventStandings, map[string]any{"tournament": t.Name,
		"standings": tab, "red_cap": rc})
	return err
}

// Standings is the named tournament's Points Table.
func (s *Service) Standings(ctx context.Context, name string) (Table, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return Table{}, err
	}
	var tab Table
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if tab, err = s.standings(ctx, t); err != nil {
			return err
		}
		tab.Seq, err = s.Events.Seq(ctx, core.TopicBracket)
		return err
	})
	return tab, err
}

// RedCapOf is the named tournament's Red Cap race.
func (s *Service) RedCapOf(ctx context.Context, name string) (RedCap, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return RedCap{}, err
	}
	var rc RedCap
	err = s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if rc, err = s.redCap(ctx, t); err != nil {
			return err
		}
		rc.Seq, err = s.Events.Seq(ctx, core.TopicBracket)
		return err
	})
	return rc, err
}

// Award crowns a completing season, in the transaction that completes it
// (tournament.Service.OnComplete): "Season N Winner" to the champion's
// captain and players, "Red Cap Season N" to the top killer. A tournament
// with fixtures needs its champion first.
func (s *Service) Award(ctx context.Context, a core.Actor, t tournament.Tournament) error {
	ms, err := s.Store.Matches(ctx, t.ID)
	if err != nil || len(ms) == 0 {
		return err
	}
	champ, err := s.Store.Champion(ctx, t.ID)
	if err != nil {
		return err
	}
	if champ == nil {
		return errs.E(errs.Conflict, "%s has no champion yet: finish its matches first.", t.Name)
	}
	season := t.Name
	if t.Season > 0 {
		season = fmt.Sprint(t.Season)
	}
	members, err := s.Store.TeamMembers(ctx, champ.DBID)
	if err != nil {
		return err
	}
	var winners []int64
	for _, p := range members {
		winners = append(winners, p.UserID)
	}
	winnerBadge := "Season " + season + " Winner"
	if err := s.Store.Award(ctx, winnerBadge, "trophy", "#FFD700", winners); err != nil {
		return err
	}
	data := map[string]any{"champion": champ.ID, "winner_badge": winnerBadge}
	rc, err := s.redCap(ctx, t)
	if err != nil {
		return err
	}
	if len(rc.Rows) > 0 {
		redCapBadge := "Red Cap Season " + season
		if err := s.Store.Award(ctx, redCapBadge, "flame", "#E53935", []int64{rc.Rows[0].UserID}); err != nil {
			return err
		}
		data["red_cap"], data["red_cap_badge"] = rc.Rows[0].Name, redCapBadge
	}
	return s.Audit.Record(ctx, a, ActionAward, t.ID, t.Name, data)
}

// UploadProof keeps a side's end-of-match screenshot for match id (the
// checks of every upload apply; at most MaxProofs a side) and returns its
// id, which only this match's report may cite. Proofs no report cites are
// pruned (PruneProofs).
func (s *Service) UploadProof(ctx context.Context, a core.Actor, id int64, data []byte) (string, error) {
	var imageID string
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		m, err := s.Store.LockMatch(ctx, id)
		if err != nil {
			return err
		}
		side, err := s.may(ctx, ActUploadProof, a, m)
		if err != nil {
			return err
		}
		img, err := upload.Check(data)
		if err != nil {
			return err
		}
		n, err := s.Store.CountProofs(ctx, m.ID, *side)
		if err != nil {
			return err
		}
		if n >= MaxProofs {
			return errs.E(errs.Unprocessable, "Team %s has uploaded %d screenshots for match %d already: report with one of them.", side.ID, n, m.ID)
		}
		if imageID, err = s.Images.SaveImage(ctx, img.MIME, data); err != nil {
			return err
		}
		return s.Store.AddProof(ctx, m.ID, *side, a.UserID, imageID)
	})
	return imageID, err
}

// PruneProofs is the periodic job that forgets screenshots uploaded for a
// match more than ProofKeep ago that its report does not cite.
type PruneProofs struct{}

// Kind implements core.Job.
func (PruneProofs) Kind() string { return "match.prune_proofs" }

// PruneProofsDue runs the job.
func (s *Service) PruneProofsDue(ctx context.Context, _ PruneProofs) error {
	_, err := s.Store.PruneProofs(ctx, s.now().Add(-ProofKeep))
	return err
}

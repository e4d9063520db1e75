// Fixtures: the formats an organiser picks, the seeds, and the bracket as it is shown.

package matches

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

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
		if t, seeds, err = s.beforeFixtures(ctx, a, name, tournament.MakeFixtures, "The fixtures of %s are made already: reset them first to make them again."); err != nil {
			return err
		}
		// A withdrawn team is in no fixtures: the others are seeded 1 to n.
		seeds = slices.DeleteFunc(seeds, func(st SeededTeam) bool { return st.Withdrawn })
		for i := range seeds {
			seeds[i].Seed = i + 1
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
func (s *Service) beforeFixtures(ctx context.Context, a core.Actor, name string, act tournament.Action, made string) (tournament.Tournament, []SeededTeam, error) {
	t, err := s.Tournaments.Find(ctx, name)
	if err != nil {
		return t, nil, err
	}
	if err := tournament.Authorize(a, t, act); err != nil {
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
		if t, seeds, err = s.beforeFixtures(ctx, a, name, tournament.ReorderSeeds, "The fixtures of %s are made: its seeds are final."); err != nil {
			return err
		}
		var letters []string // the teams still in: a withdrawn one is in no fixtures
		for _, st := range seeds {
			if !st.Withdrawn {
				letters = append(letters, st.Team.ID)
			}
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
		m = shown(m, a, s.now())
		n := len(b.Rounds)
		if n == 0 || b.Rounds[n-1].Number != m.Round || b.Rounds[n-1].Stage != m.Stage {
			b.Rounds = append(b.Rounds, Round{Number: m.Round, Stage: m.Stage, Bracket: m.Bracket})
			n++
		}
		b.Rounds[n-1].Matches = append(b.Rounds[n-1].Matches, m)
	}
	out, err := s.Store.Withdrawn(ctx, t.ID)
	if err != nil {
		return b, err
	}
	for i, r := range b.Rounds {
		if r.Stage != bracket.StageSwiss {
			continue
		}
		for _, st := range b.Seeds {
			if rounds, gone := out[st.Team.ID]; gone && r.Number > rounds {
				continue // withdrawn before the round: no bye, it is out
			}
			if !slices.ContainsFunc(r.Matches, func(m Match) bool { return m.Side(st.Team.ID) != nil }) {
				b.Rounds[i].Bye = &st.Team
			}
		}
	}
	b.Champion, err = s.Store.Champion(ctx, t.ID)
	return b, err
}

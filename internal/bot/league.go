package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/tournament"
)

// The embeds' colour: the seed's primary blue.
const colour = 0x4A90E2

// profile shows a player's stats card: the member's own, or a mentioned one's.
func (c *call) profile(ctx context.Context) Reply {
	if len(c.args) > 1 {
		return usage("profile")
	}
	u, self := c.user, true
	if len(c.args) == 1 {
		id, ok := mentionID(c.args[0])
		if !ok {
			return usage("profile")
		}
		if id != c.req.Member.ID || !c.linked {
			self = false
			var err error
			if u, err = c.Accounts.FindByDiscordID(ctx, id); errs.KindOf(err) == errs.NotFound {
				return Reply{Text: fmt.Sprintf("<@%s> has not linked a Pitlane account.", id)}
			} else if err != nil {
				return c.fail(err)
			}
		}
	} else if !c.linked {
		return c.fail(core.ErrUnauthenticated)
	}
	t, err := c.Tournaments.Find(ctx, "")
	if err != nil {
		return c.fail(err)
	}
	roster, err := c.Tournaments.Registrations(ctx, t)
	if err != nil {
		return c.fail(err)
	}
	var card *tournament.Player
	for i := range roster.Players {
		if roster.Players[i].ID == u.ID {
			card = &roster.Players[i]
		}
	}
	e := &Embed{Title: u.DisplayName(), URL: c.url("/tournament"), Color: colour}
	discord := "<@" + u.DiscordID + "> ✅ verified"
	e.Fields = append(e.Fields, Field{Name: "Discord", Value: discord, Inline: true})
	switch {
	case card != nil && card.Hidden && !self:
		// A hidden profile is the name and the registration alone.
		e.Title, e.Description = card.Name, "This player's profile is hidden."
		e.Fields = []Field{{Name: "Registration", Value: registrationLine(*card, t.DisplayName()), Inline: true}}
	case card != nil && !card.Hidden:
		e.Title = card.Name
		e.Fields = append(e.Fields, statFields(card.Level, card.Kills, card.Deaths, card.KD, card.GamesPlayed, card.Category)...)
		e.Fields = append(e.Fields, Field{Name: "Registration", Value: registrationLine(*card, t.DisplayName()), Inline: true})
		if len(card.Badges) > 0 {
			names := make([]string, len(card.Badges))
			for i, b := range card.Badges {
				names[i] = "🏆 " + b.Name
			}
			e.Fields = append(e.Fields, Field{Name: "Badges", Value: strings.Join(names, ", ")})
		}
		if card.Description != "" {
			e.Description = card.Description
		}
	case self:
		// Unregistered players' stats, and a hidden profile's, are their
		// own: shown to them only.
		st, err := c.Stats.Get(ctx, c.actor)
		if err != nil {
			return c.fail(err)
		}
		if st != nil {
			kills, deaths := st.Kills, st.Deaths
			if kills == 0 && deaths == 0 && st.GamesPlayed > 0 {
				kills, deaths = core.DeriveKillsDeaths(st.KD, st.GamesPlayed)
			}
			e.Fields = append(e.Fields, statFields(st.Level, kills, deaths, st.KD, st.GamesPlayed, st.Category)...)
		} else {
			e.Description = "No SK stats yet: upload them at " + c.url("/?showStatsUpload=true")
		}
		reg := "Not registered for " + t.DisplayName() + " — `!register`"
		if card != nil {
			reg = registrationLine(*card, t.DisplayName())
		}
		e.Fields = append(e.Fields, Field{Name: "Registration", Value: reg, Inline: true})
	default:
		e.Description = "Not registered for " + t.DisplayName() + "."
	}
	if team := c.teamLine(ctx, t.Name, u.ID); team != "" {
		e.Fields = append(e.Fields, Field{Name: "Team", Value: team, Inline: true})
	}
	e.Footer = "Pitlane · " + t.DisplayName()
	return Reply{Embed: e}
}

// registrationLine is a card's registration in words: confirmed or
// waiting, and checked in.
func registrationLine(p tournament.Player, name string) string {
	s := "Registered for " + name
	if p.Status == tournament.Waitlisted {
		s = "On the " + name + " waitlist"
	}
	if p.CheckedInAt != nil {
		s += " · checked in"
	}
	return s
}

func statFields(level, kills, deaths int, kd float64, games, tier int) []Field {
	return []Field{
		{Name: "Level", Value: strconv.Itoa(level), Inline: true},
		{Name: "Kills", Value: strconv.Itoa(kills), Inline: true},
		{Name: "Deaths", Value: strconv.Itoa(deaths), Inline: true},
		{Name: "K/D", Value: strconv.FormatFloat(kd, 'f', 2, 64), Inline: true},
		{Name: "Games", Value: strconv.Itoa(games), Inline: true},
		{Name: "Tier", Value: strconv.Itoa(tier), Inline: true},
	}
}

// teamOf finds the team the user captains or plays for in the tournament.
func (c *call) teamOf(ctx context.Context, name string, userID int64) (auction.Team, bool, bool) {
	v, err := c.Auction.Teams(ctx, name)
	if err != nil {
		return auction.Team{}, false, false
	}
	for _, t := range v.Teams {
		if t.Captain != nil && t.Captain.UserID == userID {
			return t, true, true
		}
		for _, p := range t.Players {
			if p.UserID == userID {
				return t, false, true
			}
		}
	}
	return auction.Team{}, false, false
}

func (c *call) teamLine(ctx context.Context, name string, userID int64) string {
	t, captain, ok := c.teamOf(ctx, name, userID)
	if !ok {
		return ""
	}
	s := teamName(t.ID, t.Name)
	if captain {
		s += " (captain)"
	}
	return s
}

// matches shows the member's team's next and last matches, with the room
// when the services let them see it (the two sides and organisers) and only
// where the member alone reads the answer: a room code in a channel would let
// anyone join the match. In a channel the answer says where to ask instead.
func (c *call) matches(ctx context.Context) Reply {
	if len(c.args) > 0 {
		return usage("matches")
	}
	if !c.linked {
		return c.fail(core.ErrUnauthenticated)
	}
	t, err := c.Tournaments.Find(ctx, "")
	if err != nil {
		return c.fail(err)
	}
	team, _, ok := c.teamOf(ctx, t.Name, c.actor.UserID)
	if !ok {
		return Reply{Text: "You are not on a team in " + t.DisplayName() + " yet."}
	}
	list, err := c.Matches.Matches(ctx, c.actor, t.Name, team.ID)
	if err != nil {
		return c.fail(err)
	}
	var next, last *matches.Match
	for i := range list {
		m := &list[i]
		done := m.Status == matches.StatusCompleted || m.Status == matches.StatusCancelled
		if !done && next == nil {
			next = m
		}
		if done && last == nil {
			last = m
		}
	}
	e := &Embed{Title: teamName(team.ID, team.Name), URL: c.url("/tournament"), Color: colour, Footer: "Pitlane · " + t.DisplayName()}
	if next == nil && last == nil {
		e.Description = "No matches yet: the fixtures are made in the matches phase."
	}
	rep := Reply{Embed: e}
	if next != nil {
		private := c.req.Where.Private()
		e.Fields = append(e.Fields, Field{Name: "Next match", Value: matchLine(*next, true, private)})
		// A slash command's answer that shows the code is ephemeral.
		rep.Private = private && next.Room != ""
	}
	if last != nil {
		e.Fields = append(e.Fields, Field{Name: "Last match", Value: matchLine(*last, false, false)})
	}
	return rep
}

// MsgRoomInPrivate stands for a room code in a channel's answer.
const MsgRoomInPrivate = "posted: ask me in a direct message (`!matches`) or use `/matches`, whose answer only you see"

func side(t *matches.TeamRef) string {
	if t == nil {
		return "TBD"
	}
	return teamName(t.ID, t.Name)
}

// teamName is "Team A", with the team's own name when it has one.
func teamName(letter, name string) string {
	if name == "" || name == "Team "+letter {
		return "Team " + letter
	}
	return "Team " + letter + " (" + name + ")"
}

// matchLine is one match; showRoom puts its room code in (private answers only).
func matchLine(m matches.Match, upcoming, showRoom bool) string {
	s := fmt.Sprintf("#%d · round %d · %s vs %s · %s", m.ID, m.Round, side(m.Team1), side(m.Team2), m.Status)
	if m.Winner != nil {
		s += " · winner Team " + *m.Winner
	}
	if upcoming && m.ScheduledAt != nil {
		// Discord shows a timestamp in each reader's own time zone.
		s += fmt.Sprintf("\nTime: <t:%d:F> (<t:%d:R>)", m.ScheduledAt.Unix(), m.ScheduledAt.Unix())
	}
	if upcoming {
		switch {
		case m.Room != "" && showRoom:
			s += "\nRoom: `" + m.Room + "`"
		case m.Room != "":
			s += "\nRoom: " + MsgRoomInPrivate
		case !m.RoomSet:
			s += "\nRoom: not posted yet (the home captain posts it)"
		}
	}
	return s
}

// bracket summarises the fixtures and links the tournament page.
func (c *call) bracket(ctx context.Context) Reply {
	if len(c.args) > 0 {
		return usage("bracket")
	}
	b, err := c.Matches.Bracket(ctx, c.actor, "")
	if err != nil {
		return c.fail(err)
	}
	title := b.Tournament
	if t, err := c.Tournaments.Find(ctx, b.Tournament); err == nil {
		title = t.DisplayName()
	}
	e := &Embed{Title: title + " bracket", URL: c.url("/tournament"), Color: colour, Footer: "Full bracket: " + c.url("/tournament")}
	if len(b.Rounds) == 0 {
		e.Description = "No fixtures yet. " + c.url("/tournament")
		return Reply{Embed: e}
	}
	total, played := 0, 0
	for _, r := range b.Rounds {
		open := 0
		for _, m := range r.Matches {
			total++
			if m.Status == matches.StatusCompleted || m.Status == matches.StatusCancelled {
				played++
			} else {
				open++
			}
		}
		// The rounds being played: a double elimination plays in both
		// brackets at once.
		if open > 0 && len(e.Fields) < maxRoundsShown {
			var lines []string
			for _, m := range r.Matches {
				lines = append(lines, fmt.Sprintf("#%d %s vs %s · %s", m.ID, letter(m.Team1), letter(m.Team2), m.Status))
			}
			if r.Bye != nil {
				lines = append(lines, "Bye: "+side(r.Bye))
			}
			e.Fields = append(e.Fields, Field{Name: matches.RoundName(r.Stage, r.Number), Value: truncate(strings.Join(lines, "\n"), 1000)})
		}
	}
	e.Description = fmt.Sprintf("Format: %s · %d rounds · %d of %d matches played.\n%s", matches.FormatName(b.Format, b.Options),
		len(b.Rounds), played, total, c.url("/tournament"))
	if b.Format == bracket.Swiss && b.Champion == nil {
		if tab, err := c.Matches.Standings(ctx, b.Tournament); err == nil && len(tab.Rows) > 0 {
			var lines []string
			for i, row := range tab.Rows {
				lines = append(lines, fmt.Sprintf("%d. %s · %d pts · Buchholz %d · %+d kills", i+1, row.Team, row.Points, row.Buchholz, row.KillDiff))
			}
			e.Fields = append(e.Fields, Field{Name: "Swiss standings", Value: truncate(strings.Join(lines, "\n"), 1000)})
		}
	}
	if b.Champion != nil {
		e.Fields = append(e.Fields, Field{Name: "Champion", Value: "🏆 " + side(b.Champion)})
	}
	return Reply{Embed: e}
}

// maxRoundsShown is how many rounds being played !bracket lists.
const maxRoundsShown = 3

// formatInput reads `!admin bracket`'s arguments: a format (single
// elimination when none), then a Swiss stage's rounds=N and cut=N, a double
// elimination's reset=on|off.
func formatInput(args []string) (matches.FormatInput, bool) {
	in := matches.FormatInput{Format: bracket.SingleElimination}
	if len(args) > 0 && !strings.Contains(args[0], "=") {
		in.Format, args = strings.ToLower(args[0]), args[1:]
	}
	for _, a := range args {
		key, value, _ := strings.Cut(strings.ToLower(a), "=")
		n, err := strconv.Atoi(value)
		switch {
		case key == "rounds" && err == nil:
			in.Rounds = n
		case (key == "cut" || key == "top_cut") && err == nil:
			in.TopCut = n
		case key == "reset" && (value == "on" || value == "off"):
			on := value == "on"
			in.GrandFinalReset = &on
		default:
			return in, false
		}
	}
	return in, true
}

func letter(t *matches.TeamRef) string {
	if t == nil {
		return "TBD"
	}
	return t.ID
}

// admin runs an organiser's command; the services refuse everyone else.
func (c *call) admin(ctx context.Context) Reply {
	if len(c.args) == 0 {
		return usage("admin")
	}
	sub, args := strings.ToLower(c.args[0]), c.args[1:]
	switch sub {
	case "status":
		force := len(args) == 2 && strings.ToLower(args[1]) == "force"
		if len(args) != 1 && !force {
			return usage("admin")
		}
		return c.setStatus(ctx, strings.ToLower(args[0]), force)
	case "announce":
		text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(c.rest), c.args[0]))
		if text == "" {
			return usage("admin")
		}
		return c.announce(ctx, text)
	case "resolve":
		if len(args) != 2 {
			return usage("admin")
		}
		id, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64)
		if err != nil || id <= 0 {
			return usage("admin")
		}
		return c.resolve(ctx, id, strings.ToUpper(args[1]))
	case "bracket":
		in, ok := formatInput(args)
		if !ok {
			return usage("admin")
		}
		b, err := c.Matches.GenerateWith(ctx, c.actor, "", in)
		if err != nil {
			return c.fail(err)
		}
		n := 0
		for _, r := range b.Rounds {
			n += len(r.Matches)
		}
		return Reply{Text: fmt.Sprintf("Fixtures made for %s: %s, %d rounds, %d matches. %s", b.Tournament,
			matches.FormatName(b.Format, b.Options), len(b.Rounds), n, c.url("/tournament"))}
	case "pause", "resume", "undo":
		if len(args) != 0 {
			return usage("admin")
		}
		return c.auctionFlow(ctx, sub)
	case "reset":
		force := len(args) == 1 && strings.ToLower(args[0]) == "force"
		if len(args) > 1 || len(args) == 1 && !force {
			return usage("admin")
		}
		return c.resetFixtures(ctx, force)
	case "withdraw":
		if len(args) == 0 {
			return usage("admin")
		}
		reason := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(c.rest), c.args[0])), args[0]))
		return c.withdraw(ctx, args[0], reason)
	case "captain":
		if len(args) != 2 {
			return usage("admin")
		}
		if err := c.actor.MustBeAdmin(); err != nil {
			return c.fail(err)
		}
		did, ok := mentionID(args[1])
		if !ok {
			return usage("admin")
		}
		u, err := c.Accounts.FindByDiscordID(ctx, did)
		if errs.KindOf(err) == errs.NotFound {
			return Reply{Text: fmt.Sprintf("<@%s> has not linked a Pitlane account.", did)}
		} else if err != nil {
			return c.fail(err)
		}
		team, err := c.Auction.SetCaptain(ctx, c.actor, "", strings.ToUpper(args[0]), u.ID)
		if err != nil {
			return c.fail(err)
		}
		return Reply{Text: fmt.Sprintf("%s now captains Team %s (%s).", u.DisplayName(), team.ID, team.Name)}
	}
	return usage("admin")
}

// setStatus moves the default tournament to phase; a move that leaves
// things incomplete lists them and says how to force it.
func (c *call) setStatus(ctx context.Context, phase string, force bool) Reply {
	t, err := c.Tournaments.SetStatus(ctx, c.actor, "", phase, force)
	if err == nil {
		return Reply{Text: fmt.Sprintf("%s is now in the **%s** phase.", t.Name, t.Status)}
	}
	rep := c.fail(err)
	if p, perr := c.Tournaments.PhaseMoves(ctx, c.actor, ""); perr == nil && !force {
		for _, m := range p.Moves {
			if m.To == phase && m.Force {
				rep.Text += fmt.Sprintf("\nTo move anyway: `!admin status %s force`.", phase)
			}
		}
	}
	return rep
}

// resetFixtures resets the default tournament's fixtures; with force over
// results, which are archived.
func (c *call) resetFixtures(ctx context.Context, force bool) Reply {
	r, err := c.Matches.ResetFixtures(ctx, c.actor, "", force)
	if err != nil {
		rep := c.fail(err)
		if len(errs.ProblemsOf(err)) > 0 && !force {
			rep.Text += "\nTo reset anyway (the results are archived): `!admin reset force`."
		}
		return rep
	}
	text := fmt.Sprintf("The fixtures of %s are reset: %d matches taken back", r.Tournament, r.Matches)
	switch {
	case r.Results == 1:
		text += ", 1 result archived"
	case r.Results > 1:
		text += fmt.Sprintf(", %d results archived", r.Results)
	}
	return Reply{Text: text + ". Make them again (`!admin bracket`) or move the season back to its auction."}
}

// withdraw withdraws a team (by letter) or a player (by mention) from the
// default tournament, with the reason given.
func (c *call) withdraw(ctx context.Context, who, reason string) Reply {
	if did, ok := mentionID(who); ok {
		if err := c.actor.MustBeAdmin(); err != nil {
			return c.fail(err)
		}
		u, err := c.Accounts.FindByDiscordID(ctx, did)
		if errs.KindOf(err) == errs.NotFound {
			return Reply{Text: fmt.Sprintf("<@%s> has not linked a Pitlane account.", did)}
		} else if err != nil {
			return c.fail(err)
		}
		w, err := c.Tournaments.WithdrawPlayer(ctx, c.actor, "", u.ID, tournament.WithdrawInput{Reason: reason})
		if err != nil {
			return c.fail(err)
		}
		text := fmt.Sprintf("%s is withdrawn from %s.", w.Name, w.Tournament)
		if w.Team != "" {
			text += fmt.Sprintf(" Their slot on Team %s stays empty: the captain may sign a substitute (a replacement is picked when withdrawing on %s).",
				w.Team, c.url("/admin/matches"))
		}
		return Reply{Text: text}
	}
	if len(who) != 1 {
		return usage("admin")
	}
	w, err := c.Matches.WithdrawTeam(ctx, c.actor, "", who, reason)
	if err != nil {
		return c.fail(err)
	}
	text := fmt.Sprintf("%s is withdrawn from %s: %d of its matches forfeited to its opponents, the rest as they come.",
		teamName(w.Team.ID, w.Team.Name), w.Tournament, len(w.Forfeited))
	if len(w.ToRule) > 0 {
		text += fmt.Sprintf(" %d reported matches wait for a ruling.", len(w.ToRule))
	}
	return Reply{Text: text}
}

// auctionFlow pauses or resumes the default tournament's auction, or
// undoes its last sale.
func (c *call) auctionFlow(ctx context.Context, sub string) Reply {
	switch sub {
	case "pause":
		news, err := c.Auction.Pause(ctx, c.actor, "")
		if err != nil {
			return c.fail(err)
		}
		return Reply{Text: fmt.Sprintf("The auction of %s is paused: no bids until `!admin resume`.", news.Tournament)}
	case "resume":
		news, err := c.Auction.Resume(ctx, c.actor, "")
		if err != nil {
			return c.fail(err)
		}
		return Reply{Text: fmt.Sprintf("The auction of %s runs again. %s", news.Tournament, c.url("/auction"))}
	}
	lot, err := c.Auction.UndoLastSale(ctx, c.actor, "")
	if err != nil {
		return c.fail(err)
	}
	return Reply{Text: fmt.Sprintf("Sale undone: %s is back in the pool, the credits back with the team.", lot.Player.Name)}
}

// announce posts an organiser's text to the announcement channel, audited.
func (c *call) announce(ctx context.Context, text string) Reply {
	if err := c.actor.MustBeAdmin(); err != nil {
		return c.fail(err)
	}
	if c.Channel == nil {
		return Reply{Text: "No announcement channel is configured (DISCORD_ANNOUNCE_CHANNEL)."}
	}
	text = truncate(text, 1800)
	err := c.Tx.Transact(ctx, func(ctx context.Context) error {
		return c.Audit.Record(ctx, c.actor, core.ActionBotAnnounce, 0, "discord", map[string]string{"text": text})
	})
	if err != nil {
		return c.fail(err)
	}
	if err := c.Channel.Post(ctx, Reply{Text: "📣 " + text}); err != nil {
		return c.fail(errs.Wrap(&errs.Error{Kind: errs.Upstream, Message: "Discord did not take the announcement. Please try again."}, err))
	}
	return Reply{Text: "Announced."}
}

// resolve rules a match for team: the league's ruling that names only the
// winner (the lines reported, else no kills), as /admin gives it.
func (c *call) resolve(ctx context.Context, id int64, team string) Reply {
	r := matches.Report{Winner: team}
	done, err := c.Matches.Resolve(ctx, c.actor, id, r)
	if err != nil {
		return c.fail(err)
	}
	return Reply{Text: fmt.Sprintf("Match #%d resolved: Team %s wins (%s vs %s).", done.ID, team, side(done.Team1), side(done.Team2))}
}

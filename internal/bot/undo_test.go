package bot_test

import (
	"context"
	"testing"

	"github.com/pitlane/pitlane/internal/bot"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/demo"
)

// The ways out on Discord: a phase move that leaves things incomplete lists
// them and says how to force it; fixtures with a result are reset only with
// force; a team and a player are withdrawn; a captain is refused all of it.
func TestUndoCommands(t *testing.T) {
	s, advance := demoLeague(t)
	r := *s.App.Bot
	admin := bot.Member{ID: demo.AdminDiscordID, Username: "league.organiser"}
	captainA := bot.Member{ID: demo.PlayerDiscordID(1), Username: "captain.a"}
	ctx := context.Background()

	// Registering, then the auction with nobody bought: moving to the matches warns, team by team.
	wantText(t, say(t, &r, admin, false, "!admin status auction"), "PPL7 is now in the **auction** phase")
	rep := say(t, &r, admin, false, "!admin status matches")
	wantText(t, rep, "leaves 8 things incomplete", "• Team A has 5 of 5 slots empty", "`!admin status matches force`")
	wantText(t, say(t, &r, captainA, false, "!admin status matches force"), core.MsgAdminsOnly)
	wantText(t, say(t, &r, admin, false, "!admin status matches force"), "PPL7 is now in the **matches** phase")
	wantText(t, say(t, &r, admin, false, "!admin status auction"), "PPL7 is now in the **auction** phase")
	wantText(t, say(t, &r, admin, false, "!admin status registration"), "PPL7 is now in the **registration** phase")
	advance() // the auction played through: five players a team

	wantText(t, say(t, &r, admin, false, "!admin reset"), "PPL7 has no fixtures to reset.")
	wantText(t, say(t, &r, admin, false, "!admin bracket single_elimination"), "Fixtures made for PPL7")
	wantText(t, say(t, &r, admin, false, "!admin status auction"), "its fixtures are made: reset them first")
	b, err := s.App.Server.Matches.Bracket(ctx, core.System, "PPL7")
	if err != nil {
		t.Fatal(err)
	}
	m := b.Rounds[0].Matches[0]
	organiser := core.Actor{UserID: 1, Name: "organiser", Admin: true}
	if _, err := s.App.Server.Matches.ForfeitFor(ctx, organiser, m.ID, m.Team2.ID); err != nil {
		t.Fatal(err)
	}
	wantText(t, say(t, &r, captainA, false, "!admin reset force"), core.MsgAdminsOnly)
	wantText(t, say(t, &r, admin, false, "!admin reset"), "1 match of PPL7 has a result", "won by forfeit", "`!admin reset force`")
	wantText(t, say(t, &r, admin, false, "!admin reset now"), "Usage: `!admin status")
	wantText(t, say(t, &r, admin, false, "!admin reset force"), "The fixtures of PPL7 are reset: 7 matches taken back, 1 result archived")
	wantText(t, say(t, &r, admin, false, "!admin bracket double_elimination"), "Fixtures made for PPL7")

	// A player of team B, by their Discord account; then team C.
	var discordID string
	if err := s.DB.Pool.QueryRow(ctx, `SELECT u.discord_id FROM team_players p JOIN teams t ON t.id = p.team_id JOIN users u ON u.id = p.user_id
		WHERE t.letter = 'B' AND u.discord_id IS NOT NULL ORDER BY u.id LIMIT 1`).Scan(&discordID); err != nil {
		t.Fatal(err)
	}
	wantText(t, say(t, &r, captainA, false, "!admin withdraw C"), core.MsgAdminsOnly)
	wantText(t, say(t, &r, admin, false, "!admin withdraw <@"+demo.PlayerDiscordID(1)+">"), "captains team A", "withdraw the team instead")
	wantText(t, say(t, &r, admin, false, "!admin withdraw <@"+discordID+"> moved abroad"), "is withdrawn from PPL7", "slot on Team B stays empty")
	wantText(t, say(t, &r, admin, false, "!admin withdraw C Stopped showing up"), "Team C is withdrawn from PPL7", "forfeited to its opponents")
	wantText(t, say(t, &r, admin, false, "!admin withdraw C"), "Team C has withdrawn already.")
	var reason string
	if err := s.DB.Pool.QueryRow(ctx, `SELECT withdrawn_reason FROM teams WHERE letter = 'C'`).Scan(&reason); err != nil || reason != "Stopped showing up" {
		t.Fatalf("reason %q %v", reason, err)
	}
	wantText(t, say(t, &r, admin, false, "!admin withdraw"), "Usage: `!admin status")
}

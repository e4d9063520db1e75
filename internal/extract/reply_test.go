package extract

import (
	"testing"

	"github.com/pitlane/pitlane/internal/core"
)

func TestParseReply(t *testing.T) {
	want := raw{DiscordUsername: "TurboKing", Level: "42", Kills: "5200", Deaths: "2600", KDRatio: "2.00", SkID: "123456", TotalGames: "1800"}
	tests := []struct {
		name, text string
	}{
		{"CleanJSON", `{"userName":"TurboKing","level":42,"kills":5200,"deaths":2600,"kd":2,"skId":"123456","gamesPlayed":1800}`},
		{"FencedJSON", "Here you go:\n```json\n{\"userName\": \"TurboKing\", \"level\": \"42\", \"kills\": \"5,200\", \"deaths\": 2600, \"kd\": \"2.00\", \"skId\": \"#123456\", \"gamesPlayed\": 1800}\n```"},
		{"ProseWithNumbers", "The player name is TurboKing at level 42. They have 5,200 kills and 2,600 deaths, a K/D ratio of 2.00, SK ID #123456 and 1800 games played."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw, ok := parseReply(tc.text)
			if !ok {
				t.Fatal("nothing read")
			}
			if got := finish(raw); got.DiscordUsername != want.DiscordUsername || got.Level != want.Level ||
				got.Kills != want.Kills || got.Deaths != want.Deaths || got.KDRatio != want.KDRatio ||
				got.SkID != want.SkID || got.TotalGames != want.TotalGames {
				t.Fatalf("got %+v\nwant %+v", got, want)
			}
		})
	}
	// The game's Stats panel: "Bots Kills" and "Wins" are neither kills nor
	// games, and nothing missing is made up from the rest.
	t.Run("BotsKillsAreNotKills", func(t *testing.T) {
		for _, text := range []string{
			"Bots Kills: 737, Kills: 13,438, Deaths: 8,399, KDR: 1.60, Wins: 925",
			"Kills 13438 / Bots Kills 737 / Deaths 8399 / KDR 1.60 / Wins 925",
			"They have 737 bots kills, 13,438 kills and 8,399 deaths; KDR 1.60 with 925 wins.",
			`{"kills": 13438, "botsKills": 737, "deaths": 8399, "kd": 1.6, "wins": 925, "gamesPlayed": null}`,
		} {
			raw, ok := parseReply(text)
			got := finish(raw)
			if !ok || got.Kills != "13438" || got.BotsKills != "737" || got.Deaths != "8399" || got.KDRatio != "1.60" ||
				got.Wins != "925" || got.TotalGames != "" {
				t.Errorf("%q: got %+v", text, got)
			}
		}
	})
	t.Run("NothingDerived", func(t *testing.T) {
		raw, _ := parseReply(`{"kills": 3120, "kd": 2.0}`)
		if r := finish(raw).reading(); r.Has(core.FieldDeaths) {
			t.Fatalf("deaths made up from kills and K/D: %d", r.Deaths)
		}
	})
	t.Run("ErrEmptyReply", func(t *testing.T) {
		if _, ok := parseReply(""); ok {
			t.Fatal("read something from nothing")
		}
	})
	t.Run("DefaultsOfTheSeedForWhatWasNotRead", func(t *testing.T) {
		s := raw{Kills: "10"}.reading().Extracted(nil)
		if s.DiscordUsername != "Player" || s.Level != "1" || s.Deaths != "0" || s.SkID != "N/A" || s.TotalGames != "0" || s.Kills != "10" {
			t.Fatalf("%+v", s)
		}
	})
}

package core

import (
	"testing"

	"github.com/pitlane/pitlane/internal/errs"
)

func TestDeriveKillsDeaths(t *testing.T) {
	tests := []struct {
		kd          float64
		games, k, d int
	}{
		{2, 300, 200, 100}, // round(2*300/3) = 200
		{1, 101, 51, 50},   // round(50.5) = 51
		{0, 40, 0, 40},
		{1.52, 2383, 1437, 946}, // 3622.16 / 2.52 = 1437.4
	}
	for _, tc := range tests {
		if k, d := DeriveKillsDeaths(tc.kd, tc.games); k != tc.k || d != tc.d {
			t.Errorf("DeriveKillsDeaths(%v, %d) = %d, %d; want %d, %d", tc.kd, tc.games, k, d, tc.k, tc.d)
		}
	}
}

func TestKD(t *testing.T) {
	if KD(900, 450) != 2 || KD(5, 0) != 5 || KD(1, 3) != 0.33 {
		t.Fatal(KD(900, 450), KD(5, 0), KD(1, 3))
	}
}

func TestNormalizeSkID(t *testing.T) {
	for in, want := range map[string]string{"#12345": "12345", " 42 ": "42", "N/A": "", "n/a": "", "": ""} {
		if got := NormalizeSkID(in); got != want {
			t.Errorf("NormalizeSkID(%q) = %q, want %q", in, got, want)
		}
	}
}

// One set of limits for every way a record is made: what a real player can
// reach passes, and a screen with no deaths shows the kills as the K/D.
func TestStatsValidate(t *testing.T) {
	ok := Stats{Level: 45, Kills: 13438, Deaths: 8390, GamesPlayed: 3500, KD: 1.60, Category: 2}
	tests := []struct {
		name string
		edit func(*Stats)
		ok   bool
	}{
		{"OKRealPlayer", func(*Stats) {}, true},
		{"OKNoDeathsKDIsKills", func(s *Stats) { s.Kills, s.Deaths, s.KD = 1500, 0, 1500 }, true},
		{"OKKDOnly", func(s *Stats) { s.Kills, s.Deaths, s.KD = 0, 0, 2.5 }, true},
		{"OKTruncatedKD", func(s *Stats) { s.KD = 1.61 }, true},
		{"ErrKDDisagrees", func(s *Stats) { s.KD = 0.09 }, false},
		{"ErrLevelTooHigh", func(s *Stats) { s.Level = MaxLevel + 1 }, false},
		{"ErrNegativeKills", func(s *Stats) { s.Kills = -1 }, false},
		{"ErrCountTooHigh", func(s *Stats) { s.GamesPlayed = MaxCount + 1 }, false},
		{"ErrCategory", func(s *Stats) { s.Category = 5 }, false},
		{"ErrSkIDPunctuation", func(s *Stats) { s.SkID = "12 34" }, false},
		{"ErrNameControl", func(s *Stats) { s.PlayerName = "ace\x07" }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := ok
			tc.edit(&s)
			err := s.Validate()
			if tc.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !tc.ok && errs.KindOf(err) != errs.Invalid {
				t.Fatalf("accepted %+v (%v)", s, err)
			}
		})
	}
}

// A reading the reader's checks pass is always one the save accepts: the
// two share their limits, so a "successful" read never ends in a 400.
func TestReadingThatPassesCheckSaves(t *testing.T) {
	readings := []Reading{}
	for _, c := range []struct{ level, kills, deaths, games int }{
		{45, 13438, 8390, 3500}, {1, 1500, 0, 20}, {10_000, MaxCount, 1, MaxCount}, {0, 0, 0, 0}, {300, 7, 9, 16},
	} {
		var r Reading
		r.Set(FieldLevel, c.level)
		r.Set(FieldKills, c.kills)
		r.Set(FieldDeaths, c.deaths)
		r.Set(FieldGames, c.games)
		r.SetKD(KD(c.kills, c.deaths))
		readings = append(readings, r)
	}
	for _, r := range readings {
		r.Check()
		if !r.Sure() {
			t.Fatalf("%+v doubted: %v", r, r.Doubt)
		}
		s := r.Stats()
		s.Category = 1
		if err := s.Validate(); err != nil {
			t.Fatalf("%+v passed the reader's checks but not the save: %v", r, err)
		}
	}
}

func TestReadingCheck(t *testing.T) {
	t.Run("KDThatIsNotKillsOverDeathsIsDoubtful", func(t *testing.T) {
		var r Reading
		r.Set(FieldKills, 737)
		r.Set(FieldDeaths, 8390)
		r.SetKD(1.60)
		r.Check()
		if r.Doubt[FieldKD] == "" || r.Doubt[FieldKills] == "" {
			t.Fatalf("doubts %v", r.Doubt)
		}
	})
	t.Run("MoreWinsThanGamesIsDoubtful", func(t *testing.T) {
		var r Reading
		r.Set(FieldWins, 900)
		r.Set(FieldGames, 800)
		r.Check()
		if r.Doubt[FieldWins] == "" || r.Sure() {
			t.Fatalf("doubts %v", r.Doubt)
		}
	})
	t.Run("ADoubtOnWinsDoesNotHoldTheStatsBack", func(t *testing.T) {
		// Wins and bots' kills are shown beside the stats, never saved.
		var r Reading
		r.Set(FieldKills, 10)
		r.Set(FieldWins, 3)
		r.Doubts(FieldWins, "hard to read on the screenshot")
		r.Doubts(FieldBotsKills, "hard to read on the screenshot")
		r.Check()
		if !r.Sure() {
			t.Fatalf("doubts %v held the stats back", r.Doubt)
		}
	})
	t.Run("MissingFieldsAreNotDoubts", func(t *testing.T) {
		var r Reading
		r.Set(FieldKills, 10)
		r.Check()
		e := r.Extracted(nil)
		if !r.Sure() || e.TotalGames != "0" || e.SkID != "N/A" || e.DiscordUsername != "Player" {
			t.Fatalf("%v %+v", r.Doubt, e)
		}
	})
}

func TestTierOf(t *testing.T) {
	tests := []struct {
		kd    float64
		games int
		tier  int
	}{
		{3.1, 900, 1}, {2.5, 500, 1}, {2.6, 499, 2}, {1.8, 200, 2}, {2.2, 150, 3}, {1.2, 50, 3},
		{1.19, 5000, 4}, {9, 10, 4}, {0, 0, 4},
	}
	for _, tc := range tests {
		if got := TierOf(Stats{KD: tc.kd, GamesPlayed: tc.games}); got != tc.tier {
			t.Errorf("K/D %.2f over %d games: tier %d, want %d", tc.kd, tc.games, got, tc.tier)
		}
	}
}

func TestCountSaysOneThingInTheSingular(t *testing.T) {
	for n, want := range map[int]string{0: "0 titles", 1: "1 title", 28: "28 titles"} {
		if got := Count(n, "title", "titles"); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
}

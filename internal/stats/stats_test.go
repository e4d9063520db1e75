package stats

import "testing"

func TestRecordRules(t *testing.T) {
	t.Run("KDFromKillsAndDeaths", func(t *testing.T) {
		r, err := SaveInput{Kills: 300, Deaths: 200, Category: 1}.Record(false)
		if err != nil || r.KD != 1.5 || r.PreferredRole != "Player" {
			t.Fatalf("%+v %v", r, err)
		}
	})
	t.Run("CategoryIsTheTierOfTheStats", func(t *testing.T) {
		// The seed's client sends a random category; the server's tier wins.
		r, err := SaveInput{Kills: 3000, Deaths: 1000, GamesPlayed: 800, Category: 4}.Record(false)
		if err != nil || r.Category != 1 {
			t.Fatalf("%+v %v", r, err)
		}
		if r, _ := (SaveInput{}).Record(false); r.Category != 4 {
			t.Fatalf("no stats: tier %d, want 4", r.Category)
		}
	})
	t.Run("ErrNegative", func(t *testing.T) {
		if _, err := (SaveInput{Deaths: -1, Category: 1}).Record(false); err == nil {
			t.Fatal("accepted negative deaths")
		}
	})
}

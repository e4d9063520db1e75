package stats

import "testing"

func TestRecordRules(t *testing.T) {
	t.Run("KDFromKillsAndDeaths", func(t *testing.T) {
		r, err := SaveInput{Kills: 300, Deaths: 200, Category: 1}.Record(false)
		if err != nil || r.KD != 1.5 || r.PreferredRole != "Player" {
			t.Fatalf("%+v %v", r, err)
		}
	})
	t.Run("RandomCategoryOneToFour", func(t *testing.T) {
		seen := map[int]bool{}
		for i := 0; i < 200; i++ {
			r, _ := SaveInput{}.Record(false)
			seen[r.Category] = true
		}
		if len(seen) != 4 || !seen[1] || !seen[4] {
			t.Fatalf("categories %v", seen)
		}
	})
	t.Run("ErrNegative", func(t *testing.T) {
		if _, err := (SaveInput{Deaths: -1, Category: 1}).Record(false); err == nil {
			t.Fatal("accepted negative deaths")
		}
	})
}

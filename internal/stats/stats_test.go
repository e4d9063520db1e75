package stats

import "testing"

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

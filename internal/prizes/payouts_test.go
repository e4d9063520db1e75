package prizes

import (
	"math/rand/v2"
	"testing"
	"testing/quick"
)

// Whatever the pool, the teams placed and their sizes, and however a
// team's share is paid, the payouts add up to the pool exactly, none is
// zero, and a team's members' shares differ by at most one cent.
func TestPayoutsAddUpToThePool(t *testing.T) {
	check := func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, 3))
		p := Pool{Currency: "EUR", TeamShare: []string{ShareEven, ShareCaptain}[r.IntN(2)]}
		prev := int64(r.Int64N(1_000_000) + 1)
		for range r.IntN(8) {
			prev = r.Int64N(prev) + 1
			p.Split = append(p.Split, prev)
		}
		for i := range r.IntN(3) {
			p.Awards = append(p.Awards, Award{Name: []string{"Red Cap", "MVP", "Best Kart"}[i], Amount: r.Int64N(10000) + 1})
		}
		var placed []Placed
		user := int64(1)
		for range r.IntN(10) {
			pl := Placed{Team: "T"}
			for range r.IntN(6) {
				pl.Members = append(pl.Members, user)
				user++
			}
			if len(pl.Members) > 0 {
				pl.Captain = pl.Members[0]
			}
			placed = append(placed, pl)
		}
		list := Allocate(p, placed, 0)
		var sum int64
		shares := map[int][]int64{}
		for _, o := range list {
			if o.Amount <= 0 || o.Currency != "EUR" || o.State != PayoutPending {
				t.Errorf("seed %d: payout %+v", seed, o)
				return false
			}
			sum += o.Amount
			if o.Place > 0 {
				shares[o.Place] = append(shares[o.Place], o.Amount)
			}
		}
		if sum != p.Total() {
			t.Errorf("seed %d: payouts add up to %d, the pool is %d", seed, sum, p.Total())
			return false
		}
		for place, s := range shares {
			lo, hi := s[0], s[0]
			for _, v := range s {
				lo, hi = min(lo, v), max(hi, v)
			}
			if hi-lo > 1 {
				t.Errorf("seed %d: place %d's shares %v", seed, place, s)
				return false
			}
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 500}); err != nil {
		t.Fatal(err)
	}
}

func TestAllocateByTheRules(t *testing.T) {
	p := Pool{Currency: "EUR", Split: []int64{1000, 500}, Awards: []Award{{Name: "Red Cap", Amount: 300}, {Name: "MVP", Amount: 200}}, TeamShare: ShareEven}
	placed := []Placed{{Team: "A", Captain: 1, Members: []int64{1, 2, 3}}}
	list := Allocate(p, placed, 9)
	want := []Payout{
		{Label: "1st", Place: 1, Team: "A", UserID: 1, Amount: 334}, {Label: "1st", Place: 1, Team: "A", UserID: 2, Amount: 333},
		{Label: "1st", Place: 1, Team: "A", UserID: 3, Amount: 333}, {Label: "2nd", Place: 2, Amount: 500},
		{Label: "Red Cap", UserID: 9, Amount: 300}, {Label: "MVP", Amount: 200},
	}
	if len(list) != len(want) {
		t.Fatalf("%+v", list)
	}
	for i, w := range want {
		g := list[i]
		if g.Label != w.Label || g.Place != w.Place || g.Team != w.Team || g.UserID != w.UserID || g.Amount != w.Amount {
			t.Errorf("payout %d: %+v, want %+v", i, g, w)
		}
	}
	p.TeamShare = ShareCaptain
	if l := Allocate(p, placed, 9); l[0].UserID != 1 || l[0].Amount != 1000 || l[1].Label != "2nd" {
		t.Errorf("to the captain: %+v", l)
	}
}

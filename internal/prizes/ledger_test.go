package prizes

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"testing/quick"
)

// step is one attempted movement, drawn at random.
type step struct {
	Kind, Source string
	Amount       int64
}

var kinds = []string{KindFunding, KindFunding, KindRefund, KindPayout, KindFee, "gift"}
var sources = append([]string{""}, Sources...)

func randomSteps(r *rand.Rand, n int) []step {
	steps := make([]step, n)
	for i := range steps {
		amount := r.Int64N(5000) + 1
		switch r.IntN(20) {
		case 0:
			amount = 0
		case 1:
			amount = -amount
		case 2:
			amount = MaxAmount - r.Int64N(3)
		}
		steps[i] = step{kinds[r.IntN(len(kinds))], sources[r.IntN(len(sources))], amount}
	}
	return steps
}

// Whatever is attempted, in whatever order, the ledger's sums agree: the
// balance is the signed sum of the entries taken and never below zero, no
// source gets back more than it put in, the balance is net funding less
// payouts and fees, a refused entry changes nothing, and the stored ledger
// read back gives the same sums.
func TestLedgerSumsAlwaysAgree(t *testing.T) {
	check := func(seed uint64, n uint8) bool {
		r := rand.New(rand.NewPCG(seed, 56))
		l, _ := NewLedger("EUR", nil)
		var signed int64
		for i, s := range randomSteps(r, int(n)) {
			before, taken := l.Totals(), len(l.Entries)
			e := Entry{Kind: s.Kind, Source: s.Source, Amount: s.Amount}
			if err := l.Append(&e); err != nil {
				if !reflect.DeepEqual(before, l.Totals()) || len(l.Entries) != taken {
					t.Errorf("seed %d step %d: a refused entry changed the sums", seed, i)
					return false
				}
				continue
			}
			signed += e.signed()
			tot := l.Totals()
			if tot.Balance != signed || e.Balance != signed || tot.Balance < 0 {
				t.Errorf("seed %d step %d: balance %d, entry says %d, signed sum %d", seed, i, tot.Balance, e.Balance, signed)
				return false
			}
			if tot.Balance != tot.NetFunding()-tot.PaidOut-tot.Fees {
				t.Errorf("seed %d step %d: balance %d ≠ net funding %d − paid out %d − fees %d", seed, i, tot.Balance, tot.NetFunding(), tot.PaidOut, tot.Fees)
				return false
			}
			for _, src := range Sources {
				if tot.Refunded[src] > tot.Funded[src] || (!refundable[src] && tot.Refunded[src] != 0) {
					t.Errorf("seed %d step %d: %s refunded %d of %d", seed, i, src, tot.Refunded[src], tot.Funded[src])
					return false
				}
			}
		}
		again, err := NewLedger("EUR", l.Entries)
		if err != nil || !reflect.DeepEqual(again.Totals(), l.Totals()) {
			t.Errorf("seed %d: the ledger read back: %v, %+v vs %+v", seed, err, again, l.Totals())
			return false
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 500}); err != nil {
		t.Fatal(err)
	}
}

// A stored ledger whose written balance disagrees with its sums, or that
// pays out what it never held, is refused when read.
func TestLedgerReadBackRefusesTampering(t *testing.T) {
	good := []Entry{
		{ID: 1, Kind: KindFunding, Source: SourceOrganiser, Amount: 10000, Balance: 10000, Currency: "EUR"},
		{ID: 2, Kind: KindPayout, Amount: 6000, Balance: 4000, Currency: "EUR"},
	}
	if _, err := NewLedger("EUR", good); err != nil {
		t.Fatalf("a sound ledger: %v", err)
	}
	for name, bad := range map[string][]Entry{
		"WrongBalance":      {good[0], {ID: 2, Kind: KindPayout, Amount: 6000, Balance: 5000, Currency: "EUR"}},
		"Overdrawn":         {good[0], {ID: 2, Kind: KindPayout, Amount: 16000, Balance: -6000, Currency: "EUR"}},
		"OtherCurrency":     {good[0], {ID: 2, Kind: KindPayout, Amount: 6000, Balance: 4000, Currency: "USD"}},
		"RefundOfOrganiser": {good[0], {ID: 2, Kind: KindRefund, Source: SourceOrganiser, Amount: 1, Balance: 9999, Currency: "EUR"}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := NewLedger("EUR", bad); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

func TestMoneyString(t *testing.T) {
	for _, c := range []struct {
		m    Money
		want string
	}{
		{Money{1250, "EUR"}, "12.50 EUR"},
		{Money{5, "USD"}, "0.05 USD"},
		{Money{-105, "GBP"}, "-1.05 GBP"},
		{Money{1500, "JPY"}, "1500 JPY"},
		{Money{1234, "KWD"}, "1.234 KWD"},
	} {
		if got := c.m.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.m, got, c.want)
		}
	}
	if _, err := (Money{MaxAmount, "EUR"}).Add(Money{1, "EUR"}); err == nil {
		t.Error("a sum past MaxAmount was taken")
	}
	if _, err := (Money{1, "EUR"}).Add(Money{1, "USD"}); err == nil {
		t.Error("euros and dollars were added")
	}
}

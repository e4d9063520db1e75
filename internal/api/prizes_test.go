package api_test

import (
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// A season's organiser sets its prize pool and records its funding; anyone
// reads it, with what is unfunded, and the ledger's sums agree; players may
// not set it, the currency stays once money moved, and every change is
// audited.
func TestPrizePool(t *testing.T) {
	s, login := leagueServerOf(t, "registration", demo.Options{Players: 12, Password: testkit.Password, PlayersSignIn: true}, nil)
	admin, player := login(demo.AdminEmail), login("player001@demo.pitlane.local")

	if r := s.Do(t, "GET", "/api/tournaments/PPL7/prizes", "", nil); r.Status != 404 {
		t.Fatalf("no pool yet: %d %s", r.Status, r.Body)
	}
	pool := map[string]any{"currency": "eur", "split": []int{50000, 25000, 10000},
		"awards": []map[string]any{{"name": "Red Cap", "amount": 5000}, {"name": "MVP", "amount": 5000}}}
	t.Run("ErrPlayersDoNotSetPrizes", func(t *testing.T) {
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/prizes", player, pool); r.Status != 403 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		for name, bad := range map[string]map[string]any{
			"UnknownCurrency":  {"currency": "XYZ", "split": []int{100}},
			"Fraction":         {"currency": "EUR", "split": []any{100.5}},
			"SecondAboveFirst": {"currency": "EUR", "split": []int{100, 200}},
			"ZeroPrize":        {"currency": "EUR", "split": []int{0}},
			"NamelessAward":    {"currency": "EUR", "awards": []map[string]any{{"name": " ", "amount": 5}}},
			"TwinAwards":       {"currency": "EUR", "awards": []map[string]any{{"name": "MVP", "amount": 5}, {"name": "mvp", "amount": 5}}},
		} {
			if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/prizes", admin, bad); r.Status != 400 {
				t.Errorf("%s: %d %s", name, r.Status, r.Body)
			}
		}
	})
	r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/prizes", admin, pool)
	if r.Status != 200 || r.JSON["currency"] != "EUR" || r.JSON["pool"] != float64(95000) || r.JSON["exponent"] != float64(2) {
		t.Fatalf("set: %d %s", r.Status, r.Body)
	}
	for _, f := range []map[string]any{{"source": "organiser", "amount": 40000}, {"source": "sponsor", "amount": 30000, "note": "Kart Co pledge"}} {
		if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/prizes/funding", admin, f); r.Status != 201 {
			t.Fatalf("fund %v: %d %s", f, r.Status, r.Body)
		}
	}
	t.Run("ErrEntryFeesAreNotRecordedByHand", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/prizes/funding", admin, map[string]any{"source": "entry_fee", "amount": 100}); r.Status != 400 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	got := s.Do(t, "GET", "/api/tournaments/PPL7/prizes", "", nil)
	funding := got.JSON["funding"].(map[string]any)
	ledger := got.JSON["ledger"].(map[string]any)
	if got.Status != 200 || funding["total"] != float64(70000) || funding["unfunded"] != float64(25000) ||
		funding["sources"].(map[string]any)["sponsor"] != float64(30000) || ledger["balance"] != float64(70000) {
		t.Fatalf("public prizes: %d %s", got.Status, got.Body)
	}
	if strings.Contains(string(got.Body), "@") || strings.Contains(string(got.Body), "user_id") {
		t.Fatalf("personal data in the public prizes: %s", got.Body)
	}
	t.Run("ErrCurrencyFixedOnceMoneyMoved", func(t *testing.T) {
		pool["currency"] = "USD"
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/prizes", admin, pool); r.Status != 409 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	audit := s.Do(t, "GET", "/api/admin/audit?tournament=PPL7", admin, nil)
	if !strings.Contains(string(audit.Body), `"action":"prizes.set"`) || strings.Count(string(audit.Body), `"action":"prizes.fund"`) != 2 {
		t.Fatalf("audit: %s", audit.Body)
	}
}

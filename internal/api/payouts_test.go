package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// When a season completes its pool becomes payouts, the champion's share
// split evenly among its members, the Red Cap's to the top killer; they add
// up to the pool. The organiser records each payment (a ledger entry), the
// winner confirms receipt, each step only from the state before it, by
// whom it belongs to, and audited; the pool is then fixed.
func TestPayoutsOfACompletedSeason(t *testing.T) {
	s, login := leagueServerOf(t, "completed", demo.Options{Players: 60, Captains: true, Password: testkit.Password, PlayersSignIn: true}, nil)
	admin := login(demo.AdminEmail)
	pool := map[string]any{"currency": "EUR", "split": []int{60001, 30000, 9999},
		"awards": []map[string]any{{"name": "Red Cap", "amount": 3000}, {"name": "MVP", "amount": 2000}}}
	if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/prizes", admin, pool); r.Status != 200 {
		t.Fatalf("set: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", "/api/admin/tournaments/PPL7/prizes/funding", admin, map[string]any{"source": "organiser", "amount": 105000}); r.Status != 201 {
		t.Fatalf("fund: %d %s", r.Status, r.Body)
	}
	r := s.Do(t, "GET", "/api/admin/tournaments/PPL7/payouts", admin, nil)
	if r.Status != 200 {
		t.Fatalf("payouts: %d %s", r.Status, r.Body)
	}
	type payout struct {
		id, user     int64
		label, state string
		amount       int64
	}
	var list []payout
	var sum int64
	for _, x := range r.JSON["payouts"].([]any) {
		m := x.(map[string]any)
		p := payout{id: int64(m["id"].(float64)), label: m["label"].(string), state: m["state"].(string), amount: int64(m["amount"].(float64))}
		if u, ok := m["user_id"].(float64); ok {
			p.user = int64(u)
		}
		list = append(list, p)
		sum += p.amount
	}
	if sum != 105000 {
		t.Fatalf("the payouts add up to %d, the pool is 105000: %s", sum, r.Body)
	}
	var first payout
	winners := 0
	for _, p := range list {
		if p.label == "1st" {
			winners++
			if first.id == 0 {
				first = p
			}
		}
	}
	if winners < 2 || first.user == 0 || first.state != "pending" {
		t.Fatalf("the champion's shares: %s", r.Body)
	}
	var email string
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT email FROM users WHERE id = $1`, first.user).Scan(&email); err != nil {
		t.Fatal(err)
	}
	winner, other := login(email), login("player059@demo.pitlane.local")
	received := fmt.Sprintf("/api/me/payouts/%d/received", first.id)
	paid := fmt.Sprintf("/api/admin/payouts/%d/paid", first.id)

	t.Run("ErrReceivedBeforePaid", func(t *testing.T) {
		if r := s.Do(t, "POST", received, winner, nil); r.Status != 409 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrPlayersDoNotMarkPaid", func(t *testing.T) {
		if r := s.Do(t, "POST", paid, winner, map[string]string{"method": "PayPal", "reference": "x"}); r.Status != 403 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	if r := s.Do(t, "POST", paid, admin, map[string]string{"method": "PayPal", "reference": "5TY12345"}); r.Status != 200 || r.JSON["state"] != "paid" {
		t.Fatalf("paid: %d %s", r.Status, r.Body)
	}
	t.Run("ErrPaidTwice", func(t *testing.T) {
		if r := s.Do(t, "POST", paid, admin, map[string]string{"method": "PayPal", "reference": "again"}); r.Status != 409 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrSomeoneElsesPayout", func(t *testing.T) {
		if r := s.Do(t, "POST", received, other, nil); r.Status != 404 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	if r := s.Do(t, "POST", received, winner, nil); r.Status != 200 || r.JSON["state"] != "received" {
		t.Fatalf("received: %d %s", r.Status, r.Body)
	}
	pub := s.Do(t, "GET", "/api/tournaments/PPL7/prizes", "", nil)
	ledger := pub.JSON["ledger"].(map[string]any)
	if ledger["paid_out"] != float64(first.amount) || ledger["balance"] != float64(105000-first.amount) ||
		!strings.Contains(string(pub.Body), `"state":"received"`) || strings.Contains(string(pub.Body), "user_id") {
		t.Fatalf("public prizes: %s", pub.Body)
	}
	t.Run("ErrPoolFixedOncePaidOut", func(t *testing.T) {
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/prizes", admin, pool); r.Status != 409 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	audit := string(s.Do(t, "GET", "/api/admin/audit?tournament=PPL7", admin, nil).Body)
	for _, a := range []string{"payouts.made", "payout.paid", "payout.received"} {
		if !strings.Contains(audit, `"action":"`+a+`"`) {
			t.Errorf("%s not audited", a)
		}
	}
}

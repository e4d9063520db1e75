package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

const webhookSecret = "whsec_pitlane_test"

// feeSeason is a server whose Stripe is stripe-mock, with a new season
// PPL8 of one place and a €5.00 entry fee.
func feeSeason(t *testing.T, hold time.Duration) (*testkit.Server, func(string) string, string) {
	mock := testkit.StripeMock(t)
	s, login := leagueServerOf(t, "registration", demo.Options{Players: 12, Password: testkit.Password, PlayersSignIn: true},
		func(c *config.Config) {
			c.StripeSecretKey, c.StripeWebhookSecret, c.StripeAPIURL = "sk_test_pitlane", webhookSecret, mock
			c.EntryFeeHold = hold
		})
	admin := login(demo.AdminEmail)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/admin/tournaments", map[string]any{"name": "PPL8", "season": 8}},
		{"PUT", "/api/admin/tournaments/PPL8/cap", map[string]int{"cap": 1}},
		{"PUT", "/api/admin/tournaments/PPL8/prizes", map[string]any{"currency": "EUR", "split": []int{10000}, "entry_fee": 500}},
	} {
		if r := s.Do(t, c.method, c.path, admin, c.body); r.Status >= 300 {
			t.Fatalf("%s %s: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}
	return s, login, admin
}

// event is a Stripe event about object, signed as Stripe signs it (or with
// another secret).
func event(t *testing.T, s *testkit.Server, id, typ string, object map[string]any, secret string) *testkit.Resp {
	t.Helper()
	return eventAt(t, s, id, typ, object, secret, time.Now())
}

// eventAt is event signed at a given time (Stripe's t= in the signature).
func eventAt(t *testing.T, s *testkit.Server, id, typ string, object map[string]any, secret string, at time.Time) *testkit.Resp {
	t.Helper()
	payload, _ := json.Marshal(map[string]any{"id": id, "object": "event", "api_version": stripe.APIVersion, "type": typ,
		"created": at.Unix(), "data": map[string]any{"object": object}})
	signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at})
	req, _ := http.NewRequest("POST", s.URL+"/api/webhooks/stripe", bytes.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Stripe-Signature", signed.Header)
	return s.Send(t, req)
}

func register(t *testing.T, s *testkit.Server, token string) *testkit.Resp {
	t.Helper()
	return s.Do(t, "POST", "/api/tournament/register", token, map[string]string{"tournamentName": "PPL8"})
}

func payment(t *testing.T, s *testkit.Server, token string) string {
	t.Helper()
	r := s.Do(t, "GET", "/api/tournament/status?tournamentName=PPL8", token, nil)
	p, _ := r.JSON["payment"].(string)
	return p
}

func sessionOf(t *testing.T, s *testkit.Server, email string) (session string) {
	t.Helper()
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT coalesce(p.checkout_session, '') FROM registration_payments p
		JOIN users u ON u.id = p.user_id WHERE u.email = $1 ORDER BY p.id DESC LIMIT 1`, email).Scan(&session); err != nil {
		t.Fatal(err)
	}
	return session
}

// A season with an entry fee: the registered player's place is held
// pending payment; Stripe's signed checkout.session.completed confirms it
// (the amount ours, not the event's), and the same event again changes
// nothing; a wrong signature is refused; a refund for a payment we do not
// know, or a completed checkout after its refund, changes nothing; a
// withdrawal before the deadline refunds through Stripe, audited, and the
// ledger agrees.
func TestEntryFeePaidOnceAndRefunded(t *testing.T) {
	s, login, admin := feeSeason(t, 0)
	email := "player001@demo.pitlane.local"
	player := login(email)

	r := register(t, s, player)
	if r.Status != 200 || r.JSON["status"] != "confirmed" || r.JSON["payment"] != "pending" {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	co := s.Do(t, "POST", "/api/tournaments/PPL8/payments/checkout", player, nil)
	url, _ := co.JSON["url"].(string)
	if co.Status != 200 || !strings.HasPrefix(url, "https://") {
		t.Fatalf("checkout: %d %s", co.Status, co.Body)
	}
	session := sessionOf(t, s, email)
	completed := map[string]any{"id": session, "object": "checkout.session", "payment_intent": "pi_pitlane_1", "amount_total": 1}

	t.Run("ErrWrongSignature", func(t *testing.T) {
		if r := event(t, s, "evt_forged", "checkout.session.completed", completed, "whsec_someone_else"); r.Status != 400 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if p := payment(t, s, player); p != "pending" {
			t.Fatalf("a forged event paid: %s", p)
		}
	})
	t.Run("ErrStaleTimestamp", func(t *testing.T) {
		// Rightly signed but ten minutes old: past the five minutes' tolerance, a replay.
		if r := eventAt(t, s, "evt_stale", "checkout.session.completed", completed, webhookSecret, time.Now().Add(-10*time.Minute)); r.Status != 400 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if p := payment(t, s, player); p != "pending" {
			t.Fatalf("a stale event paid: %s", p)
		}
	})
	t.Run("RefundOfAnUnknownPaymentChangesNothing", func(t *testing.T) {
		r := event(t, s, "evt_early_refund", "charge.refunded", map[string]any{"id": "ch_1", "object": "charge", "payment_intent": "pi_unknown"}, webhookSecret)
		if r.Status != 200 || payment(t, s, player) != "pending" {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	if r := event(t, s, "evt_paid", "checkout.session.completed", completed, webhookSecret); r.Status != 200 {
		t.Fatalf("webhook: %d %s", r.Status, r.Body)
	}
	if p := payment(t, s, player); p != "paid" {
		t.Fatalf("after the webhook: %s", p)
	}
	ledger := func() map[string]any {
		return s.Do(t, "GET", "/api/tournaments/PPL8/prizes", "", nil).JSON["ledger"].(map[string]any)
	}
	if l := ledger(); l["balance"] != float64(500) {
		t.Fatalf("the fee in the ledger (ours, not the event's 1): %v", l)
	}
	t.Run("ReplayChangesNothing", func(t *testing.T) {
		for range 2 {
			if r := event(t, s, "evt_paid", "checkout.session.completed", completed, webhookSecret); r.Status != 200 {
				t.Fatalf("%d %s", r.Status, r.Body)
			}
		}
		if l := ledger(); l["balance"] != float64(500) {
			t.Fatalf("a replay counted the fee again: %v", l)
		}
	})

	if r := s.Do(t, "POST", "/api/tournament/unregister", player, map[string]string{"tournamentName": "PPL8"}); r.Status != 200 || r.JSON["payment"] != "refunded" {
		t.Fatalf("withdraw: %d %s", r.Status, r.Body)
	}
	l := ledger()
	if l["balance"] != float64(0) || l["refunded"].(map[string]any)["entry_fee"] != float64(500) {
		t.Fatalf("after the refund: %v", l)
	}
	t.Run("CompletedAfterRefundChangesNothing", func(t *testing.T) {
		if r := event(t, s, "evt_paid_late_copy", "checkout.session.completed", completed, webhookSecret); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if p := payment(t, s, player); p != "refunded" {
			t.Fatalf("%s", p)
		}
		if l := ledger(); l["balance"] != float64(0) {
			t.Fatalf("%v", l)
		}
	})
	audit := s.Do(t, "GET", "/api/admin/audit?tournament=PPL8", admin, nil)
	if !strings.Contains(string(audit.Body), `"action":"payment.paid"`) || !strings.Contains(string(audit.Body), `"action":"payment.refunded"`) {
		t.Fatalf("audit: %s", audit.Body)
	}
}

// Unpaid at the hold's end, the place goes to the first on the waitlist,
// who is then asked the fee in turn.
func TestUnpaidHoldGoesToTheWaitlist(t *testing.T) {
	s, login, _ := feeSeason(t, 3*time.Second)
	first, second := login("player001@demo.pitlane.local"), login("player002@demo.pitlane.local")
	if r := register(t, s, first); r.JSON["payment"] != "pending" {
		t.Fatalf("first: %d %s", r.Status, r.Body)
	}
	if r := register(t, s, second); r.JSON["status"] != "waitlisted" || r.JSON["payment"] != "none" {
		t.Fatalf("second: %d %s", r.Status, r.Body)
	}
	var st map[string]any
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(300 * time.Millisecond) {
		st = s.Do(t, "GET", "/api/tournament/status?tournamentName=PPL8", second, nil).JSON
		if st["status"] == "confirmed" && st["payment"] == "pending" {
			break
		}
	}
	if st["status"] != "confirmed" || st["payment"] != "pending" {
		t.Fatalf("the waiting player after the hold: %v", st)
	}
	if r := s.Do(t, "GET", "/api/tournament/status?tournamentName=PPL8", first, nil); r.JSON["registered"] != false {
		t.Fatalf("the unpaid player kept the place: %s", r.Body)
	}
}

// Without Stripe's keys nothing asks for money.
func TestNoStripeNoFees(t *testing.T) {
	s, login := leagueServerOf(t, "registration", demo.Options{Players: 12, Password: testkit.Password, PlayersSignIn: true}, nil)
	admin, player := login(demo.AdminEmail), login("player001@demo.pitlane.local")
	s.Do(t, "POST", "/api/admin/tournaments", admin, map[string]any{"name": "PPL8", "season": 8})
	s.Do(t, "PUT", "/api/admin/tournaments/PPL8/prizes", admin, map[string]any{"currency": "EUR", "entry_fee": 500})
	if r := register(t, s, player); r.JSON["status"] != "confirmed" || r.JSON["payment"] != "none" {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", "/api/tournaments/PPL8/payments/checkout", player, nil); r.Status != 404 {
		t.Fatalf("checkout: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "GET", "/api/tournaments/PPL8/prizes", "", nil); r.JSON["payments"] != false {
		t.Fatalf("%s", r.Body)
	}
}

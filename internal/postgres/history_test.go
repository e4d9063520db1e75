package postgres_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/tournament"
)

// A card redacted in a kept event reads as its NameOnly: the JSON rule and
// each card type's own agree, so what a client replays is what it would
// read now.
func TestRedactEventIsNameOnly(t *testing.T) {
	img, kart := "/api/images/a1", "/api/images/k1"
	at := time.Date(2026, 11, 1, 20, 0, 0, 0, time.UTC)
	cards := map[string]core.Card{
		"registration": &tournament.Player{ID: 7, Name: "Shy", Image: &img, SID: "31415", KD: 2.5, Kills: 50, Deaths: 20,
			GamesPlayed: 30, Level: 12, Description: "blurb", DiscordID: "shy#1", IsDiscordVerified: true, CartImage: &kart,
			Category: 2, Verified: true, Badges: []tournament.Badge{{ID: 1, Name: "Winner"}}, CreatedAt: at, Status: "confirmed",
			CheckedInAt: &at, Hidden: true},
		"auction":        &auction.PlayerRef{UserID: 7, Name: "Shy", Tier: 2, Image: &img, KD: 2.5, GamesPlayed: 30, Level: 12, Hidden: true},
		"auction roster": &auction.TeamPlayer{UserID: 7, Name: "Shy", Image: &img, Price: 1500, Tier: 2, Hidden: true},
		"captain":        &auction.Captain{UserID: 7, Name: "Shy", Image: &img, Hidden: true},
	}
	for name, card := range cards {
		t.Run(name, func(t *testing.T) {
			whole, _ := json.Marshal(map[string]any{"tournament": "PPL7", "list": []any{card}})
			card.NameOnly()
			want, _ := json.Marshal(map[string]any{"tournament": "PPL7", "list": []any{card}})
			got, changed, err := core.RedactEvent(whole, 7, "")
			if err != nil || !changed {
				t.Fatalf("changed %v, %v", changed, err)
			}
			if !sameJSON(t, got, want) {
				t.Fatalf("redacted:\n got %s\nwant %s", got, want)
			}
			if _, changed, _ := core.RedactEvent(whole, 8, ""); changed {
				t.Fatal("another player's card changed")
			}
		})
	}
	t.Run("ErasedNamesGo", func(t *testing.T) {
		in := `{"message":{"id":7,"author":"Shy","user_id":9,"text":"hi"},"lines":[{"user_id":9,"name":"Shy","kills":3},{"user_id":7,"name":"Shy","kills":4}]}`
		got, _, _ := core.RedactEvent([]byte(in), 9, "Deleted player 9")
		want := `{"message":{"id":7,"author":"Deleted player 9","user_id":9,"text":"hi"},"lines":[{"user_id":9,"name":"Deleted player 9","kills":3},{"user_id":7,"name":"Shy","kills":4}]}`
		if !sameJSON(t, got, []byte(want)) {
			t.Fatalf("got %s", got)
		}
	})
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// keeper records what the live layer is told to forget.
type keeper map[string]int64

func (k keeper) Forget(_ context.Context, topic string, through int64) error {
	k[topic] = through
	return nil
}

// Redacting a player rewrites their cards in the outbox (an erased
// account's own topic goes), and schedules the live layer's forgetting up
// to each topic's seq, done once the events before it are delivered.
func TestHistoryRedact(t *testing.T) {
	db := freshDB(t)
	ctx := context.Background()
	jobs := &scheduled{}
	h := postgres.History{DB: db, Jobs: jobs}
	emit := func(topic string, data any) {
		t.Helper()
		if err := db.Transact(ctx, func(ctx context.Context) error {
			_, err := postgres.Outbox{DB: db}.Emit(ctx, topic, "x", data)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	emit(core.TopicRegistrations, map[string]any{"player": map[string]any{"id": 5, "name": "Shy", "s_id": "31415", "kd": 2}})
	emit(core.TopicRegistrations, map[string]any{"player": map[string]any{"id": 6, "name": "Bold", "s_id": "27182", "kd": 3}})
	emit(core.TopicTeams, map[string]any{"lot": map[string]any{"id": 5, "player": map[string]any{"user_id": 6, "name": "Bold", "kd": 3}}})
	emit(core.UserTopic(5), map[string]any{"reading": "31415"})
	if _, err := db.Pool.Exec(ctx, `UPDATE outbox SET published_at = now()`); err != nil {
		t.Fatal(err)
	}
	emit(core.UserTopic(5), map[string]any{"sessions": []int{1}}) // not delivered yet
	if err := db.Transact(ctx, func(ctx context.Context) error { return h.Redact(ctx, 5, "Deleted player 5") }); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Pool.Query(ctx, `SELECT topic, seq, data::text FROM outbox ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var topic, data string
		var seq int64
		if err := rows.Scan(&topic, &seq, &data); err != nil {
			t.Fatal(err)
		}
		got = append(got, topic+" "+data)
	}
	want := []string{
		`registrations {"player": {"id": 5, "kd": 0, "name": "Deleted player 5", "s_id": "N/A", "hidden": true}}`,
		`registrations {"player": {"id": 6, "kd": 3, "name": "Bold", "s_id": "27182"}}`,
		`teams {"lot": {"id": 5, "player": {"kd": 3, "name": "Bold", "user_id": 6}}}`,
		`user:5 {"sessions": [1]}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("outbox:\n got %q\nwant %q", got, want)
	}
	if len(jobs.got) != 1 {
		t.Fatalf("jobs %v", jobs.got)
	}
	job := jobs.got[0].(postgres.ForgetHistory)
	if w := map[string]int64{"registrations": 2, "teams": 1, "user:5": 2}; !reflect.DeepEqual(job.Through, w) {
		t.Fatalf("forget through %v, want %v", job.Through, w)
	}
	k := keeper{}
	if err := h.ForgetDue(ctx, job, k); err == nil || k["user:5"] != 0 || k["registrations"] != 2 {
		t.Fatalf("with user:5's event undelivered: %v, forgot %v", err, k)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE outbox SET published_at = now()`); err != nil {
		t.Fatal(err)
	}
	if err := h.ForgetDue(ctx, job, k); err != nil || !reflect.DeepEqual(map[string]int64(k), job.Through) {
		t.Fatalf("delivered: %v, forgot %v", err, k)
	}
}

// scheduled is a core.Scheduler that keeps what it is given.
type scheduled struct{ got []core.Job }

func (s *scheduled) Schedule(_ context.Context, job core.Job, _ time.Time) error {
	s.got = append(s.got, job)
	return nil
}

func (s *scheduled) Unschedule(context.Context, string, string, any) error { return nil }

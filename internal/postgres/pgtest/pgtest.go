// Package pgtest gives each test package a fresh, migrated PostgreSQL database
// of its own, so test runs never disturb each other or anyone's data.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/postgres"
)

// AdminURL is the server the test databases are made on: PITLANE_TEST_DATABASE_URL,
// else the local server of the development machine.
func AdminURL() string {
	if u := os.Getenv("PITLANE_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// NewURL creates an empty database and returns its URL and a function that drops it.
func NewURL(ctx context.Context) (string, func(), error) { return newDatabase(ctx, "") }

// newDatabase creates a database (with options such as " TEMPLATE x") and
// returns its name in its URL and a function that drops it.
func newDatabase(ctx context.Context, options string) (string, func(), error) {
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return "", nil, fmt.Errorf("pgtest: connect to %s: %w", AdminURL(), err)
	}
	defer admin.Close(ctx)
	b := make([]byte, 6)
	rand.Read(b)
	name := "pitlane_test_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name+options); err != nil {
		return "", nil, err
	}
	u, _ := url.Parse(AdminURL())
	u.Path = "/" + name
	drop := func() {
		c, err := pgx.Connect(context.Background(), AdminURL())
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	return u.String(), drop, nil
}

var (
	once   sync.Once
	shared *postgres.DB
	url_   string
	setErr error
)

// DB returns the package's migrated database, made on first use. Call Cleanup
// from TestMain (after m.Run) to drop it.
func DB(t testing.TB) *postgres.DB {
	t.Helper()
	once.Do(func() {
		ctx := context.Background()
		var u string
		u, dropFn, err := NewURL(ctx)
		if err != nil {
			setErr = err
			return
		}
		drop = dropFn
		url_ = u
		shared, setErr = postgres.Open(ctx, u)
		if setErr == nil {
			_, setErr = shared.Migrate(ctx)
		}
	})
	if setErr != nil {
		t.Fatalf("pgtest: %v", setErr)
	}
	return shared
}

// URL returns the URL of the package's database (after DB was called).
func URL() string { return url_ }

var drop func()

// Main runs a test package's tests and then drops the databases they made:
// a package whose tests use pgtest has `func TestMain(m *testing.M) { pgtest.Main(m) }`.
func Main(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// Cleanup closes and drops the package's database if one was made.
func Cleanup() {
	if shared != nil {
		shared.Close()
	}
	if drop != nil {
		drop()
	}
	dropTemplates()
}

// Fresh is a migrated database of the test's own, dropped when it ends
// (demo data, say, goes only into an empty database).
func Fresh(t testing.TB) *postgres.DB {
	t.Helper()
	return Copy(t, "migrated", nil)
}

// LeagueTables are the tables a league action may change: a refused action
// must leave every one of them as it was.
var LeagueTables = []string{"tournaments", "registrations", "teams", "team_players", "auction_lots", "auction_bids", "auction_flows",
	"captain_messages", "matches", "match_lineups", "match_lines", "match_proofs", "match_checkins", "substitute_requests",
	"images", "user_badges", "audit_log", "outbox", "event_topics", "fixture_resets", "fixture_reset_matches"}

// Fingerprint sums up the rows of tables as q sees them: two equal
// fingerprints mean nothing in them changed.
func Fingerprint(ctx context.Context, t testing.TB, q postgres.Querier, tables ...string) map[string]string {
	t.Helper()
	// One query for all the tables: a rule test takes thousands of fingerprints.
	parts := make([]string, len(tables))
	for i, table := range tables {
		parts[i] = fmt.Sprintf(`SELECT %d, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM %s x`,
			i, pgx.Identifier{table}.Sanitize())
	}
	rows, err := q.Query(ctx, strings.Join(parts, " UNION ALL "))
	if err != nil {
		t.Fatalf("pgtest: fingerprint of %v: %v", tables, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var i int
		var sum string
		if err := rows.Scan(&i, &sum); err != nil {
			t.Fatalf("pgtest: fingerprint of %v: %v", tables, err)
		}
		out[tables[i]] = sum
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("pgtest: fingerprint of %v: %v", tables, err)
	}
	return out
}

// Changed lists the tables whose sums differ between two fingerprints.
func Changed(before, after map[string]string) []string {
	var out []string
	for table, sum := range before {
		if after[table] != sum {
			out = append(out, table)
		}
	}
	sort.Strings(out)
	return out
}

package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pitlane/pitlane/internal/tournament"
)

// ledger is what a night did, as its answers told it, beside where each
// topic stood when it began: what a backup of the night's database must
// hold. The restore drill (scripts/restore-drill.sh) checks a restored
// copy against it with the night's own consistency check.
type ledger struct {
	DatabaseURL string           `json:"database_url"` // the night's database (with -keep)
	RedisPrefix string           `json:"redis_prefix"` // its Redis keys' (with -keep)
	Topics      []string         `json:"topics"`
	Since       map[string]int64 `json:"since"`
	Bids        []acceptedBid    `json:"bids"`
	Registered  []int64          `json:"registered"`
	Results     []played         `json:"results"`
	Lots        []int64          `json:"lots"`
}

func (n *night) ledger(topics []string, since map[string]int64) ledger {
	n.mu.Lock()
	defer n.mu.Unlock()
	l := ledger{DatabaseURL: n.st.dbURL, RedisPrefix: n.st.prefix, Topics: topics, Since: since, Bids: n.bids, Results: n.results, Lots: n.lots}
	for id := range n.registered {
		l.Registered = append(l.Registered, id)
	}
	return l
}

func writeLedger(path string, l ledger) error {
	b, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// runCheckLeague is "check-league": it serves a database (a restored
// backup) with one `pitlane serve` and runs the night's consistency check
// on it: against a night's ledger when given one, else what holds of any
// league (every lot sold to its highest bid, purses, rosters, each bid with
// its event, each topic's seqs without holes).
func runCheckLeague(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("check-league", flag.ContinueOnError)
	pitlane := fs.String("pitlane", "bin/pitlane", "the pitlane binary that serves the database")
	dbURL := fs.String("database-url", "", "the database to check (a restored backup)")
	ledgerPath := fs.String("ledger", "", "a night's ledger (night -ledger): check the database holds what the night did")
	jsonOut := fs.Bool("json", false, "print the check as JSON")
	fs.StringVar(&season, "season", season, "the season whose auction (and matches, with a ledger) is checked")
	fs.StringVar(&nextSeason, "next-season", nextSeason, "the season whose registrations list is checked")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dbURL == "" {
		return errors.New("check-league: -database-url is required")
	}
	var l ledger
	if *ledgerPath != "" {
		b, err := os.ReadFile(*ledgerPath)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &l); err != nil {
			return fmt.Errorf("%s: %w", *ledgerPath, err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cfg := nightConfig{pitlane: *pitlane, lotSeconds: 20, lateBidSeconds: 10, instances: 1}
	st, err := serveDatabase(ctx, cfg, *dbURL)
	if err != nil {
		return err
	}
	defer st.close(true, false)

	n := &night{cfg: cfg, st: st, registered: map[int64]bool{}, fault: &faultRecord{}}
	if *ledgerPath == "" {
		n.anyLeague = true
		if err := n.wholeLeague(ctx, &l); err != nil {
			return err
		}
	}
	n.bids, n.results, n.lots = l.Bids, l.Results, l.Lots
	for _, id := range l.Registered {
		n.registered[id] = true
	}
	events, err := st.eventsAfter(ctx, l.Topics, l.Since)
	if err != nil {
		return err
	}
	c := n.check(ctx, events, l.Since)
	if *jsonOut {
		b, _ := json.MarshalIndent(c, "", "  ")
		fmt.Println(string(b))
	} else {
		for _, s := range c.Checked {
			fmt.Println("checked:", s)
		}
		for _, p := range c.Problems {
			fmt.Println("PROBLEM:", p)
		}
	}
	if len(c.Problems) > 0 {
		return fmt.Errorf("the league is not consistent: %d problems", len(c.Problems))
	}
	fmt.Println("one consistent league")
	return nil
}

// wholeLeague fills a ledger from the database alone, for a backup no night
// made: every lot, each bid as if accepted, each topic's events from the
// oldest the outbox still keeps (it forgets published events after a day).
func (n *night) wholeLeague(ctx context.Context, l *ledger) error {
	db := n.st.db
	rows, err := db.Query(ctx, `SELECT l.id, b.team, b.amount FROM auction_lots l
		LEFT JOIN LATERAL (SELECT t.letter AS team, b.amount FROM auction_bids b JOIN teams t ON t.id = b.team_id WHERE b.lot_id = l.id) b ON true
		WHERE l.status <> 'open' ORDER BY l.id`)
	if err != nil {
		return err
	}
	seen := map[int64]bool{}
	for rows.Next() {
		var id int64
		var team *string
		var amount *int
		if err := rows.Scan(&id, &team, &amount); err != nil {
			rows.Close()
			return err
		}
		if !seen[id] {
			seen[id] = true
			l.Lots = append(l.Lots, id)
		}
		if team != nil && amount != nil {
			l.Bids = append(l.Bids, acceptedBid{Lot: id, Team: *team, Amount: *amount, Known: true})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var roster tournament.Roster
	if err := n.must(ctx, "read the registrations", "GET", "/api/tournament/registrations?tournamentName="+nextSeason, "", nil, &roster); err != nil {
		return err
	}
	for _, p := range roster.Players {
		l.Registered = append(l.Registered, p.ID)
	}
	l.Since = map[string]int64{}
	trows, err := db.Query(ctx, `SELECT topic, min(seq) - 1 FROM outbox GROUP BY topic`)
	if err != nil {
		return err
	}
	defer trows.Close()
	for trows.Next() {
		var t string
		var s int64
		if err := trows.Scan(&t, &s); err != nil {
			return err
		}
		if !strings.HasPrefix(t, "user:") { // a user's own topic: upload progress, no league state
			l.Topics = append(l.Topics, t)
			l.Since[t] = s
		}
	}
	return trows.Err()
}

// serveDatabase starts one `pitlane serve` on an existing database, with
// in-process live events and the fake Discord, for check-league.
func serveDatabase(ctx context.Context, cfg nightConfig, dbURL string) (st *stage, err error) {
	st = &stage{cfg: cfg, dbURL: dbURL, secret: randomHex(32)}
	if st.dir, err = os.MkdirTemp("", "pitlane-check-"); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			st.close(true, true)
		}
	}()
	if st.db, err = pgxpool.New(ctx, dbURL); err != nil {
		return st, err
	}
	if st.discord, err = startFakeDiscord(); err != nil {
		return st, err
	}
	in, err := st.startInstance(ctx, 0)
	if err != nil {
		return st, err
	}
	st.servers = append(st.servers, in)
	return st, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

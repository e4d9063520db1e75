package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/tournament"
)

// What the night committed, read back from PostgreSQL (the outbox is the
// list of every event any client should have had), and the checks that
// the final state is one consistent state.

// outboxEvent is one committed event of the night.
type outboxEvent struct {
	Topic     string
	Seq       int64
	Name      string
	Data      json.RawMessage
	Created   time.Time  // the change's transaction (PostgreSQL's clock)
	Published *time.Time // when the relay had handed it to the hub
}

// topicSeqs is each topic's seq now.
func (st *stage) topicSeqs(ctx context.Context) (map[string]int64, error) {
	rows, err := st.db.Query(ctx, `SELECT topic, seq FROM event_topics`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var t string
		var s int64
		if err := rows.Scan(&t, &s); err != nil {
			return nil, err
		}
		out[t] = s
	}
	return out, rows.Err()
}

// eventsAfter lists the events of topics past since, by topic and seq.
func (st *stage) eventsAfter(ctx context.Context, topics []string, since map[string]int64) ([]outboxEvent, error) {
	rows, err := st.db.Query(ctx, `SELECT topic, seq, event, data, created_at, published_at FROM outbox
		WHERE topic = ANY($1) ORDER BY topic, seq`, topics)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []outboxEvent
	for rows.Next() {
		var e outboxEvent
		if err := rows.Scan(&e.Topic, &e.Seq, &e.Name, &e.Data, &e.Created, &e.Published); err != nil {
			return nil, err
		}
		if e.Seq > since[e.Topic] {
			out = append(out, e)
		}
	}
	return out, rows.Err()
}

// waitPublished waits until the relay has handed every event to the hub.
func (st *stage) waitPublished(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		var left int
		err := st.db.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE published_at IS NULL`).Scan(&left)
		if err == nil && left == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d events still unpublished after %v (%v)", left, limit, err)
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
}

// consistency is the check of the final state.
type consistency struct {
	Checked  []string `json:"checked"`
	Problems []string `json:"problems"`
	// LotLateMs is, for each lot of the night, how long after its deadline
	// it closed.
	LotLateMs []float64 `json:"lot_late_ms"`
	Sold      int       `json:"sold"`
	Unsold    int       `json:"unsold"`
	// BidsAnsweredOther are bids stored whose request was answered neither
	// 200 nor at all (a 5xx answer to a committed bid).
	BidsAnsweredOther int `json:"bids_answered_other"`
}

func (c *consistency) problem(format string, args ...any) {
	c.Problems = append(c.Problems, fmt.Sprintf(format, args...))
}

// check reads the final state and checks it against the rules and
// against what the night did.
func (n *night) check(ctx context.Context, events []outboxEvent, since map[string]int64) *consistency {
	c := &consistency{}
	n.checkOutbox(events, since, c)
	n.checkAuction(ctx, c)
	n.checkBids(ctx, events, c)
	n.checkRegistrations(ctx, c)
	n.checkMatches(ctx, c)
	return c
}

// checkOutbox: every event was published, and each topic's seqs follow on
// without a hole.
func (n *night) checkOutbox(events []outboxEvent, since map[string]int64, c *consistency) {
	next := map[string]int64{}
	unpublished := 0
	for _, e := range events {
		if e.Published == nil {
			unpublished++
		}
		want, ok := next[e.Topic]
		if !ok {
			want = since[e.Topic] + 1
		}
		if e.Seq != want {
			c.problem("topic %s: seq %d follows %d", e.Topic, e.Seq, want-1)
		}
		next[e.Topic] = e.Seq + 1
	}
	if unpublished > 0 && !n.anyLeague { // a backup taken mid-night may hold events the relay had yet to hand on
		c.problem("%d events never published", unpublished)
	}
	c.Checked = append(c.Checked, fmt.Sprintf("%d events, all published, seqs without holes", len(events)))
}

// checkAuction: purses are the purse less the roster's prices; every sale
// is on exactly one roster at its price; no rostered player is still in
// the pool.
func (n *night) checkAuction(ctx context.Context, c *consistency) {
	v, err := n.auctionState(ctx)
	if err != nil {
		c.problem("the auction: %v", err)
		return
	}
	onRoster := map[int64]string{}
	price := map[int64]int{}
	players := 0
	for _, t := range v.Teams {
		spent := 0
		for _, p := range t.Players {
			spent += p.Price
			players++
			if other, ok := onRoster[p.UserID]; ok {
				c.problem("player %d on teams %s and %s", p.UserID, other, t.ID)
			}
			onRoster[p.UserID], price[p.UserID] = t.ID, p.Price
		}
		if t.PurseLeft != t.Purse-spent {
			c.problem("team %s: purse left %d, but %d - %d spent = %d", t.ID, t.PurseLeft, t.Purse, spent, t.Purse-spent)
		}
		if len(t.Players) > t.Slots {
			c.problem("team %s: %d players in %d slots", t.ID, len(t.Players), t.Slots)
		}
	}
	for _, s := range v.Sold {
		switch team, ok := onRoster[s.Player.UserID]; {
		case !ok:
			c.problem("lot %d sold %s to %s, who is on no roster", s.LotID, s.Player.Name, s.Team)
		case team != s.Team || price[s.Player.UserID] != s.Price:
			c.problem("lot %d sold %s to %s for %d; the roster says %s for %d", s.LotID, s.Player.Name, s.Team, s.Price, team, price[s.Player.UserID])
		}
	}
	if len(v.Sold) != players {
		c.problem("%d sales, %d rostered players", len(v.Sold), players)
	}
	for _, p := range v.Pool {
		if team, ok := onRoster[p.UserID]; ok {
			c.problem("%s is in the pool and on team %s", p.Name, team)
		}
	}
	if v.Lot != nil && !n.anyLeague { // a backup taken mid-auction holds the lot on sale
		c.problem("lot %d is still open", v.Lot.ID)
	}
	c.Checked = append(c.Checked, fmt.Sprintf("8 purses = purse - roster prices; %d sales each on exactly one roster at its price", len(v.Sold)))
}

// checkBids: no bid the server accepted is lost; every stored bid has its
// event and every bid event its row (nothing half-written); each lot's
// high bid is its highest bid, its sale that bid, and it closed at its
// deadline, not before.
func (n *night) checkBids(ctx context.Context, events []outboxEvent, c *consistency) {
	n.mu.Lock()
	lots, told := slices.Clone(n.lots), slices.Clone(n.bids)
	n.mu.Unlock()
	type bidKey struct {
		lot    int64
		team   string
		amount int
	}
	stored := map[bidKey]bool{}
	rows, err := n.st.db.Query(ctx, `SELECT b.lot_id, t.letter, b.amount FROM auction_bids b JOIN teams t ON t.id = b.team_id
		WHERE b.lot_id = ANY($1)`, lots)
	if err != nil {
		c.problem("reading the bids: %v", err)
		return
	}
	highest := map[int64]bidKey{}
	for rows.Next() {
		var k bidKey
		if err := rows.Scan(&k.lot, &k.team, &k.amount); err != nil {
			c.problem("reading the bids: %v", err)
			rows.Close()
			return
		}
		if stored[k] {
			c.problem("lot %d holds two bids of %d by %s", k.lot, k.amount, k.team)
		}
		stored[k] = true
		if k.amount > highest[k.lot].amount {
			highest[k.lot] = k
		}
	}
	rows.Close()
	answered := map[bidKey]bool{}
	accepted := 0
	for _, b := range told {
		k := bidKey{b.Lot, b.Team, b.Amount}
		answered[k] = true
		if b.Known {
			accepted++
			if !stored[k] {
				c.problem("LOST: the bid of %d by %s on lot %d was accepted (200) and is not stored", b.Amount, b.Team, b.Lot)
			}
		}
	}
	for k := range stored {
		if !answered[k] {
			c.BidsAnsweredOther++
			c.problem("the bid of %d by %s on lot %d is stored, but its request was refused or failed", k.amount, k.team, k.lot)
		}
	}
	evs := map[bidKey]bool{}
	for _, e := range events {
		if e.Name != auction.EventBid {
			continue
		}
		var news auction.BidNews
		if json.Unmarshal(e.Data, &news) != nil || !slices.Contains(lots, news.LotID) {
			continue
		}
		k := bidKey{news.LotID, news.Bid.Team, news.Bid.Amount}
		evs[k] = true
		if !stored[k] {
			c.problem("half-written: an auction.bid event (%d by %s on lot %d) without its bid", k.amount, k.team, k.lot)
		}
	}
	for k := range stored {
		if !evs[k] {
			c.problem("half-written: the bid of %d by %s on lot %d without its event", k.amount, k.team, k.lot)
		}
	}
	lrows, err := n.st.db.Query(ctx, `SELECT l.id, l.status, coalesce(t.letter, ''), coalesce(l.high_amount, 0), l.ends_at, l.closed_at
		FROM auction_lots l LEFT JOIN teams t ON t.id = l.high_team_id WHERE l.id = ANY($1) ORDER BY l.id`, lots)
	if err != nil {
		c.problem("reading the lots: %v", err)
		return
	}
	defer lrows.Close()
	for lrows.Next() {
		var (
			id           int64
			status, team string
			high         int
			endsAt       time.Time
			closedAt     *time.Time
		)
		if err := lrows.Scan(&id, &status, &team, &high, &endsAt, &closedAt); err != nil {
			c.problem("reading the lots: %v", err)
			return
		}
		top := highest[id]
		switch {
		case status == auction.LotOpen || closedAt == nil:
			c.problem("lot %d is %s", id, status)
			continue
		case top.amount == 0 && status != auction.LotUnsold:
			c.problem("lot %d without a bid is %s", id, status)
		case top.amount > 0 && (status != auction.LotSold || team != top.team || high != top.amount):
			c.problem("lot %d is %s to %q at %d, its highest bid is %d by %s", id, status, team, high, top.amount, top.team)
		}
		if status == auction.LotSold {
			c.Sold++
		} else {
			c.Unsold++
		}
		late := closedAt.Sub(endsAt)
		if late < 0 && !n.anyLeague {
			c.problem("lot %d closed %v before its deadline", id, -late)
		}
		c.LotLateMs = append(c.LotLateMs, ms(late))
	}
	c.Checked = append(c.Checked, fmt.Sprintf("%d accepted bids all stored, each stored bid with its event, %d lots each sold to its highest bid at its deadline",
		accepted, len(lots)))
}

// checkRegistrations: the next season's list is the players whose
// registration the server took.
func (n *night) checkRegistrations(ctx context.Context, c *consistency) {
	var roster tournament.Roster
	if err := n.must(ctx, "read the registrations", "GET", "/api/tournament/registrations?tournamentName="+nextSeason, "", nil, &roster); err != nil {
		c.problem("the registrations: %v", err)
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	listed := map[int64]bool{}
	for _, p := range roster.Players {
		if listed[p.ID] {
			c.problem("%s is listed twice for %s", p.Name, nextSeason)
		}
		listed[p.ID] = true
		if !n.registered[p.ID] {
			c.problem("%s is registered for %s, but no registration of theirs was answered", p.Name, nextSeason)
		}
	}
	for id := range n.registered {
		if !listed[id] {
			c.problem("LOST: player %d's registration for %s was accepted and is not listed", id, nextSeason)
		}
	}
	c.Checked = append(c.Checked, fmt.Sprintf("%s's list = the %d registrations accepted", nextSeason, len(n.registered)))
}

// checkMatches: every match was played as reported, the season has its
// champion, and the Points Table and the Red Cap are what internal/bracket
// makes of the results the captains reported.
func (n *night) checkMatches(ctx context.Context, c *consistency) {
	n.mu.Lock()
	results := slices.Clone(n.results)
	n.mu.Unlock()
	if len(results) == 0 {
		return
	}
	var list struct{ Matches []matches.Match }
	if err := n.must(ctx, "read the matches", "GET", "/api/tournaments/"+season+"/matches", "", nil, &list); err != nil {
		c.problem("the matches: %v", err)
		return
	}
	ours := map[int64]played{}
	for _, r := range results {
		ours[r.ID] = r
	}
	for _, m := range list.Matches {
		r, ok := ours[m.ID]
		switch {
		case m.Status == matches.StatusCancelled:
		case !ok:
			c.problem("match %d is %s and was never played", m.ID, m.Status)
		case m.Status != matches.StatusCompleted || m.Winner == nil || *m.Winner != r.Result.Winner:
			c.problem("match %d is %s, won by %v; the captains reported and confirmed %s", m.ID, m.Status, m.Winner, r.Result.Winner)
		}
	}
	var table matches.Table
	var cap matches.RedCap
	var b matches.Bracket
	var info struct{ Status string }
	for _, r := range []struct {
		path string
		out  any
	}{{"/standings", &table}, {"/red-cap", &cap}, {"/bracket", &b}, {"", &info}} {
		if err := n.must(ctx, "read the season", "GET", "/api/tournaments/"+season+r.path, "", nil, r.out); err != nil {
			c.problem("%v", err)
			return
		}
	}
	if b.Champion == nil || info.Status != "completed" {
		c.problem("the season is %q with champion %v", info.Status, b.Champion)
	}
	var teams []string
	for _, s := range b.Seeds {
		teams = append(teams, s.Team.ID)
	}
	var counted, all []bracket.Result
	for _, r := range results {
		all = append(all, r.Result)
		if table.Stage == "all" || r.Stage == table.Stage {
			counted = append(counted, r.Result)
		}
	}
	want := bracket.Standings(teams, counted, table.Scoring)
	if len(want) != len(table.Rows) {
		c.problem("the Points Table has %d rows, the results make %d", len(table.Rows), len(want))
	}
	for i := range min(len(want), len(table.Rows)) {
		if got := table.Rows[i].Row; got != want[i] {
			c.problem("Points Table row %d: the server has %+v, the results make %+v", i+1, got, want[i])
		}
	}
	killers := bracket.RedCap(all)
	if len(killers) != len(cap.Rows) {
		c.problem("the Red Cap has %d rows, the results make %d", len(cap.Rows), len(killers))
	}
	for i := range min(len(killers), len(cap.Rows)) {
		if got := cap.Rows[i].Killer; got != killers[i] {
			c.problem("Red Cap row %d: the server has %+v, the results make %+v", i+1, got, killers[i])
		}
	}
	c.Checked = append(c.Checked, fmt.Sprintf("%d matches completed as reported, the champion crowned, the Points Table (%d rows) and the Red Cap (%d rows) = internal/bracket's of the results",
		len(results), len(want), len(killers)))
}

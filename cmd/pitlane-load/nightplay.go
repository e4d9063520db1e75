// The night's auction and matches, as the organiser and the captains play them.

package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"time"

	"github.com/pitlane/pitlane/internal/auction"
	"github.com/pitlane/pitlane/internal/bracket"
	"github.com/pitlane/pitlane/internal/matches"
)

// auctionState reads PPL7's auction.
func (n *night) auctionState(ctx context.Context) (auction.View, error) {
	var v auction.View
	err := n.must(ctx, "read the auction", "GET", "/api/tournaments/"+season+"/auction", "", nil, &v)
	return v, err
}

// auction sells cfg.lots players with the real countdown: the organiser
// opens a lot, the captains bid on it in turn while they can afford to, and
// the lot closes by itself at its deadline (the server's timer, or its
// river job). The fault, if any, strikes during cfg.faultLot.
func (n *night) auction(ctx context.Context) error {
	for k := 1; k <= n.cfg.lots; k++ {
		v, err := n.auctionState(ctx)
		if err != nil {
			return err
		}
		if len(v.Pool) == 0 {
			logf("the pool is empty after %d lots", k-1)
			return nil
		}
		if err := n.lot(ctx, k, v); err != nil {
			return fmt.Errorf("lot %d: %w", k, err)
		}
	}
	return nil
}

// lot runs one lot, from its opening to its close by the countdown.
func (n *night) lot(ctx context.Context, k int, v auction.View) error {
	faulty := n.cfg.fault != "" && k == n.cfg.faultLot
	pin := -1
	if faulty && n.cfg.fault == faultKill {
		// The lot's countdown is armed on the instance that is killed:
		// every request of the lot goes there until the kill.
		n.fault.Relay, n.fault.Bot = n.st.holders(ctx)
		n.fault.Victim = n.cfg.victim
		if n.fault.Victim < 0 {
			n.fault.Victim = max(n.fault.Relay, 0)
		}
		pin = n.fault.Victim
	}
	player := v.Pool[rand.IntN(len(v.Pool))]
	var opened struct{ Lot auction.Lot }
	if status, msg := n.do(ctx, "open a lot", pin, "POST", "/api/admin/tournaments/"+season+"/auction/lots", n.organiser.token,
		map[string]any{"userId": player.UserID, "basePrice": auction.MinPrice}, &opened); status != http.StatusCreated && status != http.StatusOK {
		return fmt.Errorf("open a lot: %d %s", status, msg)
	}
	lot := opened.Lot
	n.mu.Lock()
	n.lots = append(n.lots, lot.ID)
	n.mu.Unlock()
	teams := map[string]auction.Team{}
	for _, t := range v.Teams {
		teams[t.ID] = t
	}
	want := 3 + rand.IntN(8) // bids this lot takes, if the purses allow
	high, leader := 0, ""
	var restart chan struct{}
	for placed, turn := 0, rand.IntN(len(n.letters)); placed < want || restart != nil; turn++ {
		if restart != nil {
			select {
			case <-restart: // the outage is over: two more bids, then let the countdown run
				restart, want = nil, placed+2
			default:
			}
		}
		amount := lot.BasePrice
		if high > 0 {
			amount = high + lot.Increment
		}
		letter := ""
		for i := range n.letters {
			l := n.letters[(turn+i)%len(n.letters)]
			if l != leader && teams[l].MaxBid >= amount {
				letter, turn = l, turn+i
				break
			}
		}
		if letter == "" || amount > auction.MaxPrice {
			break // nobody can go higher
		}
		var got struct{ Lot auction.Lot }
		status, msg := n.do(ctx, "bid", pin, "POST", "/api/tournaments/"+season+"/auction/bids", n.captains[letter].token,
			map[string]any{"lotId": lot.ID, "amount": amount}, &got)
		switch status {
		case http.StatusOK:
			n.mu.Lock()
			n.bids = append(n.bids, acceptedBid{Lot: lot.ID, Team: letter, Amount: amount, Known: true})
			n.mu.Unlock()
			high, leader = amount, letter
			lot.EndsAt = got.Lot.EndsAt
			placed++
		case 0:
			// The answer never came: the bid may stand. Read where the lot is.
			n.mu.Lock()
			n.bids = append(n.bids, acceptedBid{Lot: lot.ID, Team: letter, Amount: amount})
			n.mu.Unlock()
			fallthrough
		default:
			if status == http.StatusServiceUnavailable {
				break // the database is away: the same bid again, shortly
			}
			cur, err := n.auctionState(ctx)
			if err != nil && status == 0 {
				break
			}
			if err != nil {
				return err
			}
			if cur.Lot == nil || cur.Lot.ID != lot.ID {
				logf("lot %d closed while bidding (%d %s)", lot.ID, status, msg)
				return n.waitClosed(ctx, lot.ID, time.Time{})
			}
			if cur.Lot.High != nil {
				high, leader = cur.Lot.High.Amount, cur.Lot.High.Team
			}
		}
		if faulty && placed == n.cfg.faultAfter && n.fault.From.IsZero() {
			n.fault.Lot, n.fault.AfterBids = lot.ID, placed
			if n.cfg.fault == faultKill {
				if err := n.killVictim(); err != nil {
					return err
				}
				break // nobody bids again: the lot must close by its river job
			}
			restart = n.outage(ctx)
		}
		if err := sleep(ctx, n.cfg.bidInterval); err != nil {
			return err
		}
	}
	return n.waitClosed(ctx, lot.ID, lot.EndsAt)
}

// killVictim is the kill -9 fault.
func (n *night) killVictim() error {
	n.fault.Reads = n.hubReads()
	n.fault.From = time.Now()
	logf("kill -9 %s (relay: instance %d, bot: instance %d)", n.st.servers[n.fault.Victim].name, n.fault.Relay+1, n.fault.Bot+1)
	err := n.st.kill(n.fault.Victim)
	n.fault.To = time.Now()
	return err
}

// hubReads is each instance's hub reads now.
func (n *night) hubReads() []hubReads {
	out := make([]hubReads, len(n.st.servers))
	for i, in := range n.st.servers {
		out[i] = in.readHubReads()
	}
	return out
}

// outage takes Redis or PostgreSQL away and brings it back after cfg.down,
// in the background; the channel closes once it is back.
func (n *night) outage(ctx context.Context) chan struct{} {
	done := make(chan struct{})
	n.fault.Reads = n.hubReads()
	n.fault.From = time.Now()
	go func() {
		defer close(done)
		switch n.cfg.fault {
		case faultRedis:
			logf("Redis killed; back empty in %v", n.cfg.down)
			n.st.redis.kill()
			_ = sleep(ctx, n.cfg.down)
			if err := n.st.redis.start(context.WithoutCancel(ctx)); err != nil {
				logf("Redis did not come back: %v", err)
			}
		case faultFailover:
			logf("the Redis primary killed; the sentinels promote its replica")
			n.st.redis.kill()
			deadline := time.Now().Add(time.Minute)
			for !n.st.replica.isPrimary(ctx) {
				if time.Now().After(deadline) || ctx.Err() != nil {
					logf("the replica was not promoted within a minute")
					break
				}
				_ = sleep(ctx, 50*time.Millisecond)
			}
		case faultPostgres:
			logf("PostgreSQL stopped (fast: every session ended); back in %v", n.cfg.down)
			if err := n.st.pg.stopFast(context.WithoutCancel(ctx)); err != nil {
				logf("%v", err)
			}
			_ = sleep(ctx, n.cfg.down)
			if err := n.st.pg.start(context.WithoutCancel(ctx)); err != nil {
				logf("PostgreSQL did not come back: %v", err)
			}
		}
		n.fault.To = time.Now()
	}()
	return done
}

// waitClosed waits for the lot's countdown to close it: until its
// deadline (as the last answer gave it), then looking four times a second,
// so that the tool's own reads weigh little in what the night measures.
func (n *night) waitClosed(ctx context.Context, lotID int64, endsAt time.Time) error {
	if err := sleep(ctx, time.Until(endsAt)); err != nil {
		return err
	}
	deadline := time.Now().Add(time.Duration(n.cfg.lotSeconds)*time.Second + 2*time.Minute)
	for time.Now().Before(deadline) {
		var v auction.View
		status, _ := n.do(ctx, "read the auction", -1, "GET", "/api/tournaments/"+season+"/auction", "", nil, &v)
		if status == http.StatusOK && (v.Lot == nil || v.Lot.ID != lotID) {
			return nil
		}
		if err := sleep(ctx, 250*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("lot %d was still open two minutes past its countdown", lotID)
}

// setStatus moves PPL7 to its next phase. The night sells a few lots, not
// whole rosters: the move to the matches is forced past the empty slots
// the server lists (as an organiser does with "Move anyway").
func (n *night) setStatus(ctx context.Context, status string) error {
	return n.must(ctx, "move the season", "POST", "/api/admin/tournaments/"+season+"/status", n.organiser.token,
		map[string]any{"status": status, "force": true}, nil)
}

// matches makes the fixtures and plays them: for each match whose sides
// are known, the home captain uploads the end-of-match screenshot and
// reports, the away captain confirms; rounds made as earlier ones end are
// played in turn, until the season has its champion.
func (n *night) matches(ctx context.Context) error {
	if err := n.setStatus(ctx, "matches"); err != nil {
		return err
	}
	if err := n.must(ctx, "make the fixtures", "POST", "/api/admin/tournaments/"+season+"/bracket", n.organiser.token,
		map[string]string{"format": n.cfg.format}, nil); err != nil {
		return err
	}
	for {
		var list struct{ Matches []matches.Match }
		if err := n.must(ctx, "read the matches", "GET", "/api/tournaments/"+season+"/matches", "", nil, &list); err != nil {
			return err
		}
		playedNow := 0
		for _, m := range list.Matches {
			if !m.Open() || m.Team1 == nil || m.Team2 == nil {
				continue
			}
			if err := n.playMatch(ctx, m); err != nil {
				return fmt.Errorf("match %d: %w", m.ID, err)
			}
			playedNow++
			if err := sleep(ctx, n.cfg.matchInterval); err != nil {
				return err
			}
		}
		if playedNow == 0 {
			return n.setStatus(ctx, "completed")
		}
	}
}

// playMatch reports and confirms one match: two karts a side.
func (n *night) playMatch(ctx context.Context, m matches.Match) error {
	home, away := n.captains[m.Team1.ID], n.captains[m.Team2.ID]
	var proof struct {
		ScreenshotID string `json:"screenshotId"`
	}
	body, err := screenshot(m.ID)
	if err != nil {
		return err
	}
	if err := n.must(ctx, "upload a proof", "POST", fmt.Sprintf("/api/matches/%d/proof", m.ID), home.token, body, &proof); err != nil {
		return err
	}
	winner := m.Team1.ID
	if rand.IntN(2) == 0 {
		winner = m.Team2.ID
	}
	res := bracket.Result{Home: m.Team1.ID, Away: m.Team2.ID, Winner: winner}
	var lines []map[string]any
	place := 1
	for _, side := range []string{m.Team1.ID, m.Team2.ID} {
		members := m.Members[side]
		for _, p := range members[:min(2, len(members))] {
			kills := 4 + rand.IntN(18)
			if side == winner {
				kills += 5
			}
			deaths := 2 + rand.IntN(12)
			lines = append(lines, map[string]any{"userId": p.UserID, "kills": kills, "deaths": deaths, "placement": place})
			res.Lines = append(res.Lines, bracket.Line{UserID: p.UserID, Team: side, Kills: kills, Deaths: deaths, Placement: place})
			place++
		}
	}
	if err := n.must(ctx, "report a result", "POST", fmt.Sprintf("/api/matches/%d/report", m.ID), home.token,
		map[string]any{"winner": winner, "players": lines, "screenshotId": proof.ScreenshotID}, nil); err != nil {
		return err
	}
	if err := n.must(ctx, "confirm a result", "POST", fmt.Sprintf("/api/matches/%d/confirm", m.ID), away.token, nil, nil); err != nil {
		return err
	}
	n.mu.Lock()
	n.results = append(n.results, played{ID: m.ID, Stage: m.Stage, Result: res})
	n.mu.Unlock()
	return nil
}

// multipartBody is a request body already encoded as multipart/form-data.
type multipartBody struct {
	data  []byte
	ctype string
}

// screenshot is a small PNG of its own for each match (a proof is an
// upload for that match).
func screenshot(id int64) (multipartBody, error) {
	img := image.NewRGBA(image.Rect(0, 0, 96, 54))
	for y := range 54 {
		for x := range 96 {
			img.Set(x, y, color.RGBA{uint8(id * 37), uint8(x * 2), uint8(y * 4), 255})
		}
	}
	var pngBuf, body bytes.Buffer
	if err := png.Encode(&pngBuf, img); err != nil {
		return multipartBody{}, err
	}
	w := multipart.NewWriter(&body)
	part, err := w.CreateFormFile("screenshot", fmt.Sprintf("match-%d.png", id))
	if err != nil {
		return multipartBody{}, err
	}
	_, _ = part.Write(pngBuf.Bytes())
	if err := w.Close(); err != nil {
		return multipartBody{}, err
	}
	return multipartBody{data: body.Bytes(), ctype: w.FormDataContentType()}, nil
}

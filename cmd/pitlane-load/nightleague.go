package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pitlane/pitlane/internal/bracket"
)

// actions records every request the night makes: what, when, how long
// and the answer.
type actions struct {
	mu   sync.Mutex
	list []actionRecord
}

type actionRecord struct {
	Name   string
	Start  time.Time
	Took   time.Duration
	Status int // 0: no answer (the connection died with the request sent)
}

func (a *actions) add(r actionRecord) {
	a.mu.Lock()
	a.list = append(a.list, r)
	a.mu.Unlock()
}

func (a *actions) all() []actionRecord {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.list)
}

// member is a signed-in account.
type member struct {
	email, token string
	userID       int64
	letter       string // the team it captains in PPL7, if any
}

// acceptedBid is a bid the server answered 200 (it must be in the final
// state), or a bid whose answer never came (it may be).
type acceptedBid struct {
	Lot    int64
	Team   string
	Amount int
	Known  bool // answered 200; false: no answer
}

// played is a match as the captains reported and confirmed it.
type played struct {
	ID     int64
	Stage  string
	Result bracket.Result
}

type night struct {
	cfg nightConfig
	st  *stage
	actions
	rr atomic.Uint64

	organiser *member
	captains  map[string]*member // by team letter
	letters   []string
	players   []*member // who register for the next season

	mu         sync.Mutex
	bids       []acceptedBid
	registered map[int64]bool // players whose registration for the next season the server took
	results    []played
	messages   int
	lots       []int64
	fault      *faultRecord
	// anyLeague: the check is of a database no night made (check-league
	// without a ledger), whose organisers may have closed lots early.
	anyLeague bool
}

// faultRecord says what the fault did and when.
type faultRecord struct {
	Kind      string
	Lot       int64
	Victim    int // the killed instance (kill)
	Relay     int // which instance held the relay's lock, and the bot's, before
	Bot       int
	From, To  time.Time // the outage (for kill: the kill)
	Clients   int       // spectators on the victim
	AfterBids int
	Reads     []hubReads // each instance's hub reads as the fault struck
}

// The seasons the night plays: PPL7's auction and matches, PPL8's
// registrations. check-league may name others (-season, -next-season).
var (
	nextSeason = "PPL8"
	season     = "PPL7"
)

// do sends one request (pin >= 0: to that instance) and decodes a 2xx
// answer into out; status 0 is no answer.
func (n *night) do(ctx context.Context, name string, pin int, method, path, token string, body, out any) (int, string) {
	var b []byte
	ctype := "application/json"
	switch v := body.(type) {
	case nil:
	case multipartBody:
		b, ctype = v.data, v.ctype
	default:
		b, _ = json.Marshal(v)
	}
	for attempt := range 2 * len(n.st.servers) {
		in := n.pick(pin, attempt)
		if in == nil {
			break
		}
		rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		req, _ := http.NewRequestWithContext(rctx, method, in.base+path, bytes.NewReader(b))
		if body != nil {
			req.Header.Set("Content-Type", ctype)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			cancel()
			var op *net.OpError
			if errors.As(err, &op) && op.Op == "dial" && ctx.Err() == nil {
				continue // refused at the door: nothing was sent, the balancer tries the next
			}
			n.add(actionRecord{Name: name, Start: start, Took: time.Since(start)})
			return 0, err.Error()
		}
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
		resp.Body.Close()
		cancel()
		n.add(actionRecord{Name: name, Start: start, Took: time.Since(start), Status: resp.StatusCode})
		if resp.StatusCode/100 != 2 {
			var e struct{ Message string }
			_ = json.Unmarshal(msg, &e)
			return resp.StatusCode, e.Message
		}
		if out != nil {
			if err := json.Unmarshal(msg, out); err != nil {
				return resp.StatusCode, fmt.Sprintf("%s %s: %v", method, path, err)
			}
		}
		return resp.StatusCode, ""
	}
	return 0, "no instance to send it to"
}

// pick is the instance for a request's attempt: the pinned one, else the
// live ones in turn.
func (n *night) pick(pin, attempt int) *instance {
	if pin >= 0 && attempt == 0 && n.st.servers[pin].alive() {
		return n.st.servers[pin]
	}
	k := int(n.rr.Add(1))
	for i := range n.st.servers {
		if in := n.st.servers[(k+i)%len(n.st.servers)]; in.alive() {
			return in
		}
	}
	return nil
}

// must is do for the steps that have to succeed. A 503 (the database is
// away) is tried again for a while, as a person would: the work was not
// done. So is a read that got no answer.
func (n *night) must(ctx context.Context, name, method, path, token string, body, out any) error {
	deadline := time.Now().Add(time.Minute)
	for {
		status, msg := n.do(ctx, name, -1, method, path, token, body, out)
		switch {
		case status/100 == 2:
			return nil
		case (status == http.StatusServiceUnavailable || status == 0 && method == http.MethodGet) && time.Now().Before(deadline):
			if err := sleep(ctx, 200*time.Millisecond); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: %s %s: %d %s", name, method, path, status, msg)
		}
	}
}

// signIn signs in the organiser, the captains and the players (bcrypt
// makes each sign-in cost the server ~0.1-0.3 s of a core: two at a time).
func (n *night) signIn(ctx context.Context) error {
	emails := []string{"organiser@demo.pitlane.local"}
	for i := range 8 {
		emails = append(emails, fmt.Sprintf("captain.%c@demo.pitlane.local", 'a'+i))
	}
	// The next season's players: the league's sixty (captains first).
	for i := 9; len(emails)-1 < max(n.cfg.players, 8); i++ {
		emails = append(emails, fmt.Sprintf("player%03d@demo.pitlane.local", i))
	}
	members := make([]*member, len(emails))
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	var errs []error
	var mu sync.Mutex
	for i, e := range emails {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			var out struct {
				Token string
				User  struct {
					ID int64 `json:"id"`
				}
			}
			if err := n.must(ctx, "sign in", "POST", "/api/auth/login", "", map[string]string{"email": e, "password": nightPassword}, &out); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return
			}
			members[i] = &member{email: e, token: out.Token, userID: out.User.ID}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	n.organiser = members[0]
	n.captains = map[string]*member{}
	for i, m := range members[1:9] {
		m.letter = string(rune('A' + i))
		n.captains[m.letter] = m
		n.letters = append(n.letters, m.letter)
	}
	n.players = members[1 : 1+n.cfg.players]
	return nil
}

// openSeason is the organiser opening the next season for registration.
func (n *night) openSeason(ctx context.Context) error {
	return n.must(ctx, "open a season", "POST", "/api/admin/tournaments", n.organiser.token,
		map[string]any{"name": nextSeason, "season": 8, "purse": 12000}, nil)
}

// registrations: each player saves their stats and registers for the next
// season, one every interval, until all have or ctx ends.
func (n *night) registrations(ctx context.Context, interval time.Duration) {
	for i, p := range n.players {
		if ctx.Err() != nil {
			return
		}
		games := 200 + rand.IntN(3000)
		kd := math.Round((0.8+rand.Float64()*2.2)*100) / 100
		deaths := games * (1 + rand.IntN(3))
		kills := int(math.Round(kd * float64(deaths)))
		save := map[string]any{"sk_id": 100000 + i, "level": 10 + games/50, "kills": kills, "deaths": deaths, "games_played": games,
			"kd": math.Round(float64(kills)/float64(deaths)*100) / 100, "cart_image": nil, "description": "Back for season 8",
			"category": 0, "preferred_role": "Player"}
		// A request that got no answer, or a 503, is sent again a little
		// later, as a player would, for up to half a minute.
		again := func(status int) bool { return status == 0 || status == http.StatusServiceUnavailable }
		for deadline := time.Now().Add(30 * time.Second); ; {
			status, _ := n.do(ctx, "stats save", -1, "POST", "/api/stats/save", p.token, save, nil)
			if !again(status) || time.Now().After(deadline) || sleep(ctx, 500*time.Millisecond) != nil {
				break
			}
		}
		for deadline := time.Now().Add(30 * time.Second); ; {
			status, msg := n.do(ctx, "register", -1, "POST", "/api/tournament/register", p.token, map[string]string{"tournamentName": nextSeason}, nil)
			if status == http.StatusOK || (status == http.StatusConflict && strings.Contains(msg, "already")) {
				n.mu.Lock()
				n.registered[p.userID] = true
				n.mu.Unlock()
			}
			if !again(status) || time.Now().After(deadline) || sleep(ctx, 500*time.Millisecond) != nil {
				break
			}
		}
		if sleep(ctx, interval) != nil {
			return
		}
	}
}

// room: the captains and the organiser talk in the captains room, a
// message every interval, until stop.
func (n *night) room(ctx context.Context, interval time.Duration, stop <-chan struct{}) {
	lines := []string{"Who is bidding on the next one?", "GG on that lot", "Our purse is tight, go easy",
		"Room codes on the match page, please", "Ready for the first round?", "Nice pick"}
	for k := 0; ; k++ {
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
		who := n.organiser
		if k%3 != 2 {
			who = n.captains[n.letters[rand.IntN(len(n.letters))]]
		}
		status, _ := n.do(ctx, "room message", -1, "POST", "/api/tournaments/"+season+"/captains/messages", who.token,
			map[string]string{"text": lines[k%len(lines)]}, nil)
		if status == http.StatusCreated {
			n.mu.Lock()
			n.messages++
			n.mu.Unlock()
		}
	}
}

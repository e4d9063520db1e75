package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/internal/streams"
	"github.com/pitlane/pitlane/internal/testkit"
)

// streamsServer is a site with the streams feature on against a fake
// Twitch, whose EventSub sender posts to it.
func streamsServer(t *testing.T, admins ...string) (*testkit.Server, *testkit.Twitch) {
	t.Helper()
	tw := testkit.NewTwitch(t)
	s := newServer(t, testkit.Options{Admins: admins, Configure: func(c *config.Config) { tw.Configure(c) }})
	tw.Target = s.URL
	return s, tw
}

// poll runs the minute's reconciling poll now (the job's own work).
func poll(t *testing.T, s *testkit.Server) {
	t.Helper()
	if err := s.App.Server.Streams.PollDue(context.Background(), streams.Poll{}); err != nil {
		t.Fatalf("poll: %v", err)
	}
}

// listed is the public list's entry for channel, nil when it is not there.
func listed(t *testing.T, s *testkit.Server, channel string) map[string]any {
	t.Helper()
	r := s.Do(t, "GET", "/api/streams", "", nil)
	if r.Status != 200 {
		t.Fatalf("GET /api/streams: %d %s", r.Status, r.Body)
	}
	list, err := decodeList(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range list {
		if st["channel"] == channel {
			return st
		}
	}
	return nil
}

func status(t *testing.T, res *http.Response) (int, string) {
	t.Helper()
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func TestStreamsOffWithoutTwitchKeys(t *testing.T) {
	s := newServer(t, testkit.Options{})
	if r := s.Do(t, "GET", "/api/config", "", nil); r.JSON["streams"] != false {
		t.Fatalf("config says streams %v, want false", r.JSON["streams"])
	}
	if r := s.Do(t, "GET", "/api/streams", "", nil); r.Status != 200 || strings.TrimSpace(string(r.Body)) != "[]" {
		t.Fatalf("GET /api/streams off: %d %s", r.Status, r.Body)
	}
	if r := s.Do(t, "POST", "/api/webhooks/twitch", "", "{}"); r.Status != 404 {
		t.Fatalf("webhook off: %d %s", r.Status, r.Body)
	}
	tok := s.SignUp(t, testkit.UniqueEmail("off"), "off")
	if r := s.Do(t, "GET", "/api/auth/twitch/start", tok, nil); r.Status != 404 {
		t.Fatalf("start off: %d %s", r.Status, r.Body)
	}
}

func TestTwitchChannelLink(t *testing.T) {
	s, tw := streamsServer(t)
	acct := tw.AddAccount(testkit.TwitchID(1), "kartqueen")
	email := testkit.UniqueEmail("streamer")
	tok := s.SignUp(t, email, "streamer")

	link := func(t *testing.T, token, account string) *testkit.Resp {
		t.Helper()
		r := s.Do(t, "GET", "/api/auth/twitch/start", token, nil)
		if r.Status != 200 {
			t.Fatalf("start: %d %s", r.Status, r.Body)
		}
		var cookie string
		for _, c := range (&http.Response{Header: r.Header}).Cookies() {
			if c.Name == "pitlane_twitch_state" {
				cookie = c.Value
			}
		}
		code, state := tw.Authorize(r.JSON["url"].(string), account)
		req, _ := http.NewRequest("GET", s.URL+"/api/auth/twitch/callback?"+url.Values{"code": {code}, "state": {state}}.Encode(), nil)
		req.AddCookie(&http.Cookie{Name: "pitlane_twitch_state", Value: cookie})
		res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return &testkit.Resp{Status: res.StatusCode, Header: res.Header}
	}

	t.Run("OKTokensSealed", func(t *testing.T) {
		r := link(t, tok, acct.ID)
		if r.Status != 302 || !strings.Contains(r.Header.Get("Location"), "twitch=linked") {
			t.Fatalf("callback: %d %s", r.Status, r.Header.Get("Location"))
		}
		var sealed []byte
		if err := s.DB.Pool.QueryRow(context.Background(), `SELECT tokens FROM stream_channels WHERE channel_id = $1 AND user_id IS NOT NULL`,
			acct.ID).Scan(&sealed); err != nil {
			t.Fatal(err)
		}
		for _, at := range tw.AccessTokens() {
			if strings.Contains(string(sealed), at) || strings.Contains(string(sealed), "refresh-") {
				t.Fatal("the player's Twitch token is kept in the clear")
			}
		}
		if len(sealed) < 40 {
			t.Fatalf("sealed tokens are %d bytes", len(sealed))
		}
		r = s.Do(t, "GET", "/api/me/channels", tok, nil)
		if chans, _ := r.JSON["channels"].([]any); r.Status != 200 || len(chans) != 1 || chans[0].(map[string]any)["channel"] != "kartqueen" ||
			strings.Contains(string(r.Body), "token") {
			t.Fatalf("my channels: %d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrStateOfAnotherBrowser", func(t *testing.T) {
		r := s.Do(t, "GET", "/api/auth/twitch/start", tok, nil)
		code, state := tw.Authorize(r.JSON["url"].(string), acct.ID)
		res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).
			Get(s.URL + "/api/auth/twitch/callback?" + url.Values{"code": {code}, "state": {state}}.Encode())
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if !strings.Contains(res.Header.Get("Location"), "twitch=error") {
			t.Fatalf("a callback without the browser's cookie linked: %s", res.Header.Get("Location"))
		}
	})
	t.Run("ErrChannelOfAnotherPlayer", func(t *testing.T) {
		other := s.SignUp(t, testkit.UniqueEmail("thief"), "thief")
		r := link(t, other, acct.ID)
		if !strings.Contains(r.Header.Get("Location"), "twitch=error") || !strings.Contains(r.Header.Get("Location"), "already+linked") {
			t.Fatalf("another player took the channel: %s", r.Header.Get("Location"))
		}
	})
	t.Run("UnlinkErasesTokens", func(t *testing.T) {
		if r := s.Do(t, "DELETE", "/api/me/channels/twitch", tok, nil); r.Status != 200 {
			t.Fatalf("unlink: %d %s", r.Status, r.Body)
		}
		var n int
		s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM stream_channels WHERE tokens IS NOT NULL`).Scan(&n)
		if n != 0 {
			t.Fatalf("%d channels keep tokens after the unlink", n)
		}
		if r := s.Do(t, "DELETE", "/api/me/channels/twitch", tok, nil); r.Status != 404 {
			t.Fatalf("second unlink: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "DELETE", "/api/me/channels/twitch", "", nil); r.Status != 401 {
			t.Fatalf("unlink signed out: %d", r.Status)
		}
	})
	t.Run("ErasedWithTheAccount", func(t *testing.T) {
		link(t, tok, acct.ID)
		if r := s.Do(t, "DELETE", "/api/me", tok, map[string]string{"password": testkit.Password}); r.Status != 200 {
			t.Fatalf("delete account: %d %s", r.Status, r.Body)
		}
		var n int
		s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM stream_channels WHERE channel_id = $1`, acct.ID).Scan(&n)
		if n != 0 {
			t.Fatal("the erased account's channel and tokens are kept")
		}
	})
}

func TestTwitchEventSub(t *testing.T) {
	admin := testkit.UniqueEmail("org")
	s, tw := streamsServer(t, admin)
	org := s.SignUp(t, admin, "org")
	cast := tw.AddAccount(testkit.TwitchID(10), "pitlanecast")

	if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/channels/twitch/pitlanecast", org, nil); r.Status != 200 || r.JSON["official"] != true {
		t.Fatalf("add official channel: %d %s", r.Status, r.Body)
	}
	player := s.SignUp(t, testkit.UniqueEmail("player"), "player")
	if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/channels/twitch/pitlanecast", player, nil); r.Status != 403 {
		t.Fatalf("a player added an official channel: %d", r.Status)
	}
	if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/channels/twitch/nobody_here", org, nil); r.Status != 404 {
		t.Fatalf("an unknown channel: %d %s", r.Status, r.Body)
	}
	poll(t, s) // subscribes
	if subs := tw.Subs(); len(subs) != 2 {
		t.Fatalf("subscriptions after the poll: %+v", subs)
	}
	if code, body := status(t, tw.Verify("stream.online", cast.ID, "pogchamp-kappa")); code != 200 || body != "pogchamp-kappa" {
		t.Fatalf("verification: %d %q", code, body)
	}

	ws := testkit.DialWS(t, s.URL, "")
	ws.Subscribe(nil, "streams")
	ws.Sync()

	t.Run("ErrWrongSignature", func(t *testing.T) {
		if code, _ := status(t, tw.Send("stream.online", cast.ID, testkit.EventSub{Secret: "not-the-secret-at-all"})); code != 403 {
			t.Fatalf("wrong signature: %d", code)
		}
		if code, _ := status(t, tw.Send("stream.online", cast.ID, testkit.EventSub{Signature: "sha256=00"})); code != 403 {
			t.Fatalf("garbled signature: %d", code)
		}
		if st := listed(t, s, "pitlanecast"); st["live"] != false {
			t.Fatalf("a forged message set live: %v", st)
		}
	})
	t.Run("ErrOldTimestamp", func(t *testing.T) {
		if code, _ := status(t, tw.Send("stream.online", cast.ID, testkit.EventSub{At: time.Now().Add(-11 * time.Minute)})); code != 400 {
			t.Fatalf("old message: %d", code)
		}
		if st := listed(t, s, "pitlanecast"); st["live"] != false {
			t.Fatalf("an old message set live: %v", st)
		}
	})
	t.Run("OnlineSetsLiveAndPublishes", func(t *testing.T) {
		tw.GoLive(cast.ID, "PPL7 grand final", 321)
		start := time.Now()
		if code, body := status(t, tw.Send("stream.online", cast.ID, testkit.EventSub{ID: "msg-online-1"})); code != 204 {
			t.Fatalf("online: %d %s", code, body)
		}
		f := ws.WaitEvent("streams", streams.EventChanged, 5*time.Second)
		if f.Data["channel"] != "pitlanecast" || f.Data["live"] != true || f.Data["official"] != true {
			t.Fatalf("event: %+v", f.Data)
		}
		if time.Since(start) > 2*time.Second {
			t.Fatalf("the event took %v", time.Since(start))
		}
		if st := listed(t, s, "pitlanecast"); st["live"] != true {
			t.Fatalf("listed: %v", st)
		}
	})
	t.Run("ReplayedIDIgnored", func(t *testing.T) {
		// The same message id again, now as an offline: a retry changes nothing.
		if code, _ := status(t, tw.Send("stream.offline", cast.ID, testkit.EventSub{ID: "msg-online-1"})); code != 204 {
			t.Fatalf("replay: %d", code)
		}
		if st := listed(t, s, "pitlanecast"); st["live"] != true {
			t.Fatalf("a replayed id changed the state: %v", st)
		}
	})
	t.Run("PollReadsTitleAndViewers", func(t *testing.T) {
		poll(t, s)
		st := listed(t, s, "pitlanecast")
		if st["title"] != "PPL7 grand final" || st["viewers"] != float64(321) || st["stale"] != false {
			t.Fatalf("after the poll: %v", st)
		}
	})
	t.Run("LostNotificationCaughtByPoll", func(t *testing.T) {
		// The stream ends on Twitch and the offline notification is lost.
		tw.GoOffline(cast.ID)
		s.DB.Pool.Exec(context.Background(), `UPDATE stream_channels SET changed_at = now() - interval '5 minutes'`)
		poll(t, s)
		if st := listed(t, s, "pitlanecast"); st["live"] != false {
			t.Fatalf("the poll missed the end: %v", st)
		}
		// A player goes live with no notification at all.
		p := tw.AddAccount(testkit.TwitchID(11), "driftking")
		s.DB.Pool.Exec(context.Background(), `INSERT INTO stream_channels (platform, channel_id, login) VALUES ('twitch', $1, $2)`, p.ID, p.Login)
		s.DB.Pool.Exec(context.Background(), `INSERT INTO tournament_channels (tournament_id, channel_id)
			SELECT t.id, c.id FROM tournaments t, stream_channels c WHERE t.name = 'PPL7' AND c.login = 'driftking'`)
		tw.GoLive(p.ID, "scrims", 12)
		poll(t, s)
		if st := listed(t, s, "driftking"); st == nil || st["live"] != true || st["title"] != "scrims" {
			t.Fatalf("the poll missed a live stream: %v", st)
		}
	})
	t.Run("TwitchDownDegradesOnlyStreams", func(t *testing.T) {
		tw.Down(true)
		defer tw.Down(false)
		s.DB.Pool.Exec(context.Background(), `UPDATE stream_channels SET checked_at = now() - interval '5 minutes'`)
		poll(t, s)
		st := listed(t, s, "driftking")
		if st == nil || st["live"] != true || st["stale"] != true || st["checked_at"] == nil {
			t.Fatalf("the last known state is not shown as such: %v", st)
		}
		if r := s.Do(t, "GET", "/api/config", "", nil); r.Status != 200 {
			t.Fatalf("the site went down with Twitch: %d", r.Status)
		}
		if r := s.Do(t, "PUT", "/api/admin/tournaments/PPL7/channels/twitch/kartqueen", org, nil); r.Status != 502 {
			t.Fatalf("adding a channel with Twitch down: %d %s", r.Status, r.Body)
		}
	})
	t.Run("RevocationDropsTheSubscription", func(t *testing.T) {
		if code, _ := status(t, tw.Revoke("stream.offline", cast.ID, "notification_failures_exceeded")); code != 204 {
			t.Fatalf("revocation: %d", code)
		}
		var n int
		s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM eventsub_subscriptions e JOIN stream_channels c ON c.id = e.channel_id
			WHERE c.login = 'pitlanecast' AND e.type = 'stream.offline'`).Scan(&n)
		if n != 0 {
			t.Fatal("a revoked subscription is still held")
		}
	})
	t.Run("RemoveOfficial", func(t *testing.T) {
		if r := s.Do(t, "DELETE", "/api/admin/tournaments/PPL7/channels/twitch/pitlanecast", org, nil); r.Status != 204 {
			t.Fatalf("remove: %d %s", r.Status, r.Body)
		}
		if st := listed(t, s, "pitlanecast"); st != nil {
			t.Fatalf("a removed channel is listed: %v", st)
		}
		if r := s.Do(t, "DELETE", "/api/admin/tournaments/PPL7/channels/twitch/pitlanecast", org, nil); r.Status != 404 {
			t.Fatalf("remove twice: %d", r.Status)
		}
	})
}

// TestTwitchPollAsksAHundredAtATime: Helix takes at most 100 ids a call.
func TestTwitchPollAsksAHundredAtATime(t *testing.T) {
	s, tw := streamsServer(t)
	for i := range 150 {
		a := tw.AddAccount(testkit.TwitchID(1000+i), "racer"+testkit.TwitchID(i))
		if _, err := s.DB.Pool.Exec(context.Background(), `INSERT INTO stream_channels (platform, channel_id, login, subscribe_after)
			VALUES ('twitch', $1, $2, 'infinity')`, a.ID, a.Login); err != nil {
			t.Fatal(err)
		}
	}
	tw.GoLive(testkit.TwitchID(1149), "last of the list", 3)
	var n int // the package's database may hold other tests' channels too
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM stream_channels`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	tw.ResetCalls()
	poll(t, s)
	// Every poll asks for 100 ids and then the rest; the minute's job may have polled beside the
	// test's own poll, so the calls are one or more such rounds, in any order.
	want := []int{100, n - 100}
	calls := tw.Calls()
	rounds := len(calls) / 2
	if n > 200 || rounds == 0 || len(calls) != 2*rounds ||
		countOf(calls, want[0]) != rounds || countOf(calls, want[1]) != rounds {
		t.Fatalf("GET /streams calls: %v for %d channels, want rounds of %v", calls, n, want)
	}
	if st := listed(t, s, "racer"+testkit.TwitchID(149)); st == nil || st["live"] != true {
		t.Fatalf("the 150th channel: %v", st)
	}
}

// countOf counts v in xs.
func countOf(xs []int, v int) int {
	n := 0
	for _, x := range xs {
		if x == v {
			n++
		}
	}
	return n
}

func decodeList(b []byte) ([]map[string]any, error) {
	var list []map[string]any
	return list, json.Unmarshal(b, &list)
}

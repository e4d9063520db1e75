package api_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/demo"
	"github.com/pitlane/pitlane/internal/testkit"
)

// auditCount is how many entries of action the log holds about userID.
func auditCount(t *testing.T, s *testkit.Server, action string, userID int64) int {
	t.Helper()
	var n int
	if err := s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE action = $1 AND subject_id = $2`,
		action, userID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func sanction(t *testing.T, s *testkit.Server, token string, body map[string]any) int64 {
	t.Helper()
	r := s.Do(t, "POST", "/api/admin/sanctions", token, body)
	if r.Status != 201 {
		t.Fatalf("sanction %v: %d %s", body, r.Status, r.Body)
	}
	return int64(r.JSON["sanction"].(map[string]any)["id"].(float64))
}

func TestAReportReachesItsTournamentsQueueWithItsContext(t *testing.T) {
	s, login := leagueServer(t, "registration")
	admin := login(demo.AdminEmail)
	reporter := s.SignUp(t, testkit.UniqueEmail("reporter"), "reporter")
	cheat := s.SignUp(t, testkit.UniqueEmail("cheat"), "rude.name")
	s.SaveStats(t, cheat)
	if r := s.Do(t, "POST", "/api/tournament/register", cheat, map[string]string{"tournamentName": "PPL7"}); r.Status != 200 {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	cheatID := userID(t, s, cheat)
	report := map[string]any{"kind": "profile", "id": cheatID, "reason": "offensive name"}

	t.Run("Filed", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/reports", reporter, report); r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("OnceWhileOpen", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/reports", reporter, report); r.Status != 409 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("SignedInOnly", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/reports", "", report); r.Status != 401 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("NothingThereIsNotFound", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/reports", reporter, map[string]any{"kind": "team", "id": 999999, "reason": "bad name"}); r.Status != 404 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("PlayersCannotReadTheQueue", func(t *testing.T) {
		for _, q := range []string{"", "?tournament=PPL7"} {
			if r := s.Do(t, "GET", "/api/admin/reports"+q, reporter, nil); r.Status != 403 {
				t.Errorf("%q: %d", q, r.Status)
			}
		}
	})
	var id int64
	t.Run("InTheTournamentsQueueWithContext", func(t *testing.T) {
		r := s.Do(t, "GET", "/api/admin/reports?tournament=PPL7", admin, nil)
		reps := r.JSON["reports"].([]any)
		if r.Status != 200 || len(reps) != 1 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		rep := reps[0].(map[string]any)
		ctx := rep["context"].(map[string]any)
		if rep["reason"] != "offensive name" || int64(rep["user_id"].(float64)) != cheatID || ctx["discord"] != "rude.name" || rep["tournament"] != "PPL7" {
			t.Fatalf("%v", rep)
		}
		if strings.Contains(string(r.Body), "@") {
			t.Fatal("the queue shows an e-mail address")
		}
		id = int64(rep["id"].(float64))
	})
	t.Run("PagedByCursor", func(t *testing.T) {
		var teamID int64
		if err := s.DB.Pool.QueryRow(context.Background(), `SELECT id FROM teams WHERE letter = 'A'`).Scan(&teamID); err != nil {
			t.Fatal(err)
		}
		if r := s.Do(t, "POST", "/api/reports", reporter, map[string]any{"kind": "team", "id": teamID, "reason": "slur in team name"}); r.Status != 201 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		first := s.Do(t, "GET", "/api/admin/reports?limit=1", admin, nil)
		next, _ := first.JSON["next"].(string)
		if len(first.JSON["reports"].([]any)) != 1 || next == "" {
			t.Fatalf("%s", first.Body)
		}
		second := s.Do(t, "GET", "/api/admin/reports?limit=1&cursor="+next, admin, nil)
		a := first.JSON["reports"].([]any)[0].(map[string]any)["id"]
		b := second.JSON["reports"].([]any)[0].(map[string]any)["id"]
		if a == b || second.JSON["next"] != nil {
			t.Fatalf("pages %v then %v (%s)", a, b, second.Body)
		}
	})
	t.Run("ClosedOnceAndAudited", func(t *testing.T) {
		path := fmt.Sprintf("/api/admin/reports/%d/close", id)
		if r := s.Do(t, "POST", path, admin, map[string]string{"status": "resolved"}); r.Status != 200 {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", path, admin, map[string]string{"status": "dismissed"}); r.Status != 409 {
			t.Fatalf("again: %d %s", r.Status, r.Body)
		}
		var n int
		s.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM audit_log WHERE action = 'moderation.close_report'`).Scan(&n)
		if n != 1 {
			t.Fatalf("%d audit entries", n)
		}
		for _, rep := range s.Do(t, "GET", "/api/admin/reports?tournament=PPL7", admin, nil).JSON["reports"].([]any) {
			if int64(rep.(map[string]any)["id"].(float64)) == id {
				t.Fatalf("a closed report stays in the open queue: %v", rep)
			}
		}
		closed := s.Do(t, "GET", "/api/admin/reports?tournament=PPL7&status=resolved", admin, nil).JSON["reports"].([]any)
		if len(closed) != 1 {
			t.Fatalf("resolved: %v", closed)
		}
	})
}

func TestATournamentBanRefusesRegistrationWithItsReasonUntilLifted(t *testing.T) {
	s, login := leagueServer(t, "registration")
	admin := login(demo.AdminEmail)
	cheat := s.SignUp(t, testkit.UniqueEmail("cheat"), "cheat")
	s.SaveStats(t, cheat)
	cheatID := userID(t, s, cheat)
	until := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	id := sanction(t, s, admin, map[string]any{"user_id": cheatID, "kind": "tournament_ban", "tournament": "PPL7",
		"until": until.Format(time.RFC3339), "reason": "aimbot in qualifiers"})
	register := func() *testkit.Resp {
		return s.Do(t, "POST", "/api/tournament/register", cheat, map[string]string{"tournamentName": "PPL7"})
	}
	t.Run("Refused", func(t *testing.T) {
		r := register()
		if r.Status != 403 || !strings.Contains(r.Message(), "aimbot in qualifiers") || !strings.Contains(r.Message(), until.Format("2 Jan 2006")) {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("Audited", func(t *testing.T) {
		if n := auditCount(t, s, "moderation.sanction", cheatID); n != 1 {
			t.Fatalf("%d entries", n)
		}
	})
	t.Run("ShownToThePlayer", func(t *testing.T) {
		r := s.Do(t, "GET", "/api/me/sanctions", cheat, nil)
		list := r.JSON["sanctions"].([]any)
		if len(list) != 1 || list[0].(map[string]any)["reason"] != "aimbot in qualifiers" || list[0].(map[string]any)["state"] != "active" ||
			list[0].(map[string]any)["ends_at"] == nil {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("OnlyOrganisersSanction", func(t *testing.T) {
		other := s.SignUp(t, testkit.UniqueEmail("other"), "other")
		if r := s.Do(t, "POST", "/api/admin/sanctions", cheat, map[string]any{"user_id": userID(t, s, other), "kind": "site_ban", "reason": "revenge"}); r.Status != 403 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("LiftedOnceThenRegisters", func(t *testing.T) {
		path := fmt.Sprintf("/api/admin/sanctions/%d", id)
		if r := s.Do(t, "DELETE", path, admin, map[string]string{"reason": "appeal upheld"}); r.Status != 200 || r.JSON["sanction"].(map[string]any)["state"] != "lifted" {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "DELETE", path, admin, nil); r.Status != 409 {
			t.Fatalf("again: %d %s", r.Status, r.Body)
		}
		if n := auditCount(t, s, "moderation.lift", cheatID); n != 1 {
			t.Fatalf("%d lift entries", n)
		}
		if r := register(); r.Status != 200 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
}

func TestATournamentBanRefusesABidAndAMuteTheCaptainsRoom(t *testing.T) {
	s, login := leagueServer(t, "auction")
	admin, capA := login(demo.AdminEmail), login(demo.CaptainEmail("A"))
	capID := userID(t, s, capA)
	pool := s.Do(t, "GET", "/api/tournaments/PPL7/auction", "", nil).JSON["pool"].([]any)
	player := int(pool[0].(map[string]any)["user_id"].(float64))
	lot := int(s.Do(t, "POST", "/api/admin/tournaments/PPL7/auction/lots", admin, map[string]int{"userId": player, "basePrice": 1500}).
		JSON["lot"].(map[string]any)["id"].(float64))

	mute := sanction(t, s, admin, map[string]any{"user_id": capID, "kind": "mute", "tournament": "PPL7",
		"until": time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "reason": "flaming"})
	t.Run("MuteRefusesTheNextMessageWithItsEnd", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/tournaments/PPL7/captains/messages", capA, map[string]string{"text": "hello"})
		if r.Status != 403 || !strings.Contains(r.Message(), "muted until") || !strings.Contains(r.Message(), "flaming") {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("AMuteNeedsAnEnd", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/admin/sanctions", admin, map[string]any{"user_id": capID, "kind": "mute", "reason": "flaming"}); r.Status != 400 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("AMuteLeavesBidding", func(t *testing.T) {
		if r := s.Do(t, "POST", "/api/tournaments/PPL7/auction/bids", capA, map[string]int{"lotId": lot, "amount": 1500}); r.Status != 200 {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	s.Do(t, "DELETE", fmt.Sprintf("/api/admin/sanctions/%d", mute), admin, nil)
	sanction(t, s, admin, map[string]any{"user_id": capID, "kind": "tournament_ban", "reason": "match fixing"})
	t.Run("BanFromEveryTournamentRefusesABid", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/tournaments/PPL7/auction/bids", capA, map[string]int{"lotId": lot, "amount": 1600})
		if r.Status != 403 || !strings.Contains(r.Message(), "match fixing") || !strings.Contains(r.Message(), "every tournament") {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	})
	t.Run("OrganisersCannotBeSanctioned", func(t *testing.T) {
		r := s.Do(t, "POST", "/api/admin/sanctions", capA, map[string]any{"user_id": userID(t, s, admin), "kind": "site_ban", "reason": "nope"})
		if r.Status != 403 {
			t.Fatalf("%d", r.Status)
		}
	})
}

func TestASiteBanRefusesSignInAcrossIdentitiesAndDeletion(t *testing.T) {
	s, login := leagueServer(t, "registration")
	admin := login(demo.AdminEmail)
	email := testkit.UniqueEmail("banned")
	tok := s.SignUp(t, email, "banned")
	id := userID(t, s, tok)
	ctx := context.Background()
	// The player proved a Discord account (the OAuth flow's outcome).
	if _, err := s.DB.Pool.Exec(ctx, `UPDATE users SET discord_id = '555000111', discord_verified = true WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	until := time.Now().Add(30 * 24 * time.Hour).UTC()
	sanction(t, s, admin, map[string]any{"user_id": id, "kind": "site_ban", "until": until.Format(time.RFC3339), "reason": "harassing players"})
	refused := func(t *testing.T, r *testkit.Resp) {
		t.Helper()
		if r.Status != 403 || !strings.Contains(r.Message(), "harassing players") || !strings.Contains(r.Message(), until.Format("2 Jan 2006")) {
			t.Fatalf("%d %q", r.Status, r.Message())
		}
	}
	t.Run("OpenSessionsEnd", func(t *testing.T) {
		if r := s.Do(t, "GET", "/api/auth/profile", tok, nil); r.Status != 401 {
			t.Fatalf("%d", r.Status)
		}
	})
	t.Run("PasswordRefusedWithReasonAndEnd", func(t *testing.T) {
		refused(t, s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": testkit.Password}))
	})
	t.Run("GoogleOnTheSameAddressRefused", func(t *testing.T) {
		cred := s.Google.Sign(t, s.Google.Claims("sub-"+email, email))
		refused(t, s.Do(t, "POST", "/api/auth/google-login", "", map[string]string{"credential": cred}))
	})
	t.Run("RenamedAccountStillRefused", func(t *testing.T) {
		s.DB.Pool.Exec(ctx, `UPDATE users SET name = 'totally.new', discord_username = 'totally.new' WHERE id = $1`, id)
		refused(t, s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": testkit.Password}))
	})
	t.Run("NewAddressOnTheSameDiscordRefusedAfterDeletion", func(t *testing.T) {
		if _, err := s.DB.Pool.Exec(ctx, `DELETE FROM users WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
		fresh := testkit.UniqueEmail("fresh")
		s.SignUp(t, fresh, "fresh") // signs in before the Discord link: no ban on this address
		if _, err := s.DB.Pool.Exec(ctx, `UPDATE users SET discord_id = '555000111', discord_verified = true WHERE email = $1`, fresh); err != nil {
			t.Fatal(err)
		}
		refused(t, s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": fresh, "password": testkit.Password}))
	})
	t.Run("TheOldAddressAfterDeletionRefused", func(t *testing.T) {
		s.Age(t, email, 24*time.Hour) // past the address's cooldown
		before := s.Mail.Count(email)
		r := s.Do(t, "POST", "/api/auth/signup", "", map[string]string{
			"email": email, "password": testkit.Password, "confirmPassword": testkit.Password, "discordUsername": "again"})
		if r.Status != 201 {
			t.Fatalf("signup: %d %s", r.Status, r.Body)
		}
		code := s.Mail.OTP(t, email, before+1)
		if r := s.Do(t, "POST", "/api/auth/verify-otp", "", map[string]string{"email": email, "otp": code}); r.Status != 200 {
			t.Fatalf("verify: %d %s", r.Status, r.Body)
		}
		refused(t, s.Do(t, "POST", "/api/auth/login", "", map[string]string{"email": email, "password": testkit.Password}))
	})
	t.Run("OthersSignIn", func(t *testing.T) {
		s.SignUp(t, testkit.UniqueEmail("innocent"), "innocent")
	})
}

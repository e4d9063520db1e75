package moderation

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

func TestOnlyAnActiveSanctionIsEnforcedOrLifted(t *testing.T) {
	now := time.Date(2026, 12, 8, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Hour), now.Add(time.Hour)
	for _, c := range []struct {
		name  string
		s     Sanction
		state string
	}{
		{"UntilLifted", Sanction{}, Active},
		{"BeforeItsEnd", Sanction{EndsAt: &future}, Active},
		{"AtItsEnd", Sanction{EndsAt: &now}, Ended},
		{"AfterItsEnd", Sanction{EndsAt: &past}, Ended},
		{"LiftedEarly", Sanction{EndsAt: &future, LiftedAt: &past}, Lifted},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := c.s.StateAt(now)
			if st != c.state {
				t.Fatalf("state %s, want %s", st, c.state)
			}
			for _, act := range []Action{Enforce, Lift} {
				if allows(act, st) != (st == Active) {
					t.Errorf("%s in %s: %v", act, st, allows(act, st))
				}
			}
		})
	}
}

func TestOnlyAnOpenReportIsClosed(t *testing.T) {
	for st, want := range map[string]bool{Open: true, Resolved: false, Dismissed: false} {
		if allows(CloseQueue, st) != want {
			t.Errorf("close in %s: %v", st, !want)
		}
	}
}

func TestARefusalSaysWhyAndUntilWhen(t *testing.T) {
	end := time.Date(2027, 1, 2, 3, 4, 0, 0, time.UTC)
	for _, c := range []struct {
		s    Sanction
		want []string
	}{
		{Sanction{Kind: Mute, Reason: "spam", EndsAt: &end}, []string{"muted", "spam", "2 Jan 2027 03:04 UTC"}},
		{Sanction{Kind: TournamentBan, Tournament: "PPL7", Reason: "cheating"}, []string{"banned from PPL7", "cheating", "until an organiser lifts it"}},
		{Sanction{Kind: TournamentBan, Reason: "cheating"}, []string{"every tournament", "cheating"}},
		{Sanction{Kind: SiteBan, Reason: "harassment", EndsAt: &end}, []string{"banned from the site", "harassment", "2 Jan 2027"}},
	} {
		err := c.s.Refusal()
		if errs.KindOf(err) != errs.Forbidden {
			t.Errorf("%s: kind %s", c.s.Kind, errs.KindOf(err))
		}
		for _, w := range c.want {
			if !strings.Contains(errs.MessageOf(err), w) {
				t.Errorf("%s: %q lacks %q", c.s.Kind, errs.MessageOf(err), w)
			}
		}
	}
}

func TestATournamentsStaffSanctionInTheirTournamentOnly(t *testing.T) {
	staff := core.Actor{UserID: 5, Staff: []core.StaffGrant{{TournamentID: 7, Tournament: "PPL7"}}}
	admin := core.Actor{UserID: 1, Admin: true}
	for _, c := range []struct {
		name       string
		a          core.Actor
		kind       string
		tournament int64
		ok         bool
	}{
		{"StaffBanInTheirs", staff, TournamentBan, 7, true},
		{"StaffMuteInTheirs", staff, Mute, 7, true},
		{"StaffBanElsewhere", staff, TournamentBan, 8, false},
		{"StaffBanEverywhere", staff, TournamentBan, 0, false},
		{"StaffSiteBan", staff, SiteBan, 0, false},
		{"OrganiserSiteBan", admin, SiteBan, 0, true},
		{"OrganiserBanEverywhere", admin, TournamentBan, 0, true},
		{"Player", core.Actor{UserID: 9}, Mute, 7, false},
	} {
		if err := mayGive(c.a, c.kind, c.tournament); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestIdentityKeysNameNoAddressAndMatchAcrossAccounts(t *testing.T) {
	secret := []byte("k")
	a := Identity{UserID: 1, Email: "cheat@example.com", DiscordID: "123"}
	b := Identity{UserID: 2, Email: "new@example.com", DiscordID: "123"}
	ka, kb := a.Keys(secret), b.Keys(secret)
	shared := 0
	for _, x := range ka {
		if bytes.Contains(x, []byte("cheat")) {
			t.Fatal("a key holds the address")
		}
		for _, y := range kb {
			if bytes.Equal(x, y) {
				shared++
			}
		}
	}
	if shared != 1 {
		t.Fatalf("%d keys shared, want the Discord one", shared)
	}
	if !bytes.Equal(Identity{Email: " Cheat@Example.com"}.Keys(secret)[0], Identity{Email: "cheat@example.com"}.Keys(secret)[0]) {
		t.Fatal("the same address in another case is another key")
	}
}

package app_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/api"
	"github.com/pitlane/pitlane/internal/audit"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/matches"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/stats"
	"github.com/pitlane/pitlane/internal/testkit"
	"github.com/pitlane/pitlane/internal/tournament"
)

// who acts, in the order of the table's columns.
type who int

const (
	anonymous who = iota
	player
	captain      // of team A
	otherCaptain // of team B
	admin
)

func (w who) String() string {
	return [...]string{"anonymous", "player", "captain", "other team's captain", "admin"}[w]
}

// outcome is how the rules answer an actor: let through to the action's
// own rules (which may still say no for other reasons), or refused for who
// they are.
type outcome string

const (
	ok           outcome = "allowed"
	unauthorized outcome = "401"
	forbidden    outcome = "403"
)

var (
	public    = [5]outcome{ok, ok, ok, ok, ok}
	users     = [5]outcome{unauthorized, ok, ok, ok, ok}
	adminOnly = [5]outcome{unauthorized, forbidden, forbidden, forbidden, ok}
	captains  = [5]outcome{unauthorized, forbidden, ok, ok, ok}
	// bidders: captains bid, each for their own team; organisers run the
	// auction but do not bid.
	bidders = [5]outcome{unauthorized, forbidden, ok, ok, forbidden}
	// sides: the captains of a match's two sides (here team A's, against
	// team C); organisers rule on matches instead.
	sides = [5]outcome{unauthorized, forbidden, ok, forbidden, forbidden}
	// homeOrOrganisers: the home side's captain (team A's) and organisers.
	homeOrOrganisers = [5]outcome{unauthorized, forbidden, ok, forbidden, ok}
)

// matchAC is the id of the match between teams A and C the table plays on.
var matchAC int64

// action is one thing the product lets someone do, reached two ways: the
// service called directly (as the bot and the command line do) and HTTP.
type action struct {
	name    string
	want    [5]outcome
	service func(ctx context.Context, s *api.Server, a core.Actor) error
	method  string
	path    string
	body    any
}

// The authorization table: every action of the product so far, for each
// kind of actor. A captain acts for their own team only (a bid is their
// team's); the two captains are told apart by the match actions to come.
var actions = []action{
	{"read the player list", public, func(ctx context.Context, s *api.Server, _ core.Actor) error {
		t, err := s.Tournaments.Find(ctx, "PPL7")
		if err == nil {
			_, err = s.Tournaments.Registrations(ctx, t)
		}
		return err
	}, "GET", "/api/tournament/registrations?tournamentName=PPL7", nil},
	{"read the teams", public, func(ctx context.Context, s *api.Server, _ core.Actor) error {
		_, _, err := s.Tournaments.Teams(ctx, "PPL7")
		return err
	}, "GET", "/api/tournament/teams", nil},
	{"read the deck", public, func(ctx context.Context, s *api.Server, _ core.Actor) error {
		_, err := s.Deck.Current(ctx)
		return err
	}, "GET", "/api/deck", nil},
	{"read a screenshot", public, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Uploads.Read(ctx, a, []byte("not an image"))
		return err
	}, "", "", nil},
	{"see the own profile", users, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Accounts.Profile(ctx, a)
		return err
	}, "GET", "/api/auth/profile", nil},
	{"link a Discord name", users, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Accounts.UpdateDiscord(ctx, a, "")
		return err
	}, "POST", "/api/auth/update-discord-username", map[string]string{"discordUsername": ""}},
	{"change the password", users, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Accounts.ChangePassword(ctx, accounts.Authenticated{Actor: a}, "not-the-password", "new-password-1", "new-password-1")
		return err
	}, "POST", "/api/auth/change-password", map[string]string{"currentPassword": "not-the-password", "newPassword": "new-password-1", "confirmPassword": "new-password-1"}},
	{"save stats", users, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Stats.Save(ctx, a, stats.SaveInput{Kills: -1})
		return err
	}, "POST", "/api/stats/save", map[string]any{"kills": -1}},
	{"read the own stats", users, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Stats.Get(ctx, a)
		return err
	}, "GET", "/api/stats/get", nil},
	{"delete the own stats", users, func(ctx context.Context, s *api.Server, a core.Actor) error {
		return s.Stats.Delete(ctx, a)
	}, "DELETE", "/api/stats/delete", nil},
	{"register", users, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Tournaments.Register(ctx, a, "NO-SUCH-CUP")
		return err
	}, "POST", "/api/tournament/register", map[string]string{"tournamentName": "NO-SUCH-CUP"}},
	{"unregister", users, func(ctx context.Context, s *api.Server, a core.Actor) error {
		return s.Tournaments.Unregister(ctx, a, "NO-SUCH-CUP")
	}, "POST", "/api/tournament/unregister", map[string]string{"tournamentName": "NO-SUCH-CUP"}},
	{"see the own registration", users, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Tournaments.IsRegistered(ctx, a, "PPL7")
		return err
	}, "GET", "/api/tournament/status?tournamentName=PPL7", nil},
	{"move the tournament's phase", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Tournaments.SetStatus(ctx, a, "PPL7", "registration", false)
		return err
	}, "POST", "/api/admin/tournaments/PPL7/status", map[string]string{"status": "registration"}},
	{"move the presenter's deck", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Deck.Move(ctx, a, 2)
		return err
	}, "POST", "/api/deck", map[string]int{"slide": 2}},
	{"read the audit log", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Audit.List(ctx, a, audit.Query{Tournament: "PPL7", Limit: 5})
		return err
	}, "GET", "/api/admin/audit?tournament=PPL7&limit=5", nil},
	{"watch the auction", public, func(ctx context.Context, s *api.Server, _ core.Actor) error {
		_, err := s.Auction.State(ctx, "PPL7")
		return err
	}, "GET", "/api/tournaments/PPL7/auction", nil},
	{"read the league's teams", public, func(ctx context.Context, s *api.Server, _ core.Actor) error {
		_, err := s.Auction.Teams(ctx, "PPL7")
		return err
	}, "GET", "/api/tournaments/PPL7/teams", nil},
	{"bid in the auction", bidders, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Auction.Bid(ctx, a, "PPL7", 999_999, 1100)
		return err
	}, "POST", "/api/tournaments/PPL7/auction/bids", map[string]int{"lotId": 999_999, "amount": 1100}},
	{"open a lot", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Auction.OpenLot(ctx, a, "PPL7", 999_999, 0)
		return err
	}, "POST", "/api/admin/tournaments/PPL7/auction/lots", map[string]int{"userId": 999_999}},
	{"close a lot", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Auction.Close(ctx, a, "PPL7", 999_999)
		return err
	}, "POST", "/api/admin/tournaments/PPL7/auction/lots/999999/close", nil},
	{"void a sale", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Auction.Void(ctx, a, "PPL7", 999_999)
		return err
	}, "POST", "/api/admin/tournaments/PPL7/auction/lots/999999/void", nil},
	{"name a captain", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Auction.SetCaptain(ctx, a, "PPL7", "H", 999_999)
		return err
	}, "PUT", "/api/admin/tournaments/PPL7/teams/H/captain", map[string]int{"userId": 999_999}},
	{"set a player's tier", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Auction.SetTier(ctx, a, "PPL7", 999_999, 2)
		return err
	}, "PUT", "/api/admin/tournaments/PPL7/players/999999/tier", map[string]int{"tier": 2}},
	{"read the captains room", captains, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Room.History(ctx, a, "PPL7")
		return err
	}, "GET", "/api/tournaments/PPL7/captains/messages", nil},
	{"speak in the captains room", captains, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Room.Post(ctx, a, "PPL7", "")
		return err
	}, "POST", "/api/tournaments/PPL7/captains/messages", map[string]string{"text": ""}},
	{"see the bracket", public, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.Bracket(ctx, a, "PPL7")
		return err
	}, "GET", "/api/tournaments/PPL7/bracket", nil},
	{"read the Points Table", public, func(ctx context.Context, s *api.Server, _ core.Actor) error {
		_, err := s.Matches.Standings(ctx, "PPL7")
		return err
	}, "GET", "/api/tournaments/PPL7/standings", nil},
	{"read the Red Cap", public, func(ctx context.Context, s *api.Server, _ core.Actor) error {
		_, err := s.Matches.RedCapOf(ctx, "PPL7")
		return err
	}, "GET", "/api/tournaments/PPL7/red-cap", nil},
	{"list the seasons", public, func(ctx context.Context, s *api.Server, _ core.Actor) error {
		_, err := s.Tournaments.Tournaments(ctx)
		return err
	}, "GET", "/api/tournaments", nil},
	{"open a new season", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Tournaments.Create(ctx, a, tournament.NewTournament{Name: "!"})
		return err
	}, "POST", "/api/admin/tournaments", map[string]string{"name": "!"}},
	{"make the fixtures", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.Generate(ctx, a, "PPL7", "")
		return err
	}, "POST", "/api/admin/tournaments/PPL7/bracket", map[string]string{"format": "round_robin"}},
	{"post a match's room", sides, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.PostRoom(ctx, a, matchAC, "")
		return err
	}, "POST", "/api/matches/{AC}/room", map[string]string{"room": ""}},
	{"set a match's time", homeOrOrganisers, func(ctx context.Context, s *api.Server, a core.Actor) error {
		past := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
		_, err := s.Matches.SetTime(ctx, a, matchAC, &past)
		return err
	}, "POST", "/api/matches/{AC}/time", map[string]string{"at": "2000-01-01T00:00:00Z"}},
	{"pick a lineup", sides, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.SetLineup(ctx, a, matchAC, nil)
		return err
	}, "POST", "/api/matches/{AC}/lineup", map[string]any{"players": []int{}}},
	{"upload a match's proof", sides, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.UploadProof(ctx, a, matchAC, []byte("not an image"))
		return err
	}, "", "", nil},
	{"report a result", sides, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.ReportResult(ctx, a, matchAC, matches.ReportInput{Report: matches.Report{Winner: "Z"}})
		return err
	}, "POST", "/api/matches/{AC}/report", map[string]any{"winner": "Z", "players": []any{}}},
	{"confirm a result", sides, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.Confirm(ctx, a, matchAC)
		return err
	}, "POST", "/api/matches/{AC}/confirm", nil},
	{"dispute a result", sides, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.Dispute(ctx, a, matchAC, "the host left")
		return err
	}, "POST", "/api/matches/{AC}/dispute", map[string]string{"reason": "the host left"}},
	{"rule on a match", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.Resolve(ctx, a, matchAC, matches.Report{Winner: "Z"})
		return err
	}, "POST", "/api/admin/matches/{AC}/resolve", map[string]any{"winner": "Z", "players": []any{}}},
	{"forfeit a match", sides, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.Forfeit(ctx, a, matchAC)
		return err
	}, "POST", "/api/matches/{AC}/forfeit", nil},
	{"forfeit a side for it", adminOnly, func(ctx context.Context, s *api.Server, a core.Actor) error {
		_, err := s.Matches.ForfeitFor(ctx, a, matchAC, "Z")
		return err
	}, "POST", "/api/admin/matches/{AC}/forfeit", map[string]string{"team": "Z"}},
	{"follow the captains room", captains, func(_ context.Context, _ *api.Server, a core.Actor) error {
		_, err := a.MayFollow(core.CaptainsTopic("PPL7"))
		return err
	}, "", "", nil},
}

// classify tells a refusal for who the caller is from any other answer.
func classify(kind, msg string) outcome {
	switch {
	case kind == errs.Forbidden:
		return forbidden
	case kind == errs.Unauthorized && (msg == core.ErrUnauthenticated.Message || msg == stats.MsgLoginToSave):
		return unauthorized
	}
	return ok
}

func TestAuthorizationTable(t *testing.T) {
	db := pgtest.DB(t)
	ctx := context.Background()
	adminEmail := testkit.UniqueEmail("organiser")
	s := testkit.NewServer(t, db, testkit.Options{Admins: []string{adminEmail}})

	emails := [5]string{"", testkit.UniqueEmail("player"), testkit.UniqueEmail("captain-a"), testkit.UniqueEmail("captain-b"), adminEmail}
	var tokens [5]string
	var actors [5]core.Actor
	for w := player; w <= admin; w++ {
		tokens[w] = s.SignUp(t, emails[w], fmt.Sprintf("racer_%d", w))
	}
	for w, letter := range map[who]string{captain: "A", otherCaptain: "B"} {
		if _, err := db.Pool.Exec(ctx, `UPDATE teams SET captain_user_id = (SELECT id FROM users WHERE email = $1)
			WHERE letter = $2 AND tournament_id = (SELECT id FROM tournaments WHERE name = 'PPL7')`,
			emails[w], letter); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Pool.QueryRow(ctx, `INSERT INTO matches (tournament_id, stage, round_number, slot, team1_id, team2_id)
		SELECT t.id, 'league', 1, 0, a.id, c.id FROM tournaments t
		  JOIN teams a ON a.tournament_id = t.id AND a.letter = 'A' JOIN teams c ON c.tournament_id = t.id AND c.letter = 'C'
		 WHERE t.name = 'PPL7' RETURNING id`).Scan(&matchAC); err != nil {
		t.Fatal(err)
	}
	for w := player; w <= admin; w++ {
		au, err := s.App.Server.Accounts.Authenticate(ctx, tokens[w])
		if err != nil {
			t.Fatal(err)
		}
		actors[w] = au.Actor
	}
	if actors[captain].Role() != core.RoleCaptain || actors[admin].Role() != core.RoleAdmin || actors[player].Role() != core.RoleUser {
		t.Fatalf("roles: %s %s %s", actors[player].Role(), actors[captain].Role(), actors[admin].Role())
	}

	for _, act := range actions {
		t.Run(act.name, func(t *testing.T) {
			for w := anonymous; w <= admin; w++ {
				err := act.service(ctx, s.App.Server, actors[w])
				if got := classify(errs.KindOf(err), errs.MessageOf(err)); got != act.want[w] {
					t.Errorf("service, %s: %s (%v), want %s", w, got, err, act.want[w])
				}
				if act.path == "" {
					continue
				}
				r := s.Do(t, act.method, strings.ReplaceAll(act.path, "{AC}", fmt.Sprint(matchAC)), tokens[w], act.body)
				got := ok
				if r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden {
					got = classify(map[int]string{401: errs.Unauthorized, 403: errs.Forbidden}[r.Status], r.Message())
				}
				if got != act.want[w] {
					t.Errorf("HTTP %s %s, %s: %d %q, want %s", act.method, act.path, w, r.Status, r.Message(), act.want[w])
				}
			}
		})
	}
	t.Run("follow the captains room over the websocket", func(t *testing.T) {
		for w := anonymous; w <= admin; w++ {
			ws := testkit.DialWS(t, s.URL, tokens[w])
			ws.Subscribe(nil, core.CaptainsTopic("PPL7"))
			got := ws.Sync()
			allowed := len(got) == 0
			if allowed != (captains[w] == ok) {
				t.Errorf("%s: answered %+v, want allowed=%v", w, got, captains[w] == ok)
			}
		}
	})
}

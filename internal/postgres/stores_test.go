package postgres_test

import (
	"context"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pitlane/pitlane/internal/accounts"
	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
	"github.com/pitlane/pitlane/internal/tournament"
)

// wantErr checks an error's kind and, when given, its message.
func wantErr(t *testing.T, what string, err error, kind, msg string) {
	t.Helper()
	if errs.KindOf(err) != kind || (msg != "" && errs.MessageOf(err) != msg) {
		t.Errorf("%s: got %s %q (%v), want %s %q", what, errs.KindOf(err), errs.MessageOf(err), err, kind, msg)
	}
}

// user makes a verified account, with a Discord name and stats when asked.
func user(t *testing.T, db *postgres.DB, discord string, withStats bool) int64 {
	t.Helper()
	ctx := context.Background()
	var id int64
	if err := db.Pool.QueryRow(ctx, `INSERT INTO users (email, email_verified, discord_username) VALUES ($1, true, nullif($2, ''))
		RETURNING id`, testkit.UniqueEmail("store"), discord).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if withStats {
		if _, err := (postgres.Stats{DB: db}).SaveStats(ctx, id, core.Stats{Kills: 10, Deaths: 5, KD: 2, Category: 1}); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// Each store answers with the error kinds its interface promises: a
// conflict, a not-found or a refusal the API turns into the right status.
func TestStoreErrors(t *testing.T) {
	db := freshDB(t)
	ctx := context.Background()

	t.Run("Accounts", func(t *testing.T) {
		s := postgres.Accounts{DB: db}
		_, err := s.FindUserByID(ctx, 999_999)
		wantErr(t, "unknown id", err, errs.NotFound, "")
		_, err = s.FindUserByEmail(ctx, "nobody@example.com")
		wantErr(t, "unknown e-mail", err, errs.NotFound, "")
		verified := user(t, db, "verified", false)
		u, _ := s.FindUserByID(ctx, verified)
		if again, err := s.UpsertUnverified(ctx, []byte("address of "+u.Email), u.Email, "hash", "someone"); err != nil ||
			again.ID != u.ID || !again.EmailVerified || again.PasswordHash != u.PasswordHash || again.DiscordUsername != u.DiscordUsername {
			t.Errorf("sign-up over a verified account: %+v, %v; want the account unchanged", again, err)
		}
		if _, err := s.UpsertGoogleUser(ctx, []byte("g1"), "google-1", testkit.UniqueEmail("g1"), "G One"); err != nil {
			t.Fatal(err)
		}
		_, err = s.UpsertGoogleUser(ctx, []byte("g2"), "google-1", testkit.UniqueEmail("g2"), "G Two")
		wantErr(t, "a Google account on a second address", err, errs.Conflict, "This Google account is linked to another Pitlane account.")
		_, err = s.UpdateDiscordUsername(ctx, 999_999, "ghost")
		wantErr(t, "rename an unknown account", err, errs.NotFound, "")
		_, err = s.UpdatePassword(ctx, 999_999, "hash")
		wantErr(t, "password of an unknown account", err, errs.NotFound, "")
		check := accounts.CodeCheck{Address: []byte("no code yet"), MaxAttempts: 2, Cooldown: accounts.Cooldown,
			Match: func(int64, []byte) bool { return true }, Accept: func(accounts.User, bool) (accounts.Claim, error) { return accounts.Claim{}, nil }}
		for i, want := range []accounts.CodeResult{{Outcome: accounts.CodeWrong, Left: 1}, {Outcome: accounts.CodeWrong}, {Outcome: accounts.CodeDead}} {
			if res, err := s.CheckCode(ctx, check); err != nil || res != want {
				t.Errorf("try %d of an address without a code: %+v %v, want %+v", i+1, res, err, want)
			}
		}
	})

	t.Run("Tournaments", func(t *testing.T) {
		s := postgres.Tournaments{DB: db}
		_, err := s.FindTournament(ctx, "NO-SUCH-CUP")
		wantErr(t, "unknown tournament", err, errs.NotFound, "Tournament NO-SUCH-CUP not found")
		_, err = s.SetStatus(ctx, "NO-SUCH-CUP", "auction")
		wantErr(t, "status of an unknown tournament", err, errs.NotFound, "")
		ppl, err := s.FindTournament(ctx, "PPL7")
		if err != nil {
			t.Fatal(err)
		}
		err = s.Register(ctx, ppl.ID, user(t, db, "", true), tournament.Confirmed, time.Now())
		wantErr(t, "register without Discord", err, errs.Invalid, tournament.MsgNoDiscord)
		err = s.Register(ctx, ppl.ID, user(t, db, "no_stats", false), tournament.Confirmed, time.Now())
		wantErr(t, "register without stats", err, errs.Invalid, tournament.MsgNoStats)
		p := user(t, db, "ready", true)
		if err := s.Register(ctx, ppl.ID, p, tournament.Confirmed, time.Now()); err != nil {
			t.Fatal(err)
		}
		wantErr(t, "register twice", s.Register(ctx, ppl.ID, p, tournament.Confirmed, time.Now()), errs.Conflict, tournament.MsgAlreadyRegistered)
		wantErr(t, "delete the stats of a registered player", (postgres.Stats{DB: db}).DeleteStats(ctx, p), errs.Conflict, "")
		other := user(t, db, "other", true)
		_, err = s.Unregister(ctx, ppl.ID, other)
		wantErr(t, "unregister someone not registered", err, errs.Conflict, tournament.MsgNotRegistered)
		_, err = s.RegisteredPlayer(ctx, ppl.ID, other)
		wantErr(t, "card of someone not registered", err, errs.NotFound, "")
		if _, err := s.SetStatus(ctx, "PPL7", "auction"); err != nil {
			t.Fatal(err)
		}
		defer s.SetStatus(ctx, "PPL7", "registration")
		wantErr(t, "register once closed", s.Register(ctx, ppl.ID, other, tournament.Confirmed, time.Now()), errs.Conflict, "Registration for PPL7 is closed.")
		_, err = s.Unregister(ctx, ppl.ID, p)
		wantErr(t, "unregister once closed", err, errs.Conflict,
			"Registration for PPL7 is closed; ask an organiser to withdraw you.")
	})

	t.Run("Stats", func(t *testing.T) {
		s := postgres.Stats{DB: db}
		if st, err := s.FindStats(ctx, user(t, db, "no_stats_yet", false)); st != nil || err != nil {
			t.Fatalf("stats of a player without: %v %v, want nil, nil", st, err)
		}
	})

	t.Run("Images", func(t *testing.T) {
		_, err := (postgres.Images{DB: db}).FindImage(ctx, "0000")
		wantErr(t, "unknown image", err, errs.NotFound, "Image not found")
	})

	t.Run("Deck", func(t *testing.T) {
		s := postgres.Deck{DB: db}
		if err := s.SetSlide(ctx, 11); err == nil {
			t.Fatal("slide 11 stored")
		}
		if n, err := s.Slide(ctx); err != nil || n < 1 || n > 10 {
			t.Fatalf("slide %d %v", n, err)
		}
	})
}

// With PostgreSQL unreachable, every store says so (503), and nothing is
// half-written: a unit of work that fails leaves nothing behind.
func TestStoresWhenTheDatabaseIsDown(t *testing.T) {
	pgtest.DB(t)
	u, err := url.Parse(pgtest.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := testkit.NewProxy(t, u.Host)
	u.Host = proxy.Addr
	db, err := postgres.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	ctx := context.Background()
	proxy.Cut()
	calls := map[string]func() error{
		"accounts": func() error { _, err := (postgres.Accounts{DB: db}).FindUserByID(ctx, 1); return err },
		"stats":    func() error { _, err := (postgres.Stats{DB: db}).FindStats(ctx, 1); return err },
		"tournaments": func() error {
			_, err := (postgres.Tournaments{DB: db}).FindTournament(ctx, "PPL7")
			return err
		},
		"deck":   func() error { _, err := (postgres.Deck{DB: db}).Slide(ctx); return err },
		"images": func() error { _, err := (postgres.Images{DB: db}).FindImage(ctx, "x"); return err },
		"audit":  func() error { _, err := (postgres.Audit{DB: db}).List(ctx, core.AuditFilter{}); return err },
		"outbox": func() error { _, err := (postgres.Outbox{DB: db}).Seq(ctx, core.TopicDeck); return err },
		"unit of work": func() error {
			return db.Transact(ctx, func(ctx context.Context) error { return nil })
		},
	}
	for name, call := range calls {
		wantErr(t, name, call(), errs.Unavailable, "The database is unavailable. Please try again shortly.")
	}
}

// Guesses at a code made at the same moment count one by one: of twenty
// parallel wrong guesses, exactly the allowed five are judged, the rest
// find the code dead.
func TestParallelCodeGuessesCountOneByOne(t *testing.T) {
	db := freshDB(t)
	ctx := context.Background()
	s := postgres.Accounts{DB: db}
	email := testkit.UniqueEmail("guessed")
	addr := []byte("address of " + email)
	u, err := s.UpsertUnverified(ctx, addr, email, "hash", "guessed")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IssueCode(ctx, accounts.CodeRequest{Address: addr, UserID: u.ID, Code: []byte("mac"), TTL: time.Minute,
		Cooldown: accounts.Cooldown}); err != nil {
		t.Fatal(err)
	}
	check := accounts.CodeCheck{Address: addr, MaxAttempts: 5, Cooldown: accounts.Cooldown,
		Match: func(int64, []byte) bool { return false }}
	var wg sync.WaitGroup
	results := make(chan accounts.CodeOutcome, 20)
	for range 20 {
		wg.Go(func() {
			res, err := s.CheckCode(ctx, check)
			if err != nil {
				t.Error(err)
			}
			results <- res.Outcome
		})
	}
	wg.Wait()
	close(results)
	judged := 0
	for o := range results {
		if o == accounts.CodeWrong {
			judged++
		}
	}
	if judged != 5 {
		t.Fatalf("%d guesses judged, want 5", judged)
	}
}

// Pruning deletes an image only when no column holds it: the list it
// checks must name every foreign key to images the schema has.
func TestImageUsesCoverEveryReference(t *testing.T) {
	db := freshDB(t)
	rows, err := db.Pool.Query(context.Background(), `SELECT c.conrelid::regclass::text, a.attname
		FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
		WHERE c.contype = 'f' AND c.confrelid = 'images'::regclass ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	var inSchema []string
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			t.Fatal(err)
		}
		inSchema = append(inSchema, table+"."+column)
	}
	var listed []string
	for _, u := range postgres.ImageUses {
		listed = append(listed, u.Table+"."+u.Column)
	}
	sort.Strings(listed)
	if strings.Join(listed, " ") != strings.Join(inSchema, " ") {
		t.Fatalf("postgres.ImageUses lists %v; the schema's foreign keys to images are %v", listed, inSchema)
	}
}

// Text the database cannot hold (a NUL, bytes that are not UTF-8) is the
// caller's input at fault, a 400, should it ever get past the API's edge.
func TestTextTheDatabaseCannotStoreIsInvalid(t *testing.T) {
	store := postgres.Tournaments{DB: pgtest.DB(t)}
	for _, name := range []string{"ab\x00cd", "ab\xffcd"} {
		_, err := store.FindTournament(context.Background(), name)
		wantErr(t, name, err, errs.Invalid, "")
	}
}

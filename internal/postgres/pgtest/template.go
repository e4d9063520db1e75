package pgtest

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pitlane/pitlane/internal/postgres"
)

// A template is a database built once per test binary and copied for each
// test that asks for it: CREATE DATABASE … TEMPLATE copies files, where
// migrating and loading a demo league again takes seconds a test.
type template struct {
	once sync.Once
	mu   sync.Mutex // one copy at a time: PostgreSQL copies a template for one session at once
	url  string
	drop func()
	err  error
}

var (
	templatesMu sync.Mutex
	templates   = map[string]*template{}
)

// Copy is a database of the test's own, dropped when the test ends: a copy of
// the template called name, which build fills (once per test binary) after
// the migrations; a nil build leaves it migrated and empty. The copy has an
// identity of its own (site_identity), as a database made afresh would, so
// copies sharing one Redis never meet each other's event seqs.
func Copy(t testing.TB, name string, build func(context.Context, *postgres.DB) error) *postgres.DB {
	t.Helper()
	ctx := context.Background()
	templatesMu.Lock()
	tp := templates[name]
	if tp == nil {
		tp = &template{}
		templates[name] = tp
	}
	templatesMu.Unlock()
	tp.once.Do(func() { tp.url, tp.drop, tp.err = makeTemplate(ctx, build) })
	if tp.err != nil {
		t.Fatalf("pgtest: the %s template: %v", name, tp.err)
	}

	tp.mu.Lock()
	u, drop, err := newDatabase(ctx, " TEMPLATE "+databaseName(tp.url))
	tp.mu.Unlock()
	if err != nil {
		t.Fatalf("pgtest: a copy of the %s template: %v", name, err)
	}
	t.Cleanup(drop)
	db, err := postgres.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if _, err := db.Pool.Exec(ctx, `UPDATE site_identity
		SET id = substr(md5(random()::text || clock_timestamp()::text || current_database()), 1, 16)`); err != nil {
		t.Fatalf("pgtest: the copy's identity: %v", err)
	}
	return db
}

// makeTemplate creates, migrates and builds a database, then closes every
// connection to it so it can be copied.
func makeTemplate(ctx context.Context, build func(context.Context, *postgres.DB) error) (string, func(), error) {
	u, drop, err := NewURL(ctx)
	if err != nil {
		return "", nil, err
	}
	db, err := postgres.Open(ctx, u)
	if err == nil {
		_, err = db.Migrate(ctx)
		if err == nil && build != nil {
			err = build(ctx, db)
		}
		db.Close()
	}
	if err != nil {
		drop()
		return "", nil, err
	}
	return u, drop, nil
}

func databaseName(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return pgx.Identifier{strings.TrimPrefix(parsed.Path, "/")}.Sanitize()
}

// dropTemplates drops every template this test binary made (from Cleanup).
func dropTemplates() {
	templatesMu.Lock()
	defer templatesMu.Unlock()
	for name, tp := range templates {
		if tp.drop != nil {
			tp.drop()
		}
		delete(templates, name)
	}
}

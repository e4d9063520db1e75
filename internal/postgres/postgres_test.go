package postgres_test

import (
	"context"
	"sync"
	"testing"

	"github.com/pitlane/pitlane/internal/postgres"
	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

// Instances starting together apply each migration exactly once.
func TestMigrateUnderLock(t *testing.T) {
	ctx := context.Background()
	url, drop, err := pgtest.NewURL(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	var wg sync.WaitGroup
	applied := make([][]string, 4)
	errs := make([]error, 4)
	for i := range applied {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := postgres.Open(ctx, url)
			if err != nil {
				errs[i] = err
				return
			}
			defer db.Close()
			applied[i], errs[i] = db.Migrate(ctx)
		}()
	}
	wg.Wait()
	total := 0
	for i := range applied {
		if errs[i] != nil {
			t.Fatalf("migrator %d: %v", i, errs[i])
		}
		total += len(applied[i])
	}
	db, _ := postgres.Open(ctx, url)
	defer db.Close()
	var n int
	db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM schema_migrations) + (SELECT count(*) FROM river_migration)`).Scan(&n)
	if total != n || n == 0 {
		t.Fatalf("applied %d in all, %d recorded", total, n)
	}
	var tournaments int
	db.Pool.QueryRow(ctx, `SELECT count(*) FROM tournaments WHERE name = 'PPL7'`).Scan(&tournaments)
	if tournaments != 1 {
		t.Fatalf("PPL7 rows: %d", tournaments)
	}
}

// Columns nothing reads or writes are dropped, not left to mislead: the
// stats' screenshot was never kept.
func TestNoUnusedColumns(t *testing.T) {
	db := freshDB(t)
	var n int
	if err := db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = 'stats' AND column_name = 'screenshot_id'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("stats.screenshot_id is still there")
	}
}

package postgres_test

import (
	"os"
	"testing"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Cleanup()
	os.Exit(code)
}

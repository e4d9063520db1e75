package api_test

import (
	"testing"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
	"github.com/pitlane/pitlane/internal/testkit"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// newServer starts Pitlane on this package's fresh database.
func newServer(t *testing.T, opt testkit.Options) *testkit.Server {
	t.Helper()
	return testkit.NewServer(t, pgtest.DB(t), opt)
}

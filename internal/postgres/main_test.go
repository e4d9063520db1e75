package postgres_test

import (
	"testing"

	"github.com/pitlane/pitlane/internal/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

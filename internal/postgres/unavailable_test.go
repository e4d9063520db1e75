package postgres

import (
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pitlane/pitlane/internal/errs"
)

// A server that ends the session or will not start one (restarting,
// starting up, full, the connection broken) is a database unavailable for
// a moment: 503, never 500. A query's own failure stays what it is.
func TestServerGoingAwayIsUnavailable(t *testing.T) {
	for code, want := range map[string]string{
		"57P01": errs.Unavailable, // admin_shutdown: pg_ctl stop -m fast ends every session with it
		"57P02": errs.Unavailable, // crash_shutdown
		"57P03": errs.Unavailable, // cannot_connect_now: still starting up
		"53300": errs.Unavailable, // too_many_connections
		"08006": errs.Unavailable, // connection_failure
		"08P01": errs.Unavailable, // protocol_violation
		"23505": errs.Internal,    // unique_violation: the stores make it a conflict themselves
		"42P01": errs.Internal,    // undefined_table: a bug, not an outage
		"40001": errs.Internal,    // serialization_failure: retried by the unit of work, then a bug
		"22021": errs.Invalid,     // character_not_in_repertoire: a NUL or bytes that are not UTF-8 in the input
		"22P05": errs.Invalid,     // untranslatable_character
	} {
		for _, err := range []error{
			&pgconn.PgError{Code: code, Severity: "FATAL"},
			fmt.Errorf("error starting transaction: %w", &pgconn.PgError{Code: code}),
		} {
			if got := errs.KindOf(unavailable(err)); got != want {
				t.Errorf("%v: kind %s, want %s", err, got, want)
			}
		}
	}
}

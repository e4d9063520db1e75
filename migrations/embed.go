// Package migrations holds the numbered, append-only SQL migrations of the
// database, embedded so the binary can apply them at start.
package migrations

import "embed"

// FS holds every NNN_name.sql file; they are applied in name order.
//
//go:embed *.sql
var FS embed.FS

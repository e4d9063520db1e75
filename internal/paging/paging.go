// Package paging holds the rules of the public lists read a page at a
// time: a page's size (a default when none is asked, a most), and the
// opaque cursor a page ends with, from which the next one starts. A
// cursor is a keyset position (the last row's sort key and id), not an
// offset, so rows added or removed between two reads neither repeat nor
// go missing.
package paging

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/pitlane/pitlane/internal/errs"
)

// Page sizes: Default when a caller names none, at most Max.
const (
	Default = 100
	Max     = 500
)

// Key is where a page ended: the sort key of its last row (Text or Num,
// whichever the list sorts by) and the row's id.
type Key struct {
	Text string  `json:"t,omitempty"`
	Num  float64 `json:"n,omitempty"`
	ID   int64   `json:"i"`
	// Group and Then, for a list sorted in parts (confirmed players
	// before the waitlist) and by two keys (K/D, then registered at).
	Group int     `json:"g,omitempty"`
	Then  float64 `json:"m,omitempty"`
}

// Encode is the key as a cursor: opaque to callers, URL-safe.
func (k Key) Encode() string {
	b, _ := json.Marshal(k)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Decode reads a cursor a page gave; an empty one is the first page (nil).
func Decode(cursor string) (*Key, error) {
	if cursor == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	var k Key
	if err != nil || len(b) > 512 || json.Unmarshal(b, &k) != nil || k.ID <= 0 {
		return nil, errs.E(errs.Invalid, "cursor is not one a page of this list gave")
	}
	return &k, nil
}

// Limit reads a page size: empty is Default, else a whole number from 1 to Max.
func Limit(raw string) (int, error) {
	if raw == "" {
		return Default, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > Max {
		return 0, errs.E(errs.Invalid, "limit must be a whole number from 1 to %d", Max)
	}
	return n, nil
}

// Query reads a search text: trimmed, at most 40 characters.
func Query(raw string) (string, error) {
	q := strings.TrimSpace(raw)
	if len([]rune(q)) > 40 {
		return "", errs.E(errs.Invalid, "a search is at most 40 characters")
	}
	return q, nil
}

// Request is what a caller asks of a paged list.
type Request struct {
	Limit int
	After *Key   // nil: the first page
	Q     string // "": no search
}

// Parse reads limit, cursor and q.
func Parse(limit, cursor, q string) (Request, error) {
	var r Request
	var err error
	if r.Limit, err = Limit(limit); err != nil {
		return r, err
	}
	if r.After, err = Decode(cursor); err != nil {
		return r, err
	}
	r.Q, err = Query(q)
	return r, err
}

// Next is the cursor after a page that ended at last: none when no row
// comes after it (more is false).
func Next(more bool, last Key) *string {
	if !more {
		return nil
	}
	c := last.Encode()
	return &c
}

// Slice is a page of a list that is read whole and kept in a fixed order
// (a season's fixtures): the rows after the one whose id the cursor names,
// at most Limit. A cursor naming a row no longer on the list starts
// nowhere: errs.Invalid.
func Slice[T any](rows []T, id func(T) int64, req Request) ([]T, *string, error) {
	start := 0
	if req.After != nil {
		start = -1
		for i, r := range rows {
			if id(r) == req.After.ID {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return nil, nil, errs.E(errs.Invalid, "cursor names a row no longer on the list: read it from the first page again")
		}
	}
	end := min(len(rows), start+req.Limit)
	page := rows[start:end]
	if len(page) == 0 {
		return page, nil, nil
	}
	return page, Next(end < len(rows), Key{ID: id(page[len(page)-1])}), nil
}

// What a request may carry in its path, its query and its JSON strings,
// checked once at the edge for every call: no control characters, which
// no name holds and PostgreSQL cannot store (a NUL), and only UTF-8.

package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/errs"
)

// hasControl tells whether s holds a control character (Unicode Cc); text
// (lines) may hold tabs and line breaks.
func hasControl(s string, lines bool) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		if lines && (r == '\t' || r == '\n' || r == '\r') {
			return false
		}
		return unicode.Is(unicode.Cc, r)
	}) >= 0
}

// plainName tells a path segment or a query value a name may be: UTF-8
// with no control character at all (names, letters, filters are never
// text of several lines).
func plainName(s string) bool { return utf8.ValidString(s) && !hasControl(s, false) }

// refuseControls answers a path with a control character or bytes that
// are not UTF-8 as an unknown page (404: such a name names nothing), and a
// query parameter with one as invalid (400), before any handler reads them.
func refuseControls(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !plainName(r.URL.Path) {
			writeError(w, r, errs.E(errs.NotFound, "Not found: no name holds a control character or bytes that are not UTF-8."))
			return
		}
		if r.URL.RawQuery != "" {
			q, _ := url.ParseQuery(r.URL.RawQuery)
			for key, values := range q {
				bad := !plainName(key)
				for _, v := range values {
					bad = bad || !plainName(v)
				}
				if bad {
					writeError(w, r, errs.E(errs.Invalid, "The query parameter %q must be UTF-8 with no control characters.",
						errs.Echo(strings.ToValidUTF8(key, "\uFFFD"))))
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// controlIn finds the first string of the JSON document b, a key or a
// value, that holds a control character other than a tab or a line break,
// and answers the field it is in ("a.b" for b in the object a; "" at the
// top). encoding/json has already put U+FFFD for bytes that are not UTF-8.
func controlIn(b []byte) (field string, found bool) {
	type frame struct {
		object, wantKey bool
		key             string
	}
	var stack []frame
	path := func() string {
		var keys []string
		for _, f := range stack {
			if f.object && f.key != "" {
				keys = append(keys, f.key)
			}
		}
		return strings.Join(keys, ".")
	}
	// valueDone moves the object around a finished value on to its next key.
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, frame{object: true, wantKey: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:len(stack)-1]
				valueDone()
			}
		case string:
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
				stack[n-1].key, stack[n-1].wantKey = v, false
				if hasControl(v, true) {
					return path(), true
				}
				continue
			}
			if hasControl(v, true) {
				return path(), true
			}
			valueDone()
		default:
			valueDone()
		}
	}
}

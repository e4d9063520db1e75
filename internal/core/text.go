package core

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Invisible tells characters that are not shown as themselves: controls
// (Unicode Cc), formatting characters (Cf: bidi overrides and isolates such
// as U+202E, zero-width joiners, the BOM), line and paragraph separators,
// and bytes that are not UTF-8. In a name they can make it read as another
// one ("‮rotagrebmud" shows reversed) or hide what it is.
func Invisible(r rune) bool {
	return r == utf8.RuneError || unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Count says n of a thing, singular or plural: "1 title", "3 titles";
// "1 match is left", "28 matches are left".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

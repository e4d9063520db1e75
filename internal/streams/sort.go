package streams

import (
	"cmp"
	"slices"
)

// Sort orders streams for the streams page: live before offline, then the
// league's casts, players in today's matches and the rest, then by viewers,
// then by name.
func Sort(list []Stream) {
	slices.SortStableFunc(list, func(a, b Stream) int {
		if a.Live != b.Live {
			if a.Live {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.Group(), b.Group()); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Viewers, a.Viewers); c != 0 {
			return c
		}
		return cmp.Compare(a.Channel, b.Channel)
	})
}

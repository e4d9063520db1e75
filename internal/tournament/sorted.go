package tournament

import (
	"sort"
	"strings"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/paging"
)

// The orders the public list can be read in (sort=), the Reg Player tab's
// choices: its confirmed players by that order, then the waitlist in its
// own (who joined it first), so that the tab reads a page at a time what
// it shows and never the whole list.
const (
	SortNewest = "newest"
	SortOldest = "oldest"
	SortName   = "name"
	SortKD     = "kd"
	SortLevel  = "level"
	SortGames  = "games"
	SortKills  = "kills"
)

// Sorts are the orders ParseSort accepts.
var Sorts = []string{SortNewest, SortOldest, SortName, SortKD, SortLevel, SortGames, SortKills}

// ParseSort reads sort=: "" is none (the list's registration order, with
// no waitlist apart), else one of Sorts.
func ParseSort(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	for _, s := range Sorts {
		if raw == s {
			return s, nil
		}
	}
	return "", errs.E(errs.Invalid, "sort must be one of %s", strings.Join(Sorts, ", "))
}

// rank is a player's place in a sorted list, compared field by field:
// the part (0 confirmed, 1 waiting), the first key, the second, the name,
// then the id (negated where the order runs newest first).
type rank struct {
	group int
	num   float64
	then  float64
	text  string
	tie   int64
}

func (a rank) less(b rank) bool {
	switch {
	case a.group != b.group:
		return a.group < b.group
	case a.num != b.num:
		return a.num < b.num
	case a.text != b.text:
		return a.text < b.text
	case a.then != b.then:
		return a.then < b.then
	}
	return a.tie < b.tie
}

func micros(p Player) float64 { return float64(p.CreatedAt.UnixMicro()) }

// rankOf places p in the order by: descending orders negate their key;
// ties go to who registered first, as the list's own order.
func rankOf(p Player, by string) rank {
	if p.Status == Waitlisted {
		w := 0.0
		if p.WaitlistedAt != nil {
			w = float64(p.WaitlistedAt.UnixMicro())
		}
		return rank{group: 1, num: w, then: micros(p), tie: p.ID}
	}
	r := rank{then: micros(p), tie: p.ID}
	switch by {
	case SortNewest:
		r.num, r.then, r.tie = -micros(p), 0, -p.ID
	case SortOldest:
		r.num, r.then = micros(p), 0
	case SortName:
		r.text = strings.ToLower(p.Name)
	case SortKD:
		r.num = -p.KD
	case SortLevel:
		r.num = -float64(p.Level)
	case SortGames:
		r.num = -float64(p.GamesPlayed)
	case SortKills:
		r.num = -float64(p.Kills)
	}
	return r
}

func (r rank) key(id int64) paging.Key {
	return paging.Key{Group: r.group, Num: r.num, Then: r.then, Text: r.text, ID: id}
}

func rankOfKey(k paging.Key, by string) rank {
	tie := k.ID
	if by == SortNewest && k.Group == 0 {
		tie = -k.ID
	}
	return rank{group: k.Group, num: k.Num, then: k.Then, text: k.Text, tie: tie}
}

// SortedRoster is the list in one of Sorts, its waiting players' places
// filled: built once per roster version and order, then cut into pages.
type SortedRoster struct {
	Roster
	by    string
	ranks []rank
}

// SortBy orders a copy of the list.
func (r Roster) SortBy(by string) SortedRoster {
	ps := make([]Player, len(r.Players))
	copy(ps, r.Players)
	ranks := make([]rank, len(ps))
	for i, p := range ps {
		ranks[i] = rankOf(p, by)
	}
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return ranks[idx[a]].less(ranks[idx[b]]) })
	out := SortedRoster{Roster: r, by: by, ranks: make([]rank, len(ps))}
	out.Players = make([]Player, len(ps))
	place := 0
	for i, j := range idx {
		out.Players[i], out.ranks[i] = ps[j], ranks[j]
		if ranks[j].group == 1 {
			place++
			out.Players[i].Place = place
		}
	}
	return out
}

// SortedPage is a page of a sorted list; Matched counts the players a
// search finds in the whole list.
type SortedPage struct {
	RosterPage
	Sort    string `json:"sort"`
	Matched *int   `json:"matched,omitempty"`
}

// Page is the part of the sorted list after the request's cursor (a
// player who left between two pages moves none of the others), whose name,
// Discord name or SK id holds its search if it has one.
func (s SortedRoster) Page(req paging.Request) SortedPage {
	start := 0
	if req.After != nil {
		k := rankOfKey(*req.After, s.by)
		start = sort.Search(len(s.ranks), func(i int) bool { return k.less(s.ranks[i]) })
	}
	q := strings.ToLower(req.Q)
	out := make([]Player, 0, min(req.Limit, len(s.Players)-start))
	var last rank
	more := false
	for i := start; i < len(s.Players); i++ {
		if q != "" && !matches(s.Players[i], q) {
			continue
		}
		if len(out) == req.Limit {
			more = true
			break
		}
		out = append(out, s.Players[i])
		last = s.ranks[i]
	}
	page := SortedPage{RosterPage: RosterPage{Roster: s.Roster, Limit: req.Limit}, Sort: s.by}
	page.Players = out
	if len(out) > 0 {
		page.NextCursor = paging.Next(more, last.key(out[len(out)-1].ID))
	}
	if q != "" {
		n := 0
		for _, p := range s.Players {
			if matches(p, q) {
				n++
			}
		}
		page.Matched = &n
	}
	return page
}

func matches(p Player, q string) bool {
	return strings.Contains(strings.ToLower(p.Name), q) || strings.Contains(strings.ToLower(p.DiscordID), q) || strings.Contains(strings.ToLower(p.SID), q)
}

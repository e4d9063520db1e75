package tournament_test

import (
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/tournament"
)

func day(s string) *string { return &s }

// A season's identity is checked before anything is written: lengths in
// characters (not bytes), no characters that hide what a name says, days in
// order.
func TestASeasonsIdentityIsChecked(t *testing.T) {
	ok := tournament.IdentityInput{DisplayName: "  Saison d’été  ", Hero: strings.Repeat("é", 80),
		Description: "Line one\r\nLine two", StartsAt: day("2026-12-01"), EndsAt: day("2026-12-01")}
	l, err := ok.Check()
	if err != nil {
		t.Fatal(err)
	}
	if l.DisplayName != "Saison d’été" || l.Description != "Line one\nLine two" || !l.StartsOn.Equal(*l.EndsOn) {
		t.Fatalf("%+v", l)
	}
	for name, in := range map[string]tournament.IdentityInput{
		"ErrNoName":         {DisplayName: " "},
		"ErrLongName":       {DisplayName: strings.Repeat("n", 41)},
		"ErrLongHero":       {DisplayName: "S", Hero: strings.Repeat("h", 81)},
		"ErrLongText":       {DisplayName: "S", Description: strings.Repeat("d", 501)},
		"ErrZeroWidthSpace": {DisplayName: "PP\u200bL8"},
		"ErrLineSeparator":  {DisplayName: "S", Hero: "a\u2028b"},
		"ErrNotUTF8":        {DisplayName: "S\xff"},
		"ErrEndBeforeStart": {DisplayName: "S", StartsAt: day("2026-12-02"), EndsAt: day("2026-12-01")},
		"ErrNotADay":        {DisplayName: "S", EndsAt: day("2026-13-01")},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := in.Check(); errs.KindOf(err) != errs.Invalid {
				t.Fatalf("got %v, want an invalid input", err)
			}
		})
	}
}

func TestASeasonWithoutAHeroLineGetsOneFromItsName(t *testing.T) {
	plain := tournament.Tournament{Name: "PPL8"}
	if id := plain.Identity(); id.DisplayName != "PPL8" || id.Hero != "PPL8 is on" || !id.HeroDefault || id.BannerURL != nil {
		t.Fatalf("%+v", id)
	}
	named := tournament.Tournament{Name: "PPL8", Look: tournament.Look{DisplayName: "Season 8", BannerID: "ab"}}
	if id := named.Identity(); id.Hero != "Season 8 is on" || *id.BannerURL != "/api/images/ab" {
		t.Fatalf("%+v", id)
	}
}

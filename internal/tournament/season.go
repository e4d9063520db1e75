// A season's own identity: the name it goes by, its hero line, a short
// description, the dates it runs and a banner, set by an organiser in any
// phase and shown by the site's pages, the deck, the overlays and the bot.

package tournament

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/upload"
)

// EventUpdated tells every open page (topic registrations) that a season's
// identity changed: {"tournament", and the Identity's fields}.
const EventUpdated = "tournament.updated"

// Audited actions of a season's identity.
const (
	ActionIdentity = "tournament.identity"
	ActionBanner   = "tournament.banner"
)

// Bounds of a season's identity, in characters.
const (
	MaxDisplayName = 40
	MaxHero        = 80
	MaxDescription = 500
)

// dayLayout is how a season's dates are written: a calendar day, with no
// time and no zone, so every reader sees the same day.
const dayLayout = "2006-01-02"

// Look is a season's identity as an organiser set it (Identity says how it
// shows): an empty DisplayName is the tournament's name, an empty Hero the
// default built from the display name.
type Look struct {
	DisplayName string
	Hero        string
	Description string
	// StartsOn and EndsOn are calendar days (midnight UTC), or nil.
	StartsOn, EndsOn *time.Time
	// BannerID is the stored banner image's id, "" for none.
	BannerID string
}

// Identity is a season as its pages show it.
type Identity struct {
	DisplayName string `json:"display_name"`
	Hero        string `json:"hero"`
	// HeroDefault: the organisers set no hero line; Hero is the default
	// built from the display name.
	HeroDefault bool    `json:"hero_default"`
	Description string  `json:"description"`
	StartsAt    *string `json:"starts_at"` // YYYY-MM-DD
	EndsAt      *string `json:"ends_at"`
	BannerURL   *string `json:"banner_url"`
}

// DefaultHero is the hero line of a season whose organisers set none.
func DefaultHero(displayName string) string { return displayName + " is on" }

// DisplayName is the name the season goes by on the site.
func (t Tournament) DisplayName() string {
	if t.Look.DisplayName != "" {
		return t.Look.DisplayName
	}
	return t.Name
}

// Identity is the season as its pages show it.
func (t Tournament) Identity() Identity {
	id := Identity{DisplayName: t.DisplayName(), Hero: t.Look.Hero, Description: t.Look.Description,
		StartsAt: day(t.Look.StartsOn), EndsAt: day(t.Look.EndsOn)}
	if id.Hero == "" {
		id.Hero, id.HeroDefault = DefaultHero(id.DisplayName), true
	}
	if t.Look.BannerID != "" {
		url := "/api/images/" + t.Look.BannerID
		id.BannerURL = &url
	}
	return id
}

func day(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(dayLayout)
	return &s
}

// IdentityInput is what an organiser sends: the whole identity but the
// banner (its own call). No hero line means the default; no date, none.
type IdentityInput struct {
	DisplayName string  `json:"display_name"`
	Hero        string  `json:"hero"`
	Description string  `json:"description"`
	StartsAt    *string `json:"starts_at"`
	EndsAt      *string `json:"ends_at"`
}

// Check turns the input into a Look (the banner aside), or says in a
// sentence what is wrong with it: lengths bounded, no control or
// formatting characters (a description keeps its line breaks), the end
// not before the start.
func (in IdentityInput) Check() (Look, error) {
	var l Look
	l.DisplayName = strings.TrimSpace(in.DisplayName)
	l.Hero = strings.TrimSpace(in.Hero)
	l.Description = strings.TrimSpace(strings.ReplaceAll(in.Description, "\r\n", "\n"))
	if n := utf8.RuneCountInString(l.DisplayName); n < 1 || n > MaxDisplayName {
		return l, errs.E(errs.Invalid, "A season's display name is 1 to %d characters.", MaxDisplayName)
	}
	if utf8.RuneCountInString(l.Hero) > MaxHero {
		return l, errs.E(errs.Invalid, "The hero line is at most %d characters.", MaxHero)
	}
	if utf8.RuneCountInString(l.Description) > MaxDescription {
		return l, errs.E(errs.Invalid, "The description is at most %d characters.", MaxDescription)
	}
	for _, f := range []struct {
		what, text string
		lines      bool
	}{{"display name", l.DisplayName, false}, {"hero line", l.Hero, false}, {"description", l.Description, true}} {
		if hidden(f.text, f.lines) {
			return l, errs.E(errs.Invalid, "The %s may not contain control or formatting characters.", f.what)
		}
	}
	var err error
	if l.StartsOn, err = parseDay("starts_at", in.StartsAt); err != nil {
		return l, err
	}
	if l.EndsOn, err = parseDay("ends_at", in.EndsAt); err != nil {
		return l, err
	}
	if l.StartsOn != nil && l.EndsOn != nil && l.EndsOn.Before(*l.StartsOn) {
		return l, errs.E(errs.Invalid, "The season cannot end before it starts.")
	}
	return l, nil
}

// hidden tells text holding characters that are not shown as themselves
// (core.Invisible): they could make a season's name read as another. lines
// lets a line break through.
func hidden(text string, lines bool) bool {
	return strings.IndexFunc(text, func(r rune) bool {
		if lines && r == '\n' {
			return false
		}
		return core.Invisible(r)
	}) >= 0
}

// parseDay reads a date: a day (2026-12-01) or an RFC 3339 time, whose day
// as written is taken. nil or "" is no date.
func parseDay(field string, s *string) (*time.Time, error) {
	if s == nil || strings.TrimSpace(*s) == "" {
		return nil, nil
	}
	raw := strings.TrimSpace(*s)
	t, err := time.Parse(dayLayout, raw)
	if err != nil {
		at, err2 := time.Parse(time.RFC3339, raw)
		if err2 != nil {
			return nil, errs.E(errs.Invalid, "%s must be a date (YYYY-MM-DD).", field)
		}
		t = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
	}
	if t.Year() < 2000 || t.Year() > 2099 {
		return nil, errs.E(errs.Invalid, "%s must be a date between 2000 and 2099.", field)
	}
	return &t, nil
}

// IdentityStore is what a season's identity needs from the database.
type IdentityStore interface {
	// SetLook sets the tournament's identity, its banner kept.
	SetLook(ctx context.Context, id int64, l Look) (Tournament, error)
	// SetBanner sets (an image id) or removes ("") the tournament's banner.
	SetBanner(ctx context.Context, id int64, imageID string) (Tournament, error)
}

// Images keeps uploaded images.
type Images interface {
	SaveImage(ctx context.Context, contentType string, data []byte) (string, error)
}

// SetIdentity sets the named season's identity (organisers, in any phase):
// audited, and pushed to every open page as EventUpdated.
func (s *Service) SetIdentity(ctx context.Context, a core.Actor, name string, in IdentityInput) (Info, error) {
	if err := MayOrganise(a); err != nil {
		return Info{}, err
	}
	look, err := in.Check()
	if err != nil {
		return Info{}, err
	}
	return s.changeLook(ctx, a, name, ActionIdentity, func(ctx context.Context, t Tournament) (Tournament, any, error) {
		t, err := s.Store.SetLook(ctx, t.ID, look)
		id := t.Identity()
		return t, map[string]any{"display_name": id.DisplayName, "hero": look.Hero, "description": id.Description,
			"starts_at": id.StartsAt, "ends_at": id.EndsAt}, err
	})
}

// SetBanner makes data (an image, checked as every upload is) the named
// season's banner (organisers).
func (s *Service) SetBanner(ctx context.Context, a core.Actor, name string, data []byte) (Info, error) {
	if err := MayOrganise(a); err != nil {
		return Info{}, err
	}
	img, err := upload.Check(data)
	if err != nil {
		return Info{}, err
	}
	return s.changeLook(ctx, a, name, ActionBanner, func(ctx context.Context, t Tournament) (Tournament, any, error) {
		id, err := s.Images.SaveImage(ctx, img.MIME, data)
		if err != nil {
			return t, nil, err
		}
		t, err = s.Store.SetBanner(ctx, t.ID, id)
		return t, map[string]any{"image": id, "width": img.Width, "height": img.Height}, err
	})
}

// RemoveBanner takes the named season's banner away (organisers).
func (s *Service) RemoveBanner(ctx context.Context, a core.Actor, name string) (Info, error) {
	if err := MayOrganise(a); err != nil {
		return Info{}, err
	}
	return s.changeLook(ctx, a, name, ActionBanner, func(ctx context.Context, t Tournament) (Tournament, any, error) {
		t, err := s.Store.SetBanner(ctx, t.ID, "")
		return t, map[string]any{"image": nil}, err
	})
}

// changeLook runs change on the named tournament in one transaction with
// its audit entry (action, with change's data) and the event every open
// page follows, and answers the season's summary.
func (s *Service) changeLook(ctx context.Context, a core.Actor, name, action string,
	change func(ctx context.Context, t Tournament) (Tournament, any, error)) (Info, error) {
	var t Tournament
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		found, err := s.Store.FindTournament(ctx, s.name(name))
		if err != nil {
			return err
		}
		if err := a.MustOrganise(found.ID); err != nil {
			return err
		}
		var data any
		if t, data, err = change(ctx, found); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, action, t.ID, t.Name, data); err != nil {
			return err
		}
		_, err = s.Events.Emit(ctx, core.TopicRegistrations, EventUpdated, updated(t))
		return err
	})
	if err != nil {
		return Info{}, err
	}
	return s.Info(ctx, t.Name)
}

// updated is EventUpdated's data: the tournament's name and its identity.
func updated(t Tournament) map[string]any {
	id := t.Identity()
	return map[string]any{"tournament": t.Name, "display_name": id.DisplayName, "hero": id.Hero, "hero_default": id.HeroDefault,
		"description": id.Description, "starts_at": id.StartsAt, "ends_at": id.EndsAt, "banner_url": id.BannerURL}
}

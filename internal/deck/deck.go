// Package deck holds the presenter's /ppt deck state: the current slide,
// which an admin moves and every following screen is told of.
package deck

import (
	"context"
	"log/slog"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/hub"
)

// Slides is the number of slides of the seed's presentation.
const Slides = 10

// EventSlideChanged is published on the deck topic.
const EventSlideChanged = "slide.changed"

// Store keeps the current slide.
type Store interface {
	Slide(ctx context.Context) (int, error)
	SetSlide(ctx context.Context, slide int) error
}

// Service reads and moves the deck.
type Service struct {
	Store Store
	Pub   hub.Publisher
	Log   *slog.Logger
}

// State is the deck as REST answers it, with the seq it was read at.
type State struct {
	Slide int   `json:"slide"`
	Seq   int64 `json:"seq"`
}

// Current returns the current slide.
func (s *Service) Current(ctx context.Context) (State, error) {
	seq, err := s.Pub.Seq(ctx, hub.TopicDeck)
	if err != nil {
		s.Log.Warn("reading deck seq failed", slog.Any("err", err))
	}
	slide, err := s.Store.Slide(ctx)
	return State{Slide: slide, Seq: seq}, err
}

// Move sets the slide and tells every follower.
func (s *Service) Move(ctx context.Context, slide int) (State, error) {
	if slide < 1 || slide > Slides {
		return State{}, errs.E(errs.Invalid, "Slide must be between 1 and %d", Slides)
	}
	if err := s.Store.SetSlide(ctx, slide); err != nil {
		return State{}, err
	}
	if err := s.Pub.Publish(context.WithoutCancel(ctx), hub.TopicDeck, EventSlideChanged, map[string]int{"slide": slide}); err != nil {
		s.Log.Warn("publishing slide change failed", slog.Any("err", err))
	}
	seq, _ := s.Pub.Seq(ctx, hub.TopicDeck)
	return State{Slide: slide, Seq: seq}, nil
}

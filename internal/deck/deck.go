// Package deck holds the presenter's /ppt deck: the current slide, which an
// organiser moves and every following screen is told of.
package deck

import (
	"context"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/errs"
)

// Slides is the number of slides of the seed's presentation.
const Slides = 10

// EventSlideChanged is emitted on the deck topic.
const EventSlideChanged = "slide.changed"

// Store keeps the current slide.
type Store interface {
	Slide(ctx context.Context) (int, error)
	SetSlide(ctx context.Context, slide int) error
}

// Service reads and moves the deck.
type Service struct {
	Store  Store
	Tx     core.Transactor
	Events core.Outbox
	Audit  core.AuditLog
}

// State is the deck as REST answers it, with the seq it was read at.
type State struct {
	Slide int   `json:"slide"`
	Seq   int64 `json:"seq"`
}

// Current returns the current slide and the deck topic's seq at that moment.
func (s *Service) Current(ctx context.Context) (State, error) {
	var st State
	err := s.Tx.Snapshot(ctx, func(ctx context.Context) error {
		var err error
		if st.Seq, err = s.Events.Seq(ctx, core.TopicDeck); err != nil {
			return err
		}
		st.Slide, err = s.Store.Slide(ctx)
		return err
	})
	return st, err
}

// Move sets the slide (organisers only) and tells every follower.
func (s *Service) Move(ctx context.Context, a core.Actor, slide int) (State, error) {
	if err := a.MustBeAdmin(); err != nil {
		return State{}, err
	}
	if slide < 1 || slide > Slides {
		return State{}, errs.E(errs.Invalid, "Slide must be between 1 and %d", Slides)
	}
	st := State{Slide: slide}
	err := s.Tx.Transact(ctx, func(ctx context.Context) error {
		if err := s.Store.SetSlide(ctx, slide); err != nil {
			return err
		}
		if err := s.Audit.Record(ctx, a, core.ActionDeckMove, 0, "deck", map[string]int{"slide": slide}); err != nil {
			return err
		}
		var err error
		st.Seq, err = s.Events.Emit(ctx, core.TopicDeck, EventSlideChanged, map[string]int{"slide": slide})
		return err
	})
	return st, err
}

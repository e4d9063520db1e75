package extract

import (
	"image"
	"math/rand/v2"

	"github.com/pitlane/pitlane/internal/extract/photos"
)

// simPanel is the capture's Stats panel the simulations that need one are
// made around (a crop, a tooltip, a portrait photo of it): ok is false
// when none with three bars or more is found.
func simPanel(capture *image.RGBA) (panel, bool) {
	panels := findPanels(capture)
	if len(panels) == 0 || len(panels[0].rows) < 3 {
		return panel{}, false
	}
	return panels[0], true
}

// portrait makes the portrait photo of part of a monitor showing capture
// (photos.Portrait), aimed at its Stats panel.
func portrait(capture *image.RGBA, rng *rand.Rand) (SimPhoto, []byte, bool) {
	var p SimPhoto
	pn, ok := simPanel(capture)
	if !ok {
		return p, nil, false
	}
	rows := pn.rows
	area := image.Rectangle{Min: rows[0].Min, Max: rows[len(rows)-1].Max}
	enc, shot, badgeShown := photos.Portrait(capture, rng, area, rows[1].Min.Y-rows[0].Min.Y)
	if !badgeShown {
		p.Hidden = []string{"level"}
	}
	p.Shot, p.Width, p.Height = &shot, shot.W, shot.H
	return p, enc, true
}

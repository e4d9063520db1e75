package extract

import (
	"context"
	"image"
	"image/draw"
	"sort"
	"strconv"
	"strings"

	xdraw "golang.org/x/image/draw"
)

// A second look. Tesseract's sparse mode, which finds text anywhere on a
// screen, now and then skips a lone digit, reads a slashed zero as "Q" or
// mangles a bold name. Those spots are cut out, stacked into one small
// image and read again as plain lines, digits only for numbers. It costs a
// tenth of a second and only runs when the first reading looks wrong.

// Confidence below which a first reading is read again.
const (
	rereadValueConf = 85
	rereadNameConf  = 75
)

// What stays tuned in taking a second look's reads.
const (
	// A tallest word more than nameTallerNum/nameTallerDen of the name's
	// height is read again as the name.
	nameTallerNum, nameTallerDen = 6, 5
	// rereadMinName is the fewest characters a name read again may have.
	rereadMinName = 3
	// rereadSureConf is the OCR confidence (per cent) from which a second
	// read counts as read well: the taller word's, or raw-line mode's.
	rereadSureConf = 50
	// rawLineBonus is added to a raw-line read's confidence when it is
	// fairly sure, so that it outvotes the others.
	rawLineBonus = 200
	// idWithoutHashBonus is the vote an id gets when another read has it
	// with a leading 4 (its '#').
	idWithoutHashBonus = 500
	// A word read again is cut with a margin of 1/rereadPadDen of its
	// height.
	rereadPadDen = 4
	// Where an unpaired label's value is looked for, in its heights h:
	// beside it from h/besideFromDen past its end, from
	// h*besideUpNum/besideUpDen above its top to h*besideDownNum/besideDownDen
	// below its bottom; below it from h/belowLeftDen before its start,
	// h/belowTopDen under it, to belowRightHeights*h past its end and
	// belowDepthNum*h/belowDepthDen under it.
	besideFromDen                = 4
	besideUpNum, besideUpDen     = 4, 5
	besideDownNum, besideDownDen = 2, 5
	belowLeftDen, belowTopDen    = 2, 10
	belowRightHeights            = 4
	belowDepthNum, belowDepthDen = 5, 2
	// clipGapPx is how far before a word already read a search area stops.
	clipGapPx = 2
	// A spot's ink is scaled up to textH but by at most rereadMaxScale, as
	// if at least rereadMinInkPx tall, and padded by 1/inkBoundsPadDen of its
	// height, at least inkBoundsPadPx.
	rereadMaxScale, rereadMinInkPx  = 4, 8
	inkBoundsPadDen, inkBoundsPadPx = 8, 2
)

// job is one spot to read again: a value box, the space where an unpaired
// label's value should be, or the name.
type job struct {
	box   image.Rectangle
	keep  image.Rectangle // the word being read again, not blanked
	field field
	reads []read // one per page segmentation mode tried
}

// read is one reading of a job's spot.
type read struct {
	text string
	conf float64
	raw  bool // raw-line mode (--psm 13)
}

func (o *ocr) reread(ctx context.Context, g *guard, pg *page, r *reading) {
	var nums []*job
	stat := []field{fieldKills, fieldDeaths, fieldKD, fieldGames, fieldLevel, fieldID}
	suspicious := map[field]bool{}
	for _, f := range stat {
		if v, ok := r.values[f]; ok && v.conf < rereadValueConf {
			suspicious[f] = true
		}
	}
	if !r.consistent() {
		suspicious[fieldKills], suspicious[fieldDeaths], suspicious[fieldKD] = true, true, true
	}
	for _, f := range stat {
		if v, ok := r.values[f]; ok && suspicious[f] {
			nums = append(nums, &job{box: pad(v.box, v.box.Dy()/rereadPadDen), keep: v.box, field: f})
		}
	}
	pageBox := pg.ink.Bounds()
	for _, f := range stat {
		l, ok := r.unpaired[f]
		if !ok {
			continue
		}
		h := l.box.Dy()
		beside := image.Rect(l.box.Max.X+h/besideFromDen, l.box.Min.Y-h*besideUpNum/besideUpDen, pageBox.Max.X, l.box.Max.Y+h*besideDownNum/besideDownDen)
		below := image.Rect(l.box.Min.X-h/belowLeftDen, l.box.Max.Y+h/belowTopDen, l.box.Max.X+belowRightHeights*h, l.box.Max.Y+belowDepthNum*h/belowDepthDen)
		nums = append(nums, &job{box: r.clip(beside, l.box), field: f}, &job{box: r.clip(below, l.box), field: f})
	}
	var name *job
	if r.tallest != (image.Rectangle{}) && (r.name == "" || r.nameConf < rereadNameConf || r.tallest.Dy() > r.nameBox.Dy()*nameTallerNum/nameTallerDen) {
		name = &job{box: pad(r.tallest, r.tallest.Dy()/rereadPadDen), keep: r.tallest}
	}
	if len(nums) == 0 && name == nil {
		return
	}

	gs := g.group()
	if len(nums) > 0 {
		gs.Go(func() {
			o.readJobs(ctx, g, pg, r, nums, "-c", "tessedit_char_whitelist=0123456789,.#%/")
		})
	}
	if name != nil {
		gs.Go(func() {
			o.readJobs(ctx, g, pg, r, []*job{name})
		})
	}
	gs.Wait()

	if name != nil {
		// The tallest word read well is the name; otherwise the better read.
		taller := name.keep.Dy() > r.nameBox.Dy()*nameTallerNum/nameTallerDen
		for _, rd := range name.reads {
			t := cleanName(rd.text)
			if len(t) >= rereadMinName && plausibleName(t) && (taller && rd.conf >= rereadSureConf || rd.conf > r.nameConf || r.name == "") {
				r.name, r.nameBox, r.nameConf = t, name.box, rd.conf
			}
		}
	}
	// Candidates per field: the first reading and the second ones.
	cands := map[field][]token{}
	for f, v := range r.values {
		cands[f] = append(cands[f], v)
	}
	for _, j := range nums {
		for _, rd := range j.reads {
			norm, k, ok := classifyValue(strings.ReplaceAll(rd.text, " ", ""))
			if !ok {
				continue
			}
			// Raw-line mode, which reads the glyphs without a layout or
			// a language model, is the better judge of digits in doubt:
			// when it is fairly sure, its reading outvotes the others.
			conf := rd.conf
			if rd.raw && conf >= rereadSureConf {
				conf += rawLineBonus
			}
			t := token{text: rd.text, norm: norm, kind: k, num: true, box: j.box, conf: conf}
			if fits(j.field, t) {
				cands[j.field] = append(cands[j.field], t)
			}
		}
	}
	r.choose(cands)
}

// choose keeps, per field, the value the readings agree on most (the sum
// of their confidences), except that kills, deaths and K/D are chosen
// together so that they agree with each other.
func (r *reading) choose(cands map[field][]token) {
	votes := map[field]map[string]float64{}
	for f, cs := range cands {
		votes[f] = map[string]float64{}
		for _, c := range cs {
			votes[f][c.norm] += c.conf + 1 // +1: a zero-confidence read still votes
		}
		// '#' is often read as '4': an id one reading has with a leading
		// 4 and another without is the one without.
		if f == fieldID {
			for _, a := range cs {
				for _, b := range cs {
					if a.norm == "4"+b.norm {
						votes[f][b.norm] += idWithoutHashBonus
					}
				}
			}
		}
		sort.SliceStable(cs, func(a, b int) bool { return votes[f][cs[a].norm] > votes[f][cs[b].norm] })
		r.values[f] = cs[0]
		delete(r.unpaired, f)
	}
	best := -1.0
	for _, k := range cands[fieldKills] {
		for _, d := range cands[fieldDeaths] {
			for _, kd := range cands[fieldKD] {
				kn, _ := parseCount(k.norm)
				dn, _ := parseCount(d.norm)
				kdv, err := strconv.ParseFloat(kd.norm, 64)
				if err != nil || !kdMatches(kdv, kn, dn) {
					continue
				}
				score := votes[fieldKills][k.norm] + votes[fieldDeaths][d.norm] + votes[fieldKD][kd.norm]
				if score > best {
					best = score
					r.values[fieldKills], r.values[fieldDeaths], r.values[fieldKD] = k, d, kd
				}
			}
		}
	}
}

// consistent tells whether kills, deaths and K/D, when all read, agree.
func (r *reading) consistent() bool {
	k, okK := r.values[fieldKills]
	d, okD := r.values[fieldDeaths]
	kd, okKD := r.values[fieldKD]
	if !okK || !okD || !okKD {
		return true
	}
	kn, _ := parseCount(k.norm)
	dn, _ := parseCount(d.norm)
	kdv, err := strconv.ParseFloat(kd.norm, 64)
	return err == nil && kdMatches(kdv, kn, dn)
}

// clip shrinks a search area so it stops before the first word already
// read in it (another label, another tile's value) that is not label
// itself.
func (r *reading) clip(area, label image.Rectangle) image.Rectangle {
	for _, t := range r.tokens {
		if !t.box.Overlaps(area) || t.box.Overlaps(label) {
			continue
		}
		if !t.used && !isLabelStart(t.text) {
			continue // an unread value is what we look for
		}
		if t.box.Min.X > label.Max.X && t.box.Min.Y < label.Max.Y {
			area.Max.X = min(area.Max.X, t.box.Min.X-clipGapPx)
		} else if t.box.Min.Y > label.Max.Y {
			area.Max.Y = min(area.Max.Y, t.box.Min.Y-clipGapPx)
		}
	}
	return area
}

func pad(r image.Rectangle, n int) image.Rectangle { return r.Inset(-n) }

// readJobs cuts each job's box out of the ink image (blanking words
// already read there that belong to something else), trims it to its ink,
// scales small text up and reads it as one line, in raw-line and in line
// mode. Tesseract runs two at a time, one per core.
func (o *ocr) readJobs(ctx context.Context, g *guard, pg *page, r *reading, jobs []*job, args ...string) {
	const textH, margin = 40, 16
	psms := []string{"13", "7"}
	sem := make(chan struct{}, ocrRunsAtOnce)
	gs := g.group()
	for _, j := range jobs {
		j.box = j.box.Intersect(pg.ink.Bounds())
		if j.box.Empty() {
			continue
		}
		crop := image.NewGray(j.box)
		draw.Draw(crop, j.box, pg.ink, j.box.Min, draw.Src)
		for _, t := range r.tokens {
			if t.used && t.box.Overlaps(j.box) && t.box != j.keep {
				draw.Draw(crop, t.box.Intersect(j.box), image.White, image.Point{}, draw.Src)
			}
		}
		ink := inkBounds(crop)
		if ink.Empty() {
			continue
		}
		scale := max(1, min(rereadMaxScale, float64(textH)/float64(max(ink.Dy(), rereadMinInkPx))))
		w, h := max(1, int(float64(ink.Dx())*scale)), max(1, int(float64(ink.Dy())*scale))
		sheet := image.NewGray(image.Rect(0, 0, w+2*margin, h+2*margin))
		for i := range sheet.Pix {
			sheet.Pix[i] = 255
		}
		xdraw.BiLinear.Scale(sheet, image.Rect(margin, margin, margin+w, margin+h), crop, ink, draw.Src, nil)
		// Raw-line mode reads bold slashed zeros the line mode takes for
		// other digits, and the line mode reads what raw-line mode drops:
		// both are asked, and choose lets them vote.
		j.reads = make([]read, len(psms))
		for i, psm := range psms {
			gs.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				words, err := tesseract(ctx, o.bin, pgm(sheet), append([]string{"--psm", psm}, args...)...)
				if err != nil || len(words) == 0 {
					return
				}
				sort.SliceStable(words, func(a, b int) bool { return words[a].box.Min.X < words[b].box.Min.X })
				rd := read{text: words[0].text, conf: words[0].conf, raw: psm == "13"}
				for _, w := range words[1:] {
					rd.text += " " + w.text
					rd.conf = min(rd.conf, w.conf)
				}
				j.reads[i] = rd
			})
		}
	}
	gs.Wait()
}

// inkBounds is the box of the pixels darker than mid-grey, padded a little.
func inkBounds(g *image.Gray) image.Rectangle {
	box := maskBounds(darkMask(g)).Add(g.Bounds().Min)
	if box.Empty() {
		return box
	}
	return box.Inset(-max(inkBoundsPadPx, box.Dy()/inkBoundsPadDen)).Intersect(g.Bounds())
}

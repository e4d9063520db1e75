package extract

import (
	"context"
	"image"
	"image/draw"
	"sort"
	"strconv"
	"strings"
	"sync"
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

// job is one spot to read again: a value box, the space where an unpaired
// label's value should be, or the name.
type job struct {
	box   image.Rectangle
	keep  image.Rectangle // the word being read again, not blanked
	field field
	text  string
	conf  float64
}

func (o *ocr) reread(ctx context.Context, pg *page, r *reading) {
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
			nums = append(nums, &job{box: pad(v.box, v.box.Dy()/4), keep: v.box, field: f})
		}
	}
	pageBox := pg.ink.Bounds()
	for _, f := range stat {
		l, ok := r.unpaired[f]
		if !ok {
			continue
		}
		h := l.box.Dy()
		beside := image.Rect(l.box.Max.X+h/4, l.box.Min.Y-h*4/5, pageBox.Max.X, l.box.Max.Y+h*2/5)
		below := image.Rect(l.box.Min.X-h/2, l.box.Max.Y+h/10, l.box.Max.X+4*h, l.box.Max.Y+5*h/2)
		nums = append(nums, &job{box: r.clip(beside, l.box), field: f}, &job{box: r.clip(below, l.box), field: f})
	}
	var name *job
	if r.tallest != (image.Rectangle{}) && (r.name == "" || r.nameConf < rereadNameConf || r.tallest.Dy() > r.nameBox.Dy()*6/5) {
		name = &job{box: pad(r.tallest, r.tallest.Dy()/4), keep: r.tallest}
	}
	if len(nums) == 0 && name == nil {
		return
	}

	var wg sync.WaitGroup
	if len(nums) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.readJobs(ctx, pg, r, nums, "-c", "tessedit_char_whitelist=0123456789,.#%/")
		}()
	}
	if name != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.readJobs(ctx, pg, r, []*job{name})
		}()
	}
	wg.Wait()

	if name != nil {
		// The tallest word read well is the name; otherwise the better read.
		t := trimName(name.text)
		taller := name.keep.Dy() > r.nameBox.Dy()*6/5
		if plausibleName(t) && (taller && name.conf >= 50 || name.conf > r.nameConf || r.name == "") {
			r.name, r.nameBox, r.nameConf = t, name.box, name.conf
		}
	}
	// Candidates per field: the first reading and the second.
	cands := map[field][]token{}
	for f, v := range r.values {
		cands[f] = append(cands[f], v)
	}
	for _, j := range nums {
		norm, k, ok := classifyValue(strings.ReplaceAll(j.text, " ", ""))
		if !ok {
			continue
		}
		t := token{text: j.text, norm: norm, kind: k, num: true, box: j.box, conf: j.conf}
		if fits(j.field, t) {
			cands[j.field] = append(cands[j.field], t)
		}
	}
	r.choose(cands)
}

// choose keeps, per field, the candidate with the best confidence, except
// that kills, deaths and K/D are chosen together so that they agree.
func (r *reading) choose(cands map[field][]token) {
	for f, cs := range cands {
		sort.SliceStable(cs, func(a, b int) bool { return cs[a].conf > cs[b].conf })
		r.values[f] = cs[0]
		delete(r.unpaired, f)
	}
	ks, ds, kds := cands[fieldKills], cands[fieldDeaths], cands[fieldKD]
	best := -1.0
	for _, k := range ks {
		for _, d := range ds {
			for _, kd := range kds {
				kn, _ := parseCount(k.norm)
				dn, _ := parseCount(d.norm)
				kdv, err := strconv.ParseFloat(kd.norm, 64)
				if err != nil || !kdMatches(kdv, kn, dn) {
					continue
				}
				if score := k.conf + d.conf + kd.conf; score > best {
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
			area.Max.X = min(area.Max.X, t.box.Min.X-2)
		} else if t.box.Min.Y > label.Max.Y {
			area.Max.Y = min(area.Max.Y, t.box.Min.Y-2)
		}
	}
	return area
}

func pad(r image.Rectangle, n int) image.Rectangle { return r.Inset(-n) }

// readJobs stacks the jobs' boxes from the ink image into one image, reads
// it a line per box and stores each line's text and confidence.
func (o *ocr) readJobs(ctx context.Context, pg *page, r *reading, jobs []*job, args ...string) {
	bounds := pg.ink.Bounds()
	width, height := 0, 0
	var rows []image.Rectangle
	for _, j := range jobs {
		j.box = j.box.Intersect(bounds)
		gap := max(16, j.box.Dy()/2)
		rows = append(rows, image.Rect(gap, height+gap, gap+j.box.Dx(), height+gap+j.box.Dy()))
		width = max(width, j.box.Dx()+2*gap)
		height += j.box.Dy() + gap
	}
	height += 16
	if width == 0 || height == 0 {
		return
	}
	sheet := image.NewGray(image.Rect(0, 0, width, height))
	for i := range sheet.Pix {
		sheet.Pix[i] = 255
	}
	for i, j := range jobs {
		if j.box.Empty() {
			continue
		}
		draw.Draw(sheet, rows[i], pg.ink, j.box.Min, draw.Src)
		// Blank words already read there that belong to something else.
		for _, t := range r.tokens {
			if t.used && t.box.Overlaps(j.box) && t.box != j.keep {
				draw.Draw(sheet, t.box.Sub(j.box.Min).Add(rows[i].Min).Intersect(rows[i]), image.White, image.Point{}, draw.Src)
			}
		}
	}
	words, err := tesseract(ctx, o.bin, pgm(sheet), append([]string{"--psm", "6"}, args...)...)
	if err != nil {
		return
	}
	sort.SliceStable(words, func(a, b int) bool { return words[a].box.Min.X < words[b].box.Min.X })
	for _, w := range words {
		cy := (w.box.Min.Y + w.box.Max.Y) / 2
		for i, row := range rows {
			if cy >= row.Min.Y && cy < row.Max.Y {
				j := jobs[i]
				if j.text == "" {
					j.conf = w.conf
				} else {
					j.text += " "
					j.conf = min(j.conf, w.conf)
				}
				j.text += w.text
			}
		}
	}
}

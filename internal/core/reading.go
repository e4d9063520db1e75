package core

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Field names one figure of a stats screen.
type Field string

// The figures a stats screen can show. Wins are read only to check games.
const (
	FieldName   Field = "name"
	FieldSkID   Field = "sk_id"
	FieldLevel  Field = "level"
	FieldKills  Field = "kills"
	FieldDeaths Field = "deaths"
	FieldGames  Field = "games"
	FieldKD     Field = "kd"
	FieldWins   Field = "wins"
	// FieldBotsKills is the game's "Bots Kills": kills of computer karts,
	// which are not kills. Read so that it is never taken for them.
	FieldBotsKills Field = "bots_kills"
)

// Reading is what a reader found on a stats screenshot: the figures it
// read (a screen need not show them all), and the ones it is unsure of.
type Reading struct {
	Name   string
	SkID   string
	Level  int
	Kills  int
	Deaths int
	Games  int
	Wins   int
	KD     float64
	// BotsKills is read only to be told apart from kills.
	BotsKills int

	// Found holds the fields the reader read; the others are zero.
	Found map[Field]bool
	// Doubt holds the fields a player must confirm, with the reason.
	Doubt map[Field]string
	// Confidence says, from 0 to 1, how sure the reader is of each field
	// it read; a reader that cannot tell (Gemini) leaves it empty.
	Confidence map[Field]float64
	// Proposed holds the figures the screen's arithmetic worked out
	// rather than the reader read (each is also in Doubt, with the reason):
	// never saved before the player confirms them.
	Proposed map[Field]bool

	// Photo says the figures were read off a photo of a screen (its panel
	// straightened and resampled): each is held unless read clearly.
	Photo bool

	// CartImage is the kart alone, when the reader could cut it out.
	CartImage     []byte
	CartImageType string
}

// MsgUnreadable answers a screenshot a reader broke on (a panic: a bug met
// on an image nobody foresaw): the player is told to type their stats
// instead of seeing an empty server error.
const MsgUnreadable = "We could not read this screenshot — please enter your stats"

// Has tells whether the reader read f.
func (r Reading) Has(f Field) bool { return r.Found[f] }

// Set records a value read for f.
func (r *Reading) Set(f Field, v int) {
	switch f {
	case FieldLevel:
		r.Level = v
	case FieldKills:
		r.Kills = v
	case FieldDeaths:
		r.Deaths = v
	case FieldGames:
		r.Games = v
	case FieldWins:
		r.Wins = v
	case FieldBotsKills:
		r.BotsKills = v
	default:
		return
	}
	r.mark(f)
}

// SetKD records the K/D read.
func (r *Reading) SetKD(kd float64) { r.KD = kd; r.mark(FieldKD) }

// SetText records the name or the SK id read.
func (r *Reading) SetText(f Field, s string) {
	switch f {
	case FieldName:
		r.Name = s
	case FieldSkID:
		r.SkID = s
	default:
		return
	}
	r.mark(f)
}

func (r *Reading) mark(f Field) {
	if r.Found == nil {
		r.Found = map[Field]bool{}
	}
	r.Found[f] = true
}

// SetConfidence records how sure the reader is of f, from 0 to 1.
func (r *Reading) SetConfidence(f Field, c float64) {
	if r.Confidence == nil {
		r.Confidence = map[Field]float64{}
	}
	r.Confidence[f] = math.Round(min(1, max(0, c))*100) / 100
}

// Doubts marks f as needing the player's confirmation.
func (r *Reading) Doubts(f Field, why string) {
	if r.Doubt == nil {
		r.Doubt = map[Field]string{}
	}
	if _, ok := r.Doubt[f]; !ok {
		r.Doubt[f] = why
	}
}

// Check applies the rules every reading must pass before it may be saved
// without the player's say: each figure within the limits of Stats, a K/D
// that is kills/deaths, no more wins than games. What fails is marked
// doubtful, not dropped: the player sees it and decides. The checks are the
// same whichever reader made the reading.
func (r *Reading) Check() {
	counts := []struct {
		f   Field
		v   int
		max int
	}{
		{FieldLevel, r.Level, MaxLevel}, {FieldKills, r.Kills, MaxCount}, {FieldDeaths, r.Deaths, MaxCount},
		{FieldGames, r.Games, MaxCount}, {FieldWins, r.Wins, MaxCount}, {FieldBotsKills, r.BotsKills, MaxCount},
	}
	for _, c := range counts {
		if r.Has(c.f) && (c.v < 0 || c.v > c.max) {
			r.Doubts(c.f, "out of range")
		}
	}
	if r.Has(FieldKD) && (math.IsNaN(r.KD) || r.KD < 0 || r.KD > MaxKD) {
		r.Doubts(FieldKD, "out of range")
	}
	misread := r.balance()
	if r.Has(FieldWins) && r.Has(FieldGames) && r.Wins > r.Games {
		r.Doubts(FieldWins, "more wins than games")
		r.Doubts(FieldGames, "more wins than games")
	}
	if r.Has(FieldName) && !plainName(r.Name) {
		r.Doubts(FieldName, "not a player name")
	}
	if r.Has(FieldSkID) && (len(r.SkID) > MaxSkID || !skIDPattern.MatchString(r.SkID)) {
		r.Doubts(FieldSkID, "not an SK id")
	}
	r.standTogether(misread)
}

// ClearRead is the confidence from which a figure stands on its own beside
// figures in doubt: every read agreeing on it (the panel reader reads each
// figure three times), its glyphs matching at least half as well as a clean
// capture's. On the simulated photos of the captures tuned on, no figure
// read at 0.7 or more was wrong.
const ClearRead = 0.75

// The figures of one screenshot stand or fall together: one typeface, one
// size, one blur, one lens. When the screen's arithmetic caught a misread
// digit, the figures no arithmetic checks (level, wins, bots' kills, games)
// may hide another, and are held. When a figure is in doubt, or the
// reading is off a photo, the screenshot is a hard one, and every figure
// not read clearly (below ClearRead) is held: a reader that cannot say how
// sure it is (Gemini) is held by the arithmetic only.
func (r *Reading) standTogether(misread bool) {
	hard := r.Photo
	for f := range r.Doubt {
		hard = hard || f != FieldName && f != FieldSkID
	}
	if !hard && !misread {
		return
	}
	for _, f := range []Field{FieldLevel, FieldKills, FieldBotsKills, FieldDeaths, FieldKD, FieldWins, FieldGames} {
		if !r.Has(f) || r.Proposed[f] {
			continue
		}
		unchecked := f != FieldKills && f != FieldDeaths && f != FieldKD
		c, known := r.Confidence[f]
		switch {
		case misread && unchecked:
			r.Doubts(f, "another figure on this screenshot was misread: please check")
		case hard && known && c < ClearRead:
			r.Doubts(f, "hard to read on the screenshot")
		}
	}
}

// Sure tells whether nothing the player keeps needs their confirmation: no
// doubt on a figure that is saved, and no figure worked out rather than
// read. Wins and bots' kills are shown beside the stats, never saved: a
// doubt on them is shown, and does not hold the stats back.
func (r Reading) Sure() bool {
	for f := range r.Doubt {
		if f != FieldWins && f != FieldBotsKills {
			return false
		}
	}
	return len(r.Proposed) == 0
}

// The screen's own arithmetic: the game shows KDR = kills / deaths to two
// places. Of the three, one the reader could not read (occluded by a
// tooltip, cut, blurred) follows from the other two, nearly: kills and
// deaths only to within the K/D's rounding. And of three that disagree, the
// one at fault is the one a digit away from agreeing, or the only one read
// unsurely. Either way the figure is proposed, never saved: it is marked
// for the player to confirm, saying where it came from.

// unsure is the confidence below which a reader's read is one it doubts.
const unsure = 0.5

// balance applies the arithmetic: it proposes a missing figure of kills,
// deaths and K/D from the other two; of three that disagree it proposes
// the one at fault, or marks all three when it cannot tell which. misread
// tells that three were read and disagreed.
func (r *Reading) balance() (misread bool) {
	three := []Field{FieldKills, FieldDeaths, FieldKD}
	var missing []Field
	for _, f := range three {
		if !r.Has(f) {
			missing = append(missing, f)
		}
	}
	switch {
	case len(missing) == 1:
		f := missing[0]
		if v, ok := r.workedOut(f, ""); ok {
			r.propose(f, v, "worked out from "+r.others(f)+": please check")
		}
		return false
	case len(missing) == 0 && !KDMatches(r.KD, r.Kills, r.Deaths):
		var suspects []Field
		for _, f := range three {
			read := r.text(f)
			fix, ok := r.workedOut(f, read)
			oneDigit := ok && oneEdit(read, r.textOf(f, fix))
			alone := r.unsure(f)
			for _, o := range three {
				alone = alone && (o == f || !r.unsure(o))
			}
			if oneDigit || alone {
				suspects = append(suspects, f)
			}
		}
		if len(suspects) == 1 {
			f := suspects[0]
			read := r.text(f)
			if v, ok := r.workedOut(f, read); ok {
				r.propose(f, v, "read "+read+", but "+r.others(f)+" give "+r.textOf(f, v)+": please check")
				return true
			}
		}
		why := "K/D " + r.text(FieldKD) + " does not match kills / deaths"
		for _, f := range three {
			r.Doubts(f, why)
		}
		return true
	}
	return false
}

// others names the two figures f is worked out from.
func (r *Reading) others(f Field) string {
	switch f {
	case FieldKills:
		return "K/D × deaths"
	case FieldDeaths:
		return "kills ÷ K/D"
	}
	return "kills ÷ deaths"
}

func (r *Reading) unsure(f Field) bool {
	c, ok := r.Confidence[f]
	return ok && c < unsure
}

// text is f as the screen writes it.
func (r *Reading) text(f Field) string {
	switch f {
	case FieldKills:
		return strconv.Itoa(r.Kills)
	case FieldDeaths:
		return strconv.Itoa(r.Deaths)
	}
	return strconv.FormatFloat(r.KD, 'f', 2, 64)
}

// textOf writes v, a value of f, as the screen does.
func (r *Reading) textOf(f Field, v float64) string {
	if f == FieldKD {
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.Itoa(int(v))
}

// workedOut returns the value of f that the other two of kills, deaths and
// K/D give: of several (the K/D's rounding leaves room), the one a digit
// from read when there is one, else the middle one. ok is false when the
// other two give none, or too many to choose from.
func (r *Reading) workedOut(f Field, read string) (float64, bool) {
	if f == FieldKD {
		return KD(r.Kills, r.Deaths), true
	}
	// Kills or deaths: every count that agrees with the other two.
	var lo, hi int
	var mid float64
	kd := r.KD
	switch {
	case f == FieldKills && r.Deaths == 0: // the game shows the kills as the K/D
		if kd != math.Trunc(kd) {
			return 0, false
		}
		lo, hi, mid = int(kd), int(kd), kd
	case f == FieldKills:
		d := float64(r.Deaths)
		lo, hi, mid = int(math.Floor((kd-0.0101)*d)), int(math.Ceil((kd+0.0101)*d)), kd*d
	case kd < 0.02: // no deaths follow from a K/D this small
		return 0, false
	default:
		k := float64(r.Kills)
		lo, hi, mid = int(math.Floor(k/(kd+0.0101))), int(math.Ceil(k/(kd-0.0101))), k/kd
	}
	lo, hi = max(lo, 0), min(hi, MaxCount)
	if hi-lo > 100_000 {
		return 0, false
	}
	best, bestScore := -1, math.Inf(1)
	for v := lo; v <= hi; v++ {
		k, d := v, r.Deaths
		if f == FieldDeaths {
			k, d = r.Kills, v
		}
		if !KDMatches(kd, k, d) {
			continue
		}
		score := math.Abs(float64(v) - mid)
		if read != "" && oneEdit(read, strconv.Itoa(v)) {
			score -= MaxCount // a digit from what was read: the likeliest
		}
		if score < bestScore {
			best, bestScore = v, score
		}
	}
	return float64(best), best >= 0
}

// propose sets f to v, worked out rather than read, for the player to
// confirm; why says where it came from.
func (r *Reading) propose(f Field, v float64, why string) {
	if f == FieldKD {
		r.SetKD(v)
	} else {
		r.Set(f, int(v))
	}
	if r.Proposed == nil {
		r.Proposed = map[Field]bool{}
	}
	r.Proposed[f] = true
	if r.Doubt == nil {
		r.Doubt = map[Field]string{}
	}
	r.Doubt[f] = why
	delete(r.Confidence, f) // not read: no reader's sureness
}

// oneEdit tells whether a and b differ by at most one character changed,
// added or dropped: a digit misread, or one lost or doubled.
func oneEdit(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > 1 {
		return false
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i:] == "" || a[i+1:] == b[i+1:]
	}
	return a[i+1:] == b[i:]
}

// Figures reports whether any figure (not just a name or an id) was read.
func (r Reading) Figures() bool {
	for _, f := range []Field{FieldLevel, FieldKills, FieldDeaths, FieldGames, FieldKD} {
		if r.Has(f) {
			return true
		}
	}
	return false
}

// Stats turns the reading into a record: the K/D follows from kills and
// deaths when both were read, and what the screen did not show stays zero.
func (r Reading) Stats() Stats {
	s := Stats{
		PlayerName: strings.TrimSpace(r.Name), SkID: NormalizeSkID(r.SkID),
		Level: r.Level, Kills: r.Kills, Deaths: r.Deaths, GamesPlayed: r.Games, KD: r.KD,
	}
	if r.Has(FieldKills) && r.Has(FieldDeaths) {
		s.KD = KD(r.Kills, r.Deaths)
	}
	s.KD = math.Round(s.KD*100) / 100
	return s
}

func plainName(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > MaxPlayerName || !utf8.ValidString(s) {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
}

// Defaults the seed gives the figures a screen did not show, in its
// answer to an upload.
const (
	DefaultName  = "Player"
	DefaultLevel = "1"
	DefaultCount = "0"
	DefaultSkID  = "N/A"
	DefaultKD    = "0.00"
)

// Extracted is the answer to an upload: the figures as strings, the
// seed's defaults for what was not read, the kart as a URL, and (ours) the
// fields the player must confirm before the stats are saved.
type Extracted struct {
	DiscordUsername string            `json:"discord_username"`
	Level           string            `json:"level"`
	Kills           string            `json:"kills"`
	Deaths          string            `json:"deaths"`
	TotalGames      string            `json:"total_games"`
	SkID            string            `json:"sk_id"`
	KDRatio         string            `json:"kd_ratio"`
	CartImage       *string           `json:"cart_image"`
	Doubtful        map[string]string `json:"doubtful,omitempty"`

	// Ours, beyond the seed: the screen's other figures, shown to the
	// player as they confirm (wins are not games, bots' kills are not
	// kills); how sure the reader is of each field (0 to 1), when it can
	// tell; and the fields the screen did not show, which the player may
	// type (their values above are the seed's defaults).
	Wins       string             `json:"wins,omitempty"`
	BotsKills  string             `json:"bots_kills,omitempty"`
	Confidence map[string]float64 `json:"confidence,omitempty"`
	Missing    []string           `json:"missing,omitempty"`
	// Proposed are the figures worked out from the others by the screen's
	// arithmetic rather than read (each is in Doubtful, with the reason).
	Proposed []string `json:"proposed,omitempty"`
}

// Extracted renders the reading as the seed's answer.
func (r Reading) Extracted(cartImage *string) Extracted {
	s := r.Stats()
	count := func(f Field, v int, def string) string {
		if !r.Has(f) {
			return def
		}
		return strconv.Itoa(v)
	}
	out := Extracted{
		DiscordUsername: DefaultName,
		Level:           count(FieldLevel, s.Level, DefaultLevel),
		Kills:           count(FieldKills, s.Kills, DefaultCount),
		Deaths:          count(FieldDeaths, s.Deaths, DefaultCount),
		TotalGames:      count(FieldGames, s.GamesPlayed, DefaultCount),
		SkID:            DefaultSkID,
		KDRatio:         DefaultKD,
		CartImage:       cartImage,
	}
	if s.PlayerName != "" {
		out.DiscordUsername = s.PlayerName
	}
	if s.SkID != "" {
		out.SkID = s.SkID
	}
	// The K/D the screen showed (or the arithmetic proposed), as it was:
	// one worked out from misread kills would hide the figure that tells
	// which of the three is wrong.
	switch {
	case r.Has(FieldKD):
		out.KDRatio = strconv.FormatFloat(math.Round(r.KD*100)/100, 'f', 2, 64)
	case r.Has(FieldKills) && r.Has(FieldDeaths):
		out.KDRatio = strconv.FormatFloat(s.KD, 'f', 2, 64)
	}
	if r.Has(FieldWins) {
		out.Wins = strconv.Itoa(r.Wins)
	}
	if r.Has(FieldBotsKills) {
		out.BotsKills = strconv.Itoa(r.BotsKills)
	}
	for _, f := range []Field{FieldName, FieldLevel, FieldKills, FieldDeaths, FieldGames, FieldSkID, FieldKD} {
		if !r.Has(f) && !(f == FieldKD && r.Has(FieldKills) && r.Has(FieldDeaths)) {
			out.Missing = append(out.Missing, string(f))
		}
	}
	for f, c := range r.Confidence {
		if out.Confidence == nil {
			out.Confidence = map[string]float64{}
		}
		out.Confidence[string(f)] = c
	}
	for _, f := range []Field{FieldKills, FieldDeaths, FieldKD} {
		if r.Proposed[f] {
			out.Proposed = append(out.Proposed, string(f))
		}
	}
	for f, why := range r.Doubt {
		if out.Doubtful == nil {
			out.Doubtful = map[string]string{}
		}
		out.Doubtful[string(f)] = why
	}
	return out
}

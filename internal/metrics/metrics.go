// Package metrics measures the product against its own goals (the deck's
// "Success Metrics & Goals") from the league's data and what the instances
// and the browsers record: the sign-up funnel and who is stuck where (with
// reminders organisers send them), real-user page timings (web-vitals
// beacons), the API's timings and error rate across every instance, uptime
// from the instances' heartbeat, and the live view of a night (spectators,
// events a second, the relay's lag, bids per lot).
//
// What is kept and for how long is in docs/metrics.md. Organisers read the
// whole dashboard; anyone reads the goals' figures (counts and shares, no
// names), which the deck shows.
package metrics

import (
	"context"
	"sync"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/tournament"
)

// Tournaments finds the seasons (tournament.Service).
type Tournaments interface {
	Find(ctx context.Context, name string) (tournament.Tournament, error)
	Current(ctx context.Context) (tournament.Tournament, error)
}

// Store keeps and reads what is measured (internal/postgres).
type Store interface {
	Funnel(ctx context.Context, q FunnelQuery) (Funnel, error)
	FunnelDays(ctx context.Context, q FunnelQuery) ([]FunnelDay, error)
	Stuck(ctx context.Context, q FunnelQuery, step string, limit int) ([]StuckPlayer, error)
	// Participants counts the tournament's confirmed registrations;
	// Players the verified accounts (not deleted, not organisers').
	Participants(ctx context.Context, tournamentID int64) (int, error)
	Players(ctx context.Context, organisers []string) (int, error)

	AddRUM(ctx context.Context, at time.Time, counts []RUMCount) error
	RUM(ctx context.Context, since time.Time) ([]RUMCount, error)
	// RUMSeries is LCP's counts over every page per stretch of res.
	RUMSeries(ctx context.Context, since time.Time, res Resolution) ([]TimedCount, error)
	AddAPI(ctx context.Context, instance string, at time.Time, rows []APIRow) error
	API(ctx context.Context, since time.Time) ([]APIRow, error)
	APISeries(ctx context.Context, since time.Time, res Resolution) ([]APIPoint, error)

	// Beat records an instance as up this minute with what its hub holds.
	Beat(ctx context.Context, in Instance) error
	Leave(ctx context.Context, id string) error
	Instances(ctx context.Context) ([]Instance, error)
	// MinutesUp counts the minutes since since in which an instance beat,
	// and the first minute any did (the zero time for none).
	MinutesUp(ctx context.Context, since time.Time) (int, time.Time, error)
	Live(ctx context.Context, tournamentID int64) (Live, error)
}

// Flusher writes what this instance counted since its last minute and its
// hub's figures now (the Recorder), so a read sees this instance's latest;
// the others' come with their next minute and beat.
type Flusher interface {
	Flush(ctx context.Context) error
	Beat(ctx context.Context) error
}

// Service reads the dashboard and takes the browsers' beacons.
type Service struct {
	Store       Store
	Tournaments Tournaments
	// Organisers are ADMIN_EMAILS: their accounts are not counted as players.
	Organisers []string
	// Recorder is this instance's, nil in a process without one.
	Recorder Flusher
	// Reminders sends reminders (reminders.go); nil: none can be sent.
	Reminders *Reminders
	// FirstToday tells whether a client (its address as the rate limits
	// reckon it) sends its first page load in a day, which alone counts
	// toward the page-load goal (goals.go); nil: none counts.
	FirstToday func(ctx context.Context, client string) bool
	Now        func() time.Time

	mu      sync.Mutex
	summary *Summary
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Record keeps a browser's beacon, sent by client: every value for the
// pages' timings, and a client's first LCP of the day for the page-load goal
// too.
func (s *Service) Record(ctx context.Context, client string, b Beacon) error {
	if err := b.Validate(); err != nil {
		return err
	}
	counts := b.Counts()
	if c, ok := b.goalCount(); ok && s.FirstToday != nil && s.FirstToday(ctx, client) {
		counts = append(counts, c)
	}
	return s.Store.AddRUM(ctx, s.now(), counts)
}

// Dashboard is everything /admin/metrics shows.
type Dashboard struct {
	Tournament  string                   `json:"tournament"`
	Window      Window                   `json:"window"`
	GeneratedAt time.Time                `json:"generated_at"`
	Targets     []Target                 `json:"targets"`
	Funnel      []FunnelStep             `json:"funnel"`
	Deleted     int                      `json:"funnel_deleted"`
	Days        []FunnelDay              `json:"funnel_daily"`
	Stuck       map[string][]StuckPlayer `json:"stuck"`
	RUM         map[string]RouteTimings  `json:"rum"`
	RUMSeries   []RUMPoint               `json:"rum_series"`
	API         APIFigures               `json:"api"`
	APISeries   []APIPoint               `json:"api_series"`
	Uptime      Uptime                   `json:"uptime"`
	Live        Live                     `json:"live"`
}

// Dashboard reads the named tournament's dashboard ("" the current season)
// over the window since names (see ParseWindow). Organisers only.
func (s *Service) Dashboard(ctx context.Context, a core.Actor, name, since string) (Dashboard, error) {
	if err := a.MustBeAdmin(); err != nil {
		return Dashboard{}, err
	}
	t, err := s.tournament(ctx, name)
	if err != nil {
		return Dashboard{}, err
	}
	now := s.now()
	w, err := ParseWindow(since, t.CreatedAt, now)
	if err != nil {
		return Dashboard{}, err
	}
	if s.Recorder != nil {
		// This instance's requests since its last minute count too; a
		// failure costs them, not the read.
		_ = s.Recorder.Flush(ctx)
		_ = s.Recorder.Beat(ctx)
	}
	d := Dashboard{Tournament: t.Name, Window: w, GeneratedAt: now, Stuck: map[string][]StuckPlayer{}}
	q := s.funnelQuery(t, w.Since)
	f, err := s.Store.Funnel(ctx, q)
	if err != nil {
		return d, err
	}
	d.Funnel, d.Deleted = f.Steps, f.Deleted
	if d.Days, err = s.Store.FunnelDays(ctx, q); err != nil {
		return d, err
	}
	for _, st := range f.Steps {
		if st.Step == StepSignedUp || st.Stuck == 0 {
			continue
		}
		if d.Stuck[st.Step], err = s.Store.Stuck(ctx, q, st.Step, MaxStuckListed); err != nil {
			return d, err
		}
	}
	rum, err := s.Store.RUM(ctx, w.Since)
	if err != nil {
		return d, err
	}
	d.RUM = Timings(rum)
	res := w.Resolution(now)
	d.Window.Stretch = res
	lcp, err := s.Store.RUMSeries(ctx, w.Since, res)
	if err != nil {
		return d, err
	}
	d.RUMSeries = lcpSeries(lcp)
	apiRows, err := s.Store.API(ctx, w.Since)
	if err != nil {
		return d, err
	}
	d.API = SummarizeAPI(apiRows)
	if d.APISeries, err = s.Store.APISeries(ctx, w.Since, res); err != nil {
		return d, err
	}
	for i := range d.APISeries {
		d.APISeries[i].P95Ms = ms(Histogram{Bounds: APIBounds, Counts: d.APISeries[i].Buckets}, .95)
	}
	if d.Uptime, err = s.uptime(ctx, w.Since, now); err != nil {
		return d, err
	}
	if d.Live, err = s.Store.Live(ctx, t.ID); err != nil {
		return d, err
	}
	figures := Figures{Funnel: f, PageLoadMs: PageLoadGoal(rum), APIp95Ms: d.API.P95Ms, ErrorRate: d.API.ErrorRate, Uptime: d.Uptime.Ratio}
	if figures.Participants, err = s.Store.Participants(ctx, t.ID); err != nil {
		return d, err
	}
	if figures.RegisteredUsers, err = s.Store.Players(ctx, s.Organisers); err != nil {
		return d, err
	}
	d.Targets = Targets(figures)
	return d, nil
}

// LiveView is the night's live figures alone, read often. Organisers only.
func (s *Service) LiveView(ctx context.Context, a core.Actor, name string) (Live, error) {
	if err := a.MustBeAdmin(); err != nil {
		return Live{}, err
	}
	t, err := s.tournament(ctx, name)
	if err != nil {
		return Live{}, err
	}
	if s.Recorder != nil {
		_ = s.Recorder.Beat(ctx)
	}
	return s.Store.Live(ctx, t.ID)
}

func (s *Service) tournament(ctx context.Context, name string) (tournament.Tournament, error) {
	if name == "" {
		return s.Tournaments.Current(ctx)
	}
	return s.Tournaments.Find(ctx, name)
}

func (s *Service) funnelQuery(t tournament.Tournament, since time.Time) FunnelQuery {
	return FunnelQuery{TournamentID: t.ID, Since: since, Organisers: s.Organisers, CheckinOpened: t.Checkin.OpenedAt != nil}
}

// TimedCount is one bucket's count of LCP in one stretch of a chart.
type TimedCount struct {
	At     time.Time
	Bucket int
	N      int64
}

// lcpSeries is LCP's p75 over every page, stretch by stretch.
func lcpSeries(counts []TimedCount) []RUMPoint {
	points := []RUMPoint{}
	var h Histogram
	flush := func(at time.Time) {
		if h.Counts == nil {
			return
		}
		v, _ := h.Quantile(.75)
		v = float64(int64(v + .5))
		points = append(points, RUMPoint{At: at, LCPp75: &v, Samples: h.N()})
	}
	var at time.Time
	for _, c := range counts { // ordered by time
		if !c.At.Equal(at) {
			flush(at)
			at, h = c.At, NewHistogram(msBounds)
		}
		if c.Bucket >= 0 && c.Bucket < len(h.Counts) {
			h.Counts[c.Bucket] += c.N
		}
	}
	flush(at)
	return points
}

// Summary is the goals' figures anyone may read (the deck shows them):
// counts and shares, no names.
type Summary struct {
	Tournament  string    `json:"tournament"`
	GeneratedAt time.Time `json:"generated_at"`
	Targets     []Target  `json:"targets"`
}

// SummaryTTL is how long an instance serves the summary it worked out.
const SummaryTTL = time.Minute

// Summary is the current season's goals, worked out at most once a minute
// per instance (anyone may ask for it).
func (s *Service) Summary(ctx context.Context) (Summary, error) {
	now := s.now()
	s.mu.Lock()
	cached := s.summary
	s.mu.Unlock()
	if cached != nil && now.Sub(cached.GeneratedAt) < SummaryTTL {
		return *cached, nil
	}
	t, err := s.Tournaments.Current(ctx)
	if err != nil {
		return Summary{}, err
	}
	f, err := s.Store.Funnel(ctx, s.funnelQuery(t, t.CreatedAt))
	if err != nil {
		return Summary{}, err
	}
	rum, err := s.Store.RUM(ctx, t.CreatedAt)
	if err != nil {
		return Summary{}, err
	}
	rows, err := s.Store.API(ctx, t.CreatedAt)
	if err != nil {
		return Summary{}, err
	}
	api := SummarizeAPI(rows)
	up, err := s.uptime(ctx, t.CreatedAt, now)
	if err != nil {
		return Summary{}, err
	}
	figures := Figures{Funnel: f, PageLoadMs: PageLoadGoal(rum), APIp95Ms: api.P95Ms, ErrorRate: api.ErrorRate, Uptime: up.Ratio}
	if figures.Participants, err = s.Store.Participants(ctx, t.ID); err != nil {
		return Summary{}, err
	}
	if figures.RegisteredUsers, err = s.Store.Players(ctx, s.Organisers); err != nil {
		return Summary{}, err
	}
	out := Summary{Tournament: t.Name, GeneratedAt: now, Targets: Targets(figures)}
	s.mu.Lock()
	s.summary = &out
	s.mu.Unlock()
	return out, nil
}

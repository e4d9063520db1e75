// A Discord thread per match: opened when its two sides are known, told of its time, its proposals, its result and any ruling, archived when it completes.

package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/pitlane/pitlane/internal/core"
	"github.com/pitlane/pitlane/internal/matches"
)

// Threads opens and writes to threads in the match channel
// (discord.MatchThreads).
type Threads interface {
	// Open starts a thread named name in the match channel with first as
	// its first message, and returns its id.
	Open(ctx context.Context, name string, first Reply) (string, error)
	Post(ctx context.Context, threadID string, r Reply) error
	Archive(ctx context.Context, threadID string) error
}

// ThreadStore keeps each match's thread and what was posted in it
// (postgres.Bot).
type ThreadStore interface {
	Claims
	// ClaimThread reports whether this call is the first for the match:
	// only the first opens its thread.
	ClaimThread(ctx context.Context, matchID int64) (bool, error)
	SaveThread(ctx context.Context, matchID int64, threadID string) error
	// ThreadOf is the match's thread ("" for none yet).
	ThreadOf(ctx context.Context, matchID int64) (string, error)
	// DiscordIDs are the users' linked Discord accounts.
	DiscordIDs(ctx context.Context, userIDs []int64) (map[int64]string, error)
	// ResetThreads are the threads of the matches a reset took away that
	// were still open (a completed match's thread is archived already), by
	// match id.
	ResetThreads(ctx context.Context, resetID int64) (map[int64]string, error)
}

// MatchThreads follows the bracket topic and keeps a thread per match in
// the match channel. A match's thread is opened once (its row is claimed
// first), so a restart or an event heard twice never opens a second; each
// post is claimed too. The room is never posted: it stays an ephemeral or
// DM answer (`/matches`). What the hub could not hand over (a resync) and
// what failed is read again from the outbox (Missed), as the announcer does.
type MatchThreads struct {
	Feed core.Feed
	// Missed is the outbox (postgres.Bot); nil: what the hub misses is
	// passed over.
	Missed Outbox
	// Horizon bounds how late a match's news is posted. Default 10 minutes.
	Horizon   time.Duration
	Store     ThreadStore
	Threads   Threads
	Matches   *matches.Service
	PublicURL string
	Log       *slog.Logger
}

// Run keeps the threads until ctx ends.
func (t *MatchThreads) Run(ctx context.Context) {
	f := &follower{outbox: t.Missed, horizon: t.Horizon, handle: t.Handle, log: t.Log, what: "match thread"}
	f.run(ctx, t.Feed, core.TopicBracket)
}

// Handle acts on one bracket event: fixtures made open their matches'
// threads; a match's change is posted in its thread; a reset archives the
// threads of the matches it took away.
func (t *MatchThreads) Handle(ctx context.Context, d core.Delivery) error {
	var v struct {
		Tournament string         `json:"tournament"`
		Match      *matches.Match `json:"match"`
		Reset      *struct {
			ID int64 `json:"id"`
		} `json:"reset"`
	}
	if json.Unmarshal(d.Data, &v) != nil {
		return nil
	}
	switch d.Event {
	case matches.EventBracket:
		all, err := t.Matches.Matches(ctx, core.System, v.Tournament, "")
		if err != nil {
			return err
		}
		for _, m := range all {
			if _, err := t.thread(ctx, m); err != nil {
				return err
			}
		}
		return nil
	case matches.EventMatch, matches.EventProposal:
		if v.Match == nil {
			return nil
		}
		return t.update(ctx, d, *v.Match)
	case matches.EventReset:
		if v.Reset == nil {
			return nil
		}
		return t.reset(ctx, v.Tournament, v.Reset.ID)
	}
	return nil
}

// reset closes the threads of the matches a reset took away: each is told
// the match is off (once) and archived. The next fixtures open threads of
// their own.
func (t *MatchThreads) reset(ctx context.Context, tournament string, resetID int64) error {
	threads, err := t.Store.ResetThreads(ctx, resetID)
	if err != nil {
		return err
	}
	ids := slices.Sorted(maps.Keys(threads))
	for _, matchID := range ids {
		thread := threads[matchID]
		first, err := t.Store.ClaimAnnouncement(ctx, fmt.Sprintf("thread-reset:%d", matchID))
		if err != nil {
			return err
		}
		if first {
			text := fmt.Sprintf("↩️ The organisers reset the fixtures of %s: this match is off. The new fixtures get threads of their own. This thread is archived.", tournament)
			if err := t.Threads.Post(ctx, thread, Reply{Text: text}); err != nil {
				return err
			}
		}
		if err := t.Threads.Archive(ctx, thread); err != nil {
			return err
		}
	}
	return nil
}

// thread is m's thread, opened now if m is to be played and has none ("":
// no thread).
func (t *MatchThreads) thread(ctx context.Context, m matches.Match) (string, error) {
	id, err := t.Store.ThreadOf(ctx, m.ID)
	if err != nil || id != "" || m.Team1 == nil || m.Team2 == nil ||
		m.Status == matches.StatusCompleted || m.Status == matches.StatusCancelled {
		return id, err
	}
	first, err := t.Store.ClaimThread(ctx, m.ID)
	if err != nil || !first {
		return "", err
	}
	opening, err := t.opening(ctx, m)
	if err != nil {
		return "", err
	}
	id, err = t.Threads.Open(ctx, threadName(m), opening)
	if err != nil {
		return "", err
	}
	// The time it opened with is posted already.
	if _, err := t.Store.ClaimAnnouncement(ctx, timeKey(m)); err != nil {
		return "", err
	}
	return id, t.Store.SaveThread(ctx, m.ID, id)
}

// update posts m's news in its thread: a new time, a proposal, a dispute,
// the result (then the thread is archived).
func (t *MatchThreads) update(ctx context.Context, d core.Delivery, m matches.Match) error {
	id, err := t.thread(ctx, m)
	if err != nil || id == "" {
		return err
	}
	post := func(key, text string) error {
		first, err := t.Store.ClaimAnnouncement(ctx, key)
		if err != nil || !first {
			return err
		}
		return t.Threads.Post(ctx, id, Reply{Text: text})
	}
	switch {
	case d.Event == matches.EventProposal && m.Proposal != nil:
		times := make([]string, len(m.Proposal.Times))
		for i, at := range m.Proposal.Times {
			times[i] = fmt.Sprintf("<t:%d:F>", at.Unix())
		}
		return post(fmt.Sprintf("thread-proposal:%d:%d", m.ID, d.Seq), fmt.Sprintf("📅 Team %s proposes %s. The other captain accepts one or counters on %s.",
			m.Proposal.By, strings.Join(times, ", "), t.matchURL(m)))
	case m.Status == matches.StatusDisputed:
		return post(fmt.Sprintf("thread-dispute:%d", m.ID), fmt.Sprintf("⚠️ The result is disputed: %s. An organiser will rule on it.", m.Dispute))
	case m.Status == matches.StatusCompleted && m.Winner != nil:
		if err := post(fmt.Sprintf("thread-result:%d:%s", m.ID, *m.Winner), resultText(m)); err != nil {
			return err
		}
		return t.Threads.Archive(ctx, id)
	case m.Status == matches.StatusScheduled || m.Status == matches.StatusLive:
		return post(timeKey(m), "🕒 "+timeText(m))
	}
	return nil
}

// opening is a thread's first message: the match, its sides' linked
// members (mentioned, so they join the thread), its time, where the room is.
func (t *MatchThreads) opening(ctx context.Context, m matches.Match) (Reply, error) {
	var ids []int64
	for _, side := range m.Sides() {
		for _, p := range m.Members[side.ID] {
			ids = append(ids, p.UserID)
		}
	}
	linked, err := t.Store.DiscordIDs(ctx, ids)
	if err != nil {
		return Reply{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s — %s**, match #%d: %s (home) vs %s.\n", m.Tournament, matches.RoundName(m.Stage, m.Round), m.ID,
		teamName(m.Team1.ID, m.Team1.Name), teamName(m.Team2.ID, m.Team2.Name))
	var mentions []string
	for _, side := range m.Sides() {
		var names []string
		for _, p := range m.Members[side.ID] {
			if d, ok := linked[p.UserID]; ok {
				names = append(names, "<@"+d+">")
				mentions = append(mentions, d)
			} else {
				names = append(names, p.Name)
			}
		}
		fmt.Fprintf(&b, "Team %s: %s\n", side.ID, strings.Join(names, ", "))
	}
	fmt.Fprintf(&b, "🕒 %s\n", timeText(m))
	fmt.Fprintf(&b, "The room code is never posted here: ask me `/matches` (only you see the answer) or open %s.", t.matchURL(m))
	return Reply{Text: b.String(), Mentions: mentions}, nil
}

func (t *MatchThreads) matchURL(m matches.Match) string {
	return fmt.Sprintf("%s/matches/%d", strings.TrimRight(t.PublicURL, "/"), m.ID)
}

// threadName names a match's thread (Discord allows 100 characters).
func threadName(m matches.Match) string {
	return truncate(fmt.Sprintf("#%d %s v %s — %s", m.ID, m.Team1.Name, m.Team2.Name, matches.RoundName(m.Stage, m.Round)), 99)
}

// timeKey claims the post of m's time, once per time.
func timeKey(m matches.Match) string {
	at := "none"
	if m.ScheduledAt != nil {
		at = fmt.Sprint(m.ScheduledAt.Unix())
	}
	return fmt.Sprintf("thread-time:%d:%s", m.ID, at)
}

func timeText(m matches.Match) string {
	if m.ScheduledAt == nil {
		return "No time yet: the home captain proposes times on Pitlane, the other captain accepts one or counters."
	}
	at := m.ScheduledAt.Unix()
	return fmt.Sprintf("Match time: <t:%d:F> (<t:%d:R>).", at, at)
}

func resultText(m matches.Match) string {
	win, lose := m.Team1, m.Team2
	if *m.Winner != win.ID {
		win, lose = lose, win
	}
	text := fmt.Sprintf("🏆 %s beat %s.", teamName(win.ID, win.Name), teamName(lose.ID, lose.Name))
	switch {
	case m.Forfeit:
		text = fmt.Sprintf("🏳️ %s won by forfeit against %s.", teamName(win.ID, win.Name), teamName(lose.ID, lose.Name))
	case m.Dispute != "" || m.ReportedBy == nil:
		text += " An organiser ruled on the match."
	}
	return text + " This thread is archived."
}

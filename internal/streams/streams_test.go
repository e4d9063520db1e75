package streams

import (
	"testing"
	"time"
)

func TestSortLeagueCastsThenTodaysPlayersThenTheRest(t *testing.T) {
	match := int64(7)
	list := []Stream{
		{Channel: "offline_cast", Official: true},
		{Channel: "big_rest", Live: true, Viewers: 900},
		{Channel: "player_in_match", Live: true, Viewers: 5, MatchID: &match},
		{Channel: "cast", Live: true, Viewers: 1, Official: true},
		{Channel: "small_rest", Live: true, Viewers: 2},
	}
	Sort(list)
	want := []string{"cast", "player_in_match", "big_rest", "small_rest", "offline_cast"}
	for i, w := range want {
		if list[i].Channel != w {
			t.Fatalf("order %d: %s, want %s (%v)", i, list[i].Channel, w, list)
		}
	}
}

func TestReconcile(t *testing.T) {
	now := time.Now()
	started := now.Add(-time.Hour)
	live := map[string]Live{"1": {ChannelID: "1", Title: "final", Viewers: 40, StartedAt: started}}
	t.Run("LiveOnTheListIsLive", func(t *testing.T) {
		st, changed := reconcile(Channel{ChannelID: "1"}, live, now)
		if !changed || !st.Live || st.Title != "final" || st.Viewers != 40 {
			t.Fatalf("%+v %v", st, changed)
		}
	})
	t.Run("SameStateIsNoChange", func(t *testing.T) {
		cur := State{Live: true, Title: "final", Viewers: 40, StartedAt: &started}
		if _, changed := reconcile(Channel{ChannelID: "1", State: cur}, live, now); changed {
			t.Fatal("an unchanged stream was taken for a change")
		}
	})
	t.Run("MissingFromTheListGoesOffline", func(t *testing.T) {
		c := Channel{ChannelID: "2", State: State{Live: true, Title: "t"}, ChangedAt: now.Add(-OnlineGrace - time.Second)}
		st, changed := reconcile(c, live, now)
		if !changed || st.Live {
			t.Fatalf("%+v %v", st, changed)
		}
	})
	t.Run("JustNotifiedOnlineStaysLive", func(t *testing.T) {
		// Helix lists a stream a while after EventSub tells of it.
		c := Channel{ChannelID: "2", State: State{Live: true}, ChangedAt: now.Add(-30 * time.Second)}
		if st, changed := reconcile(c, live, now); changed || !st.Live {
			t.Fatalf("%+v %v", st, changed)
		}
	})
}

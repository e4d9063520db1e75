package api_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/pitlane/pitlane/internal/api"
)

// The page the hub sends in a resync frame is what a visitor's REST read of
// it answers, with its seq; a page a visitor may not read is not sent.
func TestAPageForTheHubIsWhatAVisitorReads(t *testing.T) {
	s, _ := leagueServer(t, "auction")
	var pages api.Pages
	if _, err := pages.Read(context.Background(), "/api/tournaments/PPL7/auction"); err == nil {
		t.Fatal("a page was read before the router was set")
	}
	pages.Serve(s.App.Handler)
	for _, path := range []string{"/api/tournaments/PPL7/auction", "/api/tournaments/PPL7/bracket", "/api/tournament/registrations?tournamentName=PPL7"} {
		rest := s.Do(t, "GET", path, "", nil)
		p, err := pages.Read(context.Background(), path)
		if err != nil || rest.Status != 200 {
			t.Fatalf("%s: %v (REST %d)", path, err, rest.Status)
		}
		var page map[string]any
		if err := json.Unmarshal(p.Body, &page); err != nil {
			t.Fatal(err)
		}
		delete(page, "now") // the auction's clock, the moment of each read
		delete(rest.JSON, "now")
		if !reflect.DeepEqual(page, rest.JSON) || float64(p.Seq) != rest.JSON["seq"].(float64) {
			t.Fatalf("%s: page at seq %d = %.80s…, REST = %.80s…", path, p.Seq, p.Body, rest.Body)
		}
	}
	for _, path := range []string{"/api/me", "/api/no/such/page", "/api/config"} {
		if _, err := pages.Read(context.Background(), path); err == nil {
			t.Errorf("%s: read as a page, want an error (not public, missing, or no seq)", path)
		}
	}
}

package metrics

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// webPatterns are the web app's page patterns (web/src/lib/page-patterns.json),
// which its router's test keeps equal to the router's routes and by which
// its beacons name a page.
const webPatterns = "../../web/src/lib/page-patterns.json"

// TestRoutesAreTheWebAppsPages: a beacon may name every page the web app
// has, and only those (and "other"): a page the list lacked was pooled as
// "other", or its beacons refused.
func TestRoutesAreTheWebAppsPages(t *testing.T) {
	raw, err := os.ReadFile(webPatterns)
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	if err := json.Unmarshal(raw, &patterns); err != nil {
		t.Fatalf("%s: %v", webPatterns, err)
	}
	want := append(slices.Clone(patterns), "other")
	slices.Sort(want)
	got := slices.Clone(Routes)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("Routes are %v, the web app's pages %v", got, want)
	}
}

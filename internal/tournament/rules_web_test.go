package tournament

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// webRules is the web app's copy of Rules (web/src/lib/phase-rules.json):
// the pages offer an action only in the phases, and to the kinds of actor,
// the server takes it from.
const webRules = "../../web/src/lib/phase-rules.json"

type webRule struct {
	Who    []Who    `json:"who"`
	Phases []string `json:"phases"`
}

// TestWebAppKnowsTheRules: every rule is in the web app's copy, as it is
// here, and the copy holds no rule the server does not have.
func TestWebAppKnowsTheRules(t *testing.T) {
	raw, err := os.ReadFile(webRules)
	if err != nil {
		t.Fatal(err)
	}
	var copied map[Action]webRule
	if err := json.Unmarshal(raw, &copied); err != nil {
		t.Fatalf("%s: %v", webRules, err)
	}
	for act, r := range Rules {
		c, ok := copied[act]
		switch {
		case !ok:
			t.Errorf("%s has no rule for %q", webRules, act)
		case !slices.Equal(c.Who, r.Who) || !slices.Equal(c.Phases, r.Phases):
			t.Errorf("%q: the web app says %v in %v, the server %v in %v", act, c.Who, c.Phases, r.Who, r.Phases)
		}
	}
	for act := range copied {
		if _, ok := Rules[act]; !ok {
			t.Errorf("%s has %q, which the server does not know", webRules, act)
		}
	}
}

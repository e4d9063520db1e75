package glyphnet

import (
	"os"
	"strings"
	"testing"
)

// The committed weights are of this package's format and shape, and are
// the file weights.sha256 names (what scripts/train-glyphs wrote).
func TestCommittedWeightsMatchTheirSum(t *testing.T) {
	if len(Weights()) != Size {
		t.Fatalf("weights.bin is %d bytes, the format's %d", len(Weights()), Size)
	}
	if _, err := Unmarshal(Weights()); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile("weights.sha256")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Sum(Weights()), strings.Fields(string(sum))[0]; got != want {
		t.Errorf("weights.bin's SHA-256 is %s, weights.sha256 says %s: run make train-glyphs", got, want)
	}
}

// A net survives being written and read back, and its probabilities sum
// to one.
func TestMarshalRoundTrip(t *testing.T) {
	n := New(1)
	n.Train([]Sample{{X: make([]float32, Inputs), Y: 3}}, 1, 0.01, 1)
	m, err := Unmarshal(n.Marshal())
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float32, Inputs)
	x[5] = 1
	p, q := n.Probs(x), m.Probs(x)
	var sum float32
	for k := range p {
		if p[k] != q[k] {
			t.Fatalf("class %d: %v before, %v read back", k, p[k], q[k])
		}
		sum += p[k]
	}
	if sum < 0.999 || sum > 1.001 {
		t.Errorf("probabilities sum to %v", sum)
	}
	if _, err := Unmarshal(n.Marshal()[1:]); err == nil {
		t.Error("a short file was read")
	}
}

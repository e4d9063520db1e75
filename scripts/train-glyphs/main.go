// Command train-glyphs trains the Stats panel reader's glyph classifier
// (internal/extract/glyphnet) on glyphs its generator draws from the
// game's typeface (extract.GlyphSamples) and writes its weights and their
// SHA-256 beside the package. One thread, fixed seeds: the same weights
// bit for bit on amd64.
//
//	go run ./scripts/train-glyphs        (make train-glyphs)
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/pitlane/pitlane/internal/extract"
	"github.com/pitlane/pitlane/internal/extract/glyphnet"
)

func main() {
	figures := flag.Int("figures", glyphnet.TrainFigures, "figures drawn")
	epochs := flag.Int("epochs", glyphnet.TrainEpochs, "passes over the samples")
	rate := flag.Float64("rate", glyphnet.TrainRate, "SGD's first learning rate")
	out := flag.String("out", "internal/extract/glyphnet", "directory of weights.bin and weights.sha256")
	flag.Parse()
	start := time.Now()
	samples := extract.GlyphSamples(glyphnet.TrainSeed, *figures)
	per := make([]int, glyphnet.Classes)
	for _, s := range samples {
		per[s.Y]++
	}
	fmt.Printf("%d samples from %d figures in %.1fs; per class %v\n", len(samples), *figures, time.Since(start).Seconds(), per)
	net := glyphnet.New(glyphnet.TrainSeed)
	net.Train(samples, *epochs, float32(*rate), glyphnet.TrainSeed)
	// The training set's own accuracy (the held-out figures are the bench's).
	check := extract.GlyphSamples(glyphnet.TrainSeed+1, *figures/10)
	right := 0
	for _, s := range check {
		p := net.Probs(s.X)
		best := 0
		for k := range p {
			if p[k] > p[best] {
				best = k
			}
		}
		if best == s.Y {
			right++
		}
	}
	fmt.Printf("trained in %.1fs; generator seed %d+1: %d/%d = %.2f%% right\n", time.Since(start).Seconds(), glyphnet.TrainSeed, right, len(check), 100*float64(right)/float64(len(check)))
	data := net.Marshal()
	if err := os.WriteFile(filepath.Join(*out, "weights.bin"), data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(*out, "weights.sha256"), []byte(glyphnet.Sum(data)+"  weights.bin\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(glyphnet.Sum(data))
}

// Package glyphnet is the Stats panel reader's glyph classifier: a network
// of one hidden layer that tells the game's digits (and what is no digit)
// from a glyph's grey levels, trained by scripts/train-glyphs on the game's
// typeface drawn through the photo simulator. Inference and training are
// plain Go, single-threaded, in a fixed order of float32 operations, so a
// training run is reproducible bit for bit on one architecture (amd64: the
// compiler fuses no multiply-add there).
package glyphnet

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
)

// The network's shape.
const (
	// GridW, GridH: the glyph's grey levels are resampled to this grid.
	GridW, GridH = 16, 24
	// Extra inputs after the grid: log of the box's width over its height,
	// and its height over the line's tallest glyph.
	Extra = 2
	// Inputs is the length of a feature vector.
	Inputs = GridW*GridH + Extra
	// Hidden is the number of hidden units.
	Hidden = 32
	// Classes: the digits 0-9, then Reject (a piece, two glyphs, a
	// stroke of something else).
	Classes = 11
	// Reject is the class of what is no digit.
	Reject = 10
)

// magic opens a weights file; the version follows it.
const magic = "GNET"

// version 1: bfloat16 weights, little-endian, in the order W1 (Hidden rows
// of Inputs), B1, W2 (Classes rows of Hidden), B2.
const version = 1

// Net is the classifier's weights.
type Net struct {
	W1 []float32 // Hidden x Inputs
	B1 []float32
	W2 []float32 // Classes x Hidden
	B2 []float32
}

// New is a net of small random weights drawn from seed.
func New(seed uint64) *Net {
	rng := rand.New(rand.NewPCG(seed, 0x676c797068))
	n := &Net{W1: make([]float32, Hidden*Inputs), B1: make([]float32, Hidden), W2: make([]float32, Classes*Hidden), B2: make([]float32, Classes)}
	s1 := float32(math.Sqrt(2 / float64(Inputs)))
	for i := range n.W1 {
		n.W1[i] = float32(rng.NormFloat64()) * s1
	}
	s2 := float32(math.Sqrt(1 / float64(Hidden)))
	for i := range n.W2 {
		n.W2[i] = float32(rng.NormFloat64()) * s2
	}
	return n
}

// Probs returns the classes' probabilities for the feature vector x.
func (n *Net) Probs(x []float32) [Classes]float32 {
	var h [Hidden]float32
	n.hidden(x, &h)
	var p [Classes]float32
	n.out(&h, &p)
	return p
}

func (n *Net) hidden(x []float32, h *[Hidden]float32) {
	for j := range Hidden {
		s := n.B1[j]
		row := n.W1[j*Inputs : (j+1)*Inputs]
		for i, v := range x {
			s += row[i] * v
		}
		h[j] = max(s, 0)
	}
}

func (n *Net) out(h *[Hidden]float32, p *[Classes]float32) {
	top := float32(math.Inf(-1))
	for k := range Classes {
		s := n.B2[k]
		for j := range Hidden {
			s += n.W2[k*Hidden+j] * h[j]
		}
		p[k] = s
		top = max(top, s)
	}
	var sum float32
	for k := range Classes {
		p[k] = float32(math.Exp(float64(p[k] - top)))
		sum += p[k]
	}
	for k := range Classes {
		p[k] /= sum
	}
}

// Sample is one glyph's features and its class.
type Sample struct {
	X []float32
	Y int
}

// Train runs epochs of plain SGD with momentum over samples, in an order
// shuffled from seed, and quantises the weights as they are stored, so
// that the net trained is the net loaded.
func (n *Net) Train(samples []Sample, epochs int, rate float32, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x7261696e))
	order := make([]int, len(samples))
	for i := range order {
		order[i] = i
	}
	const momentum = 0.9
	vW1, vB1 := make([]float32, len(n.W1)), make([]float32, len(n.B1))
	vW2, vB2 := make([]float32, len(n.W2)), make([]float32, len(n.B2))
	var h [Hidden]float32
	var p [Classes]float32
	var dh [Hidden]float32
	for e := range epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		// The rate falls linearly to a tenth over the run.
		lr := rate * (1 - 0.9*float32(e)/float32(max(1, epochs)))
		for _, i := range order {
			s := samples[i]
			n.hidden(s.X, &h)
			n.out(&h, &p)
			p[s.Y]-- // the cross-entropy's gradient at the logits
			for j := range Hidden {
				dh[j] = 0
			}
			for k := range Classes {
				g := p[k]
				for j := range Hidden {
					dh[j] += g * n.W2[k*Hidden+j]
					o := k*Hidden + j
					vW2[o] = momentum*vW2[o] - lr*g*h[j]
					n.W2[o] += vW2[o]
				}
				vB2[k] = momentum*vB2[k] - lr*g
				n.B2[k] += vB2[k]
			}
			for j := range Hidden {
				if h[j] <= 0 {
					continue
				}
				g := dh[j]
				row := n.W1[j*Inputs : (j+1)*Inputs]
				v := vW1[j*Inputs : (j+1)*Inputs]
				for i, x := range s.X {
					v[i] = momentum*v[i] - lr*g*x
					row[i] += v[i]
				}
				vB1[j] = momentum*vB1[j] - lr*g
				n.B1[j] += vB1[j]
			}
		}
	}
	for _, w := range [][]float32{n.W1, n.B1, n.W2, n.B2} {
		for i, v := range w {
			w[i] = fromBF16(toBF16(v))
		}
	}
}

// toBF16 rounds v to bfloat16 (to nearest, ties to even).
func toBF16(v float32) uint16 {
	b := math.Float32bits(v)
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

func fromBF16(v uint16) float32 { return math.Float32frombits(uint32(v) << 16) }

// Marshal writes the weights file: magic, version, the shape, the weights.
func (n *Net) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(magic)
	for _, v := range []uint16{version, Inputs, Hidden, Classes} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	for _, w := range [][]float32{n.W1, n.B1, n.W2, n.B2} {
		for _, v := range w {
			binary.Write(&b, binary.LittleEndian, toBF16(v))
		}
	}
	return b.Bytes()
}

// Size is the length of a weights file.
const Size = len(magic) + 4*2 + 2*(Hidden*Inputs+Hidden+Classes*Hidden+Classes)

// Unmarshal reads a weights file, checking its format.
func Unmarshal(data []byte) (*Net, error) {
	if len(data) != Size || string(data[:len(magic)]) != magic {
		return nil, errors.New("glyphnet: not a weights file of this shape")
	}
	r := bytes.NewReader(data[len(magic):])
	var head [4]uint16
	binary.Read(r, binary.LittleEndian, &head)
	if head != [4]uint16{version, Inputs, Hidden, Classes} {
		return nil, errors.New("glyphnet: weights of another version or shape")
	}
	n := &Net{W1: make([]float32, Hidden*Inputs), B1: make([]float32, Hidden), W2: make([]float32, Classes*Hidden), B2: make([]float32, Classes)}
	for _, w := range [][]float32{n.W1, n.B1, n.W2, n.B2} {
		for i := range w {
			var v uint16
			binary.Read(r, binary.LittleEndian, &v)
			w[i] = fromBF16(v)
		}
	}
	return n, nil
}

// Sum is the SHA-256 of data, in hex, as weights.sha256 holds it.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

//go:embed weights.bin
var weights []byte

// Default is the committed net (weights.bin).
var Default = sync.OnceValue(func() *Net {
	n, err := Unmarshal(weights)
	if err != nil {
		panic(err)
	}
	return n
})

// Weights returns the committed weights file.
func Weights() []byte { return weights }

// The committed training run (scripts/train-glyphs).
const (
	// TrainSeed seeds the generator's figures, the first weights and the
	// order of the samples.
	TrainSeed = 41
	// TrainFigures is how many figures the generator draws.
	TrainFigures = 4000
	// TrainEpochs is how many passes SGD makes over their samples.
	TrainEpochs = 8
	// TrainRate is SGD's first learning rate.
	TrainRate = 0.001
)

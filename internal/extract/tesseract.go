package extract

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// word is one word Tesseract read, with its box in working-scale pixels
// and its confidence (0 to 100).
type word struct {
	text string
	box  image.Rectangle
	conf float64
	// second marks words from the second look at missed ink, which may
	// pair with labels but are never taken for the name.
	second bool
}

// tesseract runs the binary on a PGM image and returns the words of its
// TSV output. args go before the "tsv" config (page segmentation etc.).
func tesseract(ctx context.Context, bin string, img []byte, args ...string) ([]word, error) {
	cmdArgs := append([]string{"stdin", "stdout", "-l", "eng", "--oem", "1", "--dpi", "300"}, args...)
	cmdArgs = append(cmdArgs, "tsv")
	cmd := exec.CommandContext(ctx, bin, cmdArgs...)
	cmd.Stdin = bytes.NewReader(img)
	// One thread per process: OpenMP's threads cost more than they save on
	// images this size, and the server may run several extractions at once.
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("tesseract: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return parseTSV(stdout.Bytes()), nil
}

// parseTSV reads Tesseract's TSV: level, page, block, paragraph, line,
// word, left, top, width, height, conf, text. Only level-5 rows (words)
// with text are kept.
func parseTSV(data []byte) []word {
	// tsvFields is how many fields a row has, the text the last.
	const tsvFields = 12
	var words []word
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < tsvFields || f[0] != "5" {
			continue
		}
		text := strings.TrimSpace(f[tsvFields-1])
		if text == "" {
			continue
		}
		n := make([]int, 4)
		ok := true
		for i := range n {
			v, err := strconv.Atoi(f[6+i])
			if err != nil {
				ok = false
				break
			}
			n[i] = v
		}
		conf, err := strconv.ParseFloat(f[10], 64)
		if !ok || err != nil {
			continue
		}
		words = append(words, word{text: text, box: image.Rect(n[0], n[1], n[0]+n[2], n[1]+n[3]), conf: conf})
	}
	return words
}

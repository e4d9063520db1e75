package layers_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pitlane/pitlane/internal/layers"
)

const module = "github.com/pitlane/pitlane/internal/"

// imports lists what a package's non-test files import.
func imports(t *testing.T, pkg string) []string {
	t.Helper()
	dir := filepath.Join("..", pkg)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("%s: %v", pkg, err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			out = append(out, p)
		}
	}
	return out
}

// No domain package imports an adapter: the rules of the league do not
// know how they are stored, carried or shown.
func TestTheDomainImportsNoAdapter(t *testing.T) {
	for _, pkg := range layers.Domain {
		for _, imp := range imports(t, pkg) {
			name, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if slices.Contains(layers.Adapters, strings.Split(name, "/")[0]) {
				t.Errorf("internal/%s (domain) imports internal/%s (an adapter)", pkg, name)
			}
		}
	}
}

// Every package under internal/ is placed in one layer, so a new one is
// a decision, not an accident.
func TestEveryPackageHasALayer(t *testing.T) {
	entries, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "layers" {
			continue
		}
		if !slices.Contains(layers.Domain, e.Name()) && !slices.Contains(layers.Adapters, e.Name()) {
			t.Errorf("internal/%s is in no layer: add it to layers.Domain or layers.Adapters", e.Name())
		}
	}
}

// core holds the types every package shares and nothing heavy: no image
// decoders (the screenshot checks are internal/upload's, the readers'
// interface the stats package's).
func TestCoreDecodesNoImages(t *testing.T) {
	for _, imp := range imports(t, "core") {
		if strings.HasPrefix(imp, "image") || strings.Contains(imp, "x/image") || imp == module+"upload" {
			t.Errorf("internal/core imports %s", imp)
		}
	}
}

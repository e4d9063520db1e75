// Command literals counts the numbers written into the screenshot reader's
// code: every numeric literal of the package's Go files (tests aside), the
// ones that are not 0, 1 or 2 (indices, halves, doubling), the ones inside
// a comparison (thresholds, strictly), and the named constants. It says how
// much of the reader is hand-set, which is what a held-out set guards.
//
//	go run ./scripts/literals [-skip a.go,b.go] [DIR]   (default internal/extract)
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type count struct{ all, beyond2, compared, named int }

func main() {
	skip := flag.String("skip", "", "files to leave out, comma-separated (not the reader's: the photo simulator)")
	flag.Parse()
	dir := "internal/extract"
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	left := map[string]bool{}
	for _, f := range strings.Split(*skip, ",") {
		left[f] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	per := map[string]*count{}
	var total count
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || left[filepath.Base(f)] {
			continue
		}
		fs := token.NewFileSet()
		file, err := parser.ParseFile(fs, f, nil, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		c := &count{}
		per[filepath.Base(f)] = c
		// Literals inside a comparison's operands.
		compared := map[*ast.BasicLit]bool{}
		ast.Inspect(file, func(n ast.Node) bool {
			if b, ok := n.(*ast.BinaryExpr); ok {
				switch b.Op {
				case token.LSS, token.GTR, token.LEQ, token.GEQ, token.EQL, token.NEQ:
					ast.Inspect(b, func(m ast.Node) bool {
						if l, ok := m.(*ast.BasicLit); ok {
							compared[l] = true
						}
						return true
					})
				}
			}
			if g, ok := n.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					c.named += len(s.(*ast.ValueSpec).Names)
				}
			}
			return true
		})
		ast.Inspect(file, func(n ast.Node) bool {
			l, ok := n.(*ast.BasicLit)
			if !ok || (l.Kind != token.INT && l.Kind != token.FLOAT) {
				return true
			}
			c.all++
			if v := l.Value; v != "0" && v != "1" && v != "2" {
				c.beyond2++
			}
			if compared[l] {
				c.compared++
			}
			return true
		})
		total.all, total.beyond2, total.compared, total.named = total.all+c.all, total.beyond2+c.beyond2, total.compared+c.compared, total.named+c.named
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Printf("%-16s %8s %10s %9s %6s\n", "file", "numbers", "not 0/1/2", "compared", "consts")
	for _, n := range names {
		c := per[n]
		fmt.Printf("%-16s %8d %10d %9d %6d\n", n, c.all, c.beyond2, c.compared, c.named)
	}
	fmt.Printf("%-16s %8d %10d %9d %6d\n", "total", total.all, total.beyond2, total.compared, total.named)
}

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const modPath = "github.com/memtui/memtui"

// pkgInfo is what a package's non-test sources import, and where they
// start goroutines.
type pkgInfo struct {
	imports map[string]bool
	gos     []string // file:line of each go statement
}

// sources reads every package of the module (test files and testdata
// aside) by its import path.
func sources(t *testing.T) map[string]*pkgInfo {
	t.Helper()
	pkgs := map[string]*pkgInfo{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != "." && (n == "testdata" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ip := modPath
		if dir := filepath.ToSlash(filepath.Dir(p)); dir != "." {
			ip += "/" + dir
		}
		pi := pkgs[ip]
		if pi == nil {
			pi = &pkgInfo{imports: map[string]bool{}}
			pkgs[ip] = pi
		}
		for _, im := range f.Imports {
			v, _ := strconv.Unquote(im.Path.Value)
			pi.imports[v] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if g, ok := n.(*ast.GoStmt); ok {
				pi.gos = append(pi.gos, fset.Position(g.Pos()).String())
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// under reports whether import path p is pkg or one of its sub-packages.
func under(p, pkg string) bool { return p == pkg || strings.HasPrefix(p, pkg+"/") }

// TestArchitecture holds the arrows docs/ARCHITECTURE.md draws: only the
// TUI imports Bubble Tea; the model and the checks and proposals are pure
// (no disk, no processes, no goroutines, nothing above them); the steps
// after a package import it and never the reverse; nothing below the
// faces imports app, and nothing but the entry point imports ui.
func TestArchitecture(t *testing.T) {
	pkgs := sources(t)
	if len(pkgs) < 20 || pkgs[modPath+"/ui"] == nil || pkgs[modPath+"/model/claude"] == nil {
		t.Fatalf("read %d packages; the walk missed the module", len(pkgs))
	}
	m := func(s string) string { return modPath + "/" + s }
	testSupport := func(p string) bool {
		return p == m("internal/testgen") || p == m("internal/testfs") || p == m("internal/testmodel")
	}
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		pi := pkgs[p]
		for im := range pi.imports {
			if under(im, "charm.land/bubbletea") && p != m("ui") {
				t.Errorf("%s imports Bubble Tea: only ui may", p)
			}
			if im == m("ui") && p != modPath {
				t.Errorf("%s imports ui: only the entry point may", p)
			}
			if im == m("app") && p != modPath && p != m("ui") {
				t.Errorf("%s imports app: only the CLI and the TUI may", p)
			}
		}
		if under(p, m("model")) || under(p, m("consolidate")) {
			for im := range pi.imports {
				for _, bad := range []string{"os", "os/exec", "syscall", "net", "net/http", "golang.org/x/sys", m("memfs"), m("app"), m("ui"), m("internal/pool"), m("internal/report")} {
					if under(im, bad) {
						t.Errorf("%s (pure) imports %s", p, im)
					}
				}
			}
			if len(pi.gos) > 0 {
				t.Errorf("%s (pure and sequential) starts goroutines at %v: a fan-out belongs to app, on internal/pool", p, pi.gos)
			}
		}
		if under(p, m("memfs")) {
			for im := range pi.imports {
				if under(im, m("consolidate")) || under(im, m("app")) {
					t.Errorf("%s imports %s: the disk layer sits below the checks and app (a secret redactor is passed in, as memfs/snapshot's is)", p, im)
				}
			}
		}
		// Test support serves tests and benchmarks only, and depends on
		// nothing it is used to test beyond the model it builds.
		for im := range pi.imports {
			if testSupport(im) && !testSupport(p) {
				t.Errorf("%s imports %s: test support is for tests only", p, im)
			}
			if testSupport(p) && under(im, modPath) && !under(im, m("model")) && !testSupport(im) {
				t.Errorf("%s (test support) imports %s: only the model it builds", p, im)
			}
		}
	}
	// The steps after a parent import it, never the reverse: the model
	// knows nothing of Claude Code's reading or the index, the checks
	// nothing of Dream, the disk layer nothing of transcripts or writes.
	for _, a := range []struct{ from, to string }{
		{"model", "model/claude"}, {"model", "model/memindex"}, {"model", "model/prose"},
		{"consolidate", "consolidate/dream"}, {"consolidate/forensics", "consolidate"},
		{"memfs", "memfs/transcript"}, {"memfs", "memfs/txn"}, {"memfs/txn", "memfs/transcript"},
		{"memfs", "memfs/snapshot"}, {"memfs/txn", "memfs/snapshot"}, {"memfs/transcript", "memfs/snapshot"},
	} {
		if pkgs[m(a.from)].imports[m(a.to)] {
			t.Errorf("%s imports %s: the arrow runs the other way", a.from, a.to)
		}
	}
	// The rules must be able to fail: this module's own ui does import
	// Bubble Tea, and the walk saw it.
	if !pkgs[m("ui")].imports["charm.land/bubbletea/v2"] {
		t.Error("the walk did not see ui's Bubble Tea import")
	}
	if _, err := os.Stat("docs/ARCHITECTURE.md"); err != nil {
		t.Errorf("the map this test holds is missing: %v", err)
	}
}

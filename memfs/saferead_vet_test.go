package memfs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plainReads lists the reads in one Go source that bypass the safe reader:
// whole-file and directory reads by path (os.ReadFile, os.Open, os.ReadDir,
// ioutil's), an os.OpenFile that is not for writing, and an io.ReadAll
// with no io.LimitReader around what it reads.
func plainReads(fset *token.FileSet, f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		pkg, name := selector(call.Fun)
		bad := false
		switch pkg + "." + name {
		case "os.ReadFile", "os.Open", "os.ReadDir", "ioutil.ReadFile", "ioutil.ReadAll", "ioutil.ReadDir":
			bad = true
		case "os.OpenFile":
			bad = len(call.Args) < 2 || !mentionsAny(call.Args[1], "O_WRONLY", "O_RDWR", "O_CREATE")
		case "io.ReadAll":
			bad = len(call.Args) != 1 || !isCall(call.Args[0], "io", "LimitReader")
		}
		if bad {
			out = append(out, fset.Position(call.Pos()).String()+": "+pkg+"."+name)
		}
		return true
	})
	return out
}

func selector(e ast.Expr) (pkg, name string) {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	id, ok := s.X.(*ast.Ident)
	if !ok {
		return "", ""
	}
	return id.Name, s.Sel.Name
}

func isCall(e ast.Expr, pkg, name string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	p, n := selector(c.Fun)
	return p == pkg && n == name
}

func mentionsAny(e ast.Expr, names ...string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			for _, w := range names {
				if id.Name == w {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// TestNoPlainReads: every read of a path in memfs, in its transcript
// reader (memfs/transcript), its write path (memfs/txn) and its snapshots
// (memfs/snapshot), all of which read through memfs's exported safe reads, goes through the safe
// reader (saferead*.go); a plain os.ReadFile or os.Open anywhere else
// would read a FIFO (and hang), /dev/zero (and fill memory) or a link out
// of the memory dir. Test files may read what they wrote.
func TestNoPlainReads(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	for _, pkg := range []string{"transcript", "txn", "snapshot"} {
		sub, err := filepath.Glob(filepath.Join(pkg, "*.go"))
		if err != nil || len(sub) == 0 {
			t.Fatalf("no %s sources: %v", pkg, err)
		}
		paths = append(paths, sub...)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") || strings.HasPrefix(p, "saferead") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, r := range plainReads(fset, f) {
			t.Errorf("%s bypasses the safe reader (use readFile, readIn, openRead, openIn, openDir or ReadDir; in memfs/transcript, memfs.OpenRegular, ReadRegular, ReadImage or ReadDir; in memfs/txn, memfs.ReadRegular, ReadImage, ReadIn, ReadCapped, OpenDir or ReadDir; in memfs/snapshot, memfs.ReadIn, OpenIn, ReadCapped, OpenDir or ReadDir)", r)
		}
	}
	if checked < 10 {
		t.Fatalf("checked only %d files", checked)
	}
}

// TestPlainReadsCatches: the check itself finds what it must and lets the
// write path and bounded reads be.
func TestPlainReadsCatches(t *testing.T) {
	src := `package x
func f() {
	os.ReadFile(p)
	os.Open(p)
	os.ReadDir(p)
	os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	io.ReadAll(r)
	ioutil.ReadFile(p)
	os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	io.ReadAll(io.LimitReader(r, 10))
	readFile(p, 10, noFollow)
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := plainReads(fset, f)
	want := []string{"os.ReadFile", "os.Open", "os.ReadDir", "os.OpenFile", "io.ReadAll", "ioutil.ReadFile"}
	if len(got) != len(want) {
		t.Fatalf("found %q, want %q", got, want)
	}
	for i, w := range want {
		if !strings.HasSuffix(got[i], ": "+w) {
			t.Errorf("finding %d = %q, want %s", i, got[i], w)
		}
	}
}

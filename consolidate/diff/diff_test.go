package diff

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

func TestUnifiedDiff(t *testing.T) {
	// Changes seven unchanged lines apart make two hunks (diff -u joins
	// hunks whose context would touch: six lines or fewer apart).
	before := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"
	after := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\n"
	got := Unified(model.Change{Path: "x.md", Op: model.OpUpdate, After: after}, before)
	want := "--- a/x.md\n+++ b/x.md\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n@@ -9,3 +9,4 @@\n i\n j\n k\n+l\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	create := Unified(model.Change{Path: "n.md", Op: model.OpCreate, After: "x\ny\n"}, "")
	if !strings.HasPrefix(create, "--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,2 @@\n+x\n+y\n") {
		t.Errorf("create:\n%s", create)
	}
	del := Unified(model.Change{Path: "o.md", Op: model.OpDelete}, "x\n")
	if del != "--- a/o.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n" {
		t.Errorf("delete:\n%s", del)
	}
}

func TestWordDiffMarksChangedWords(t *testing.T) {
	old, new := Words("The load test runs tomorrow at 06:00.", "The load test runs on 2026-06-11 at 06:00.")
	var o, n []string
	for _, s := range old {
		if s.Changed {
			o = append(o, s.Text)
		}
	}
	for _, s := range new {
		if s.Changed {
			n = append(n, s.Text)
		}
	}
	if strings.Join(o, "") != "tomorrow" || !strings.Contains(strings.Join(n, ""), "2026-06-11") || strings.Contains(strings.Join(n, ""), "load") {
		t.Errorf("old changed %q, new changed %q", o, n)
	}
}

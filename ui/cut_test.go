package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A middle cut keeps both ends and never goes over the width, wide
// characters included (one that does not fit is dropped whole, never
// halved).
func TestCutMiddle(t *testing.T) {
	cases := []struct {
		s    string
		w    int
		want string
	}{
		{"deploy-command", 20, "deploy-command"},
		{"deploy-command", 13, "deploy…ommand"},
		{"deploy-window", 10, "deplo…ndow"},
		{"客服平台的部署窗口", 9, "客服…窗口"},  // 18 cells in 9: two wide characters each side
		{"客服平台的部署窗口", 10, "客服…窗口"}, // the odd cell stays blank rather than halve one
		{"ab客服cd", 5, "ab…cd"},
		{"x", 0, ""},
		{"xyz", 1, "x"},
	}
	for _, c := range cases {
		got := cutMiddle(c.s, c.w)
		if got != c.want {
			t.Errorf("cutMiddle(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
		if ansi.StringWidth(got) > c.w {
			t.Errorf("cutMiddle(%q, %d) = %q is %d cells", c.s, c.w, got, ansi.StringWidth(got))
		}
	}
}

// A title that names a file last keeps the file name whole and cuts the
// words before it (at a word when it can); one that does not end with a
// file name is cut at its end.
func TestCutTitle(t *testing.T) {
	cases := []struct {
		s    string
		w    int
		want string
	}{
		{"Fix the frontmatter of reference_staging.md", 30, "Fix the… reference_staging.md"},
		{"Fix the frontmatter of reference_staging.md", 43, "Fix the frontmatter of reference_staging.md"},
		{"Make 1 relative date absolute in project_load_test.md", 40, "Make 1 relative… project_load_test.md"},
		// Too little room for the start: both ends stay.
		{"Fix the frontmatter of reference_staging.md", 20, "Fix the fr…taging.md"},
		{"Re-index MEMORY.md: 209 → 106 lines, 5 entries no longer cut off", 30, "Re-index MEMORY.md: 209 → 106…"},
		{"修复 参考资料_预发环境.md 的前言", 12, "修复 参考资…"}, // ends with prose
		{"修复前言 参考资料_预发.md", 24, "修复前… 参考资料_预发.md"},
	}
	for _, c := range cases {
		got := cutTitle(c.s, c.w)
		if got != c.want {
			t.Errorf("cutTitle(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
		if ansi.StringWidth(got) > c.w {
			t.Errorf("cutTitle(%q, %d) = %q is %d cells", c.s, c.w, got, ansi.StringWidth(got))
		}
	}
}

// A path keeps its last element whole when there is room for some of its
// start.
func TestCutPath(t *testing.T) {
	cases := []struct {
		s    string
		w    int
		want string
	}{
		{"/home/dev/kefu_platform", 30, "/home/dev/kefu_platform"},
		{"/home/dev/work/clients/kefu_platform", 24, "/home/dev…/kefu_platform"},
		{"-home-dev-dotfiles", 10, "-home…iles"},
	}
	for _, c := range cases {
		got := cutPath(c.s, c.w)
		if got != c.want {
			t.Errorf("cutPath(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
		if ansi.StringWidth(got) > c.w {
			t.Errorf("cutPath(%q, %d) = %q is %d cells", c.s, c.w, got, ansi.StringWidth(got))
		}
	}
}

// Names cut in the middle that would read the same are cut again apart:
// by moving the split when the names differ near an end, by showing
// where they differ when it is deep inside.
func TestDistinctCuts(t *testing.T) {
	for _, names := range [][]string{
		{"deploy-command-for-the-staging-cluster", "deploy-command-for-the-production-cluster"},
		{"release-checklist-for-team-alpha-before-the-freeze", "release-checklist-for-team-gamma-before-the-freeze"},
		{"客服平台的部署窗口说明甲版本文件", "客服平台的部署窗口说明乙版本文件"},
	} {
		const w = 14
		cut := make([]string, len(names))
		room := make([]int, len(names))
		for i, n := range names {
			cut[i], room[i] = cutMiddle(n, w), w
		}
		if cut[0] != cut[1] {
			t.Fatalf("the case no longer collides: %q", cut)
		}
		distinct(cut, names, room)
		if cut[0] == cut[1] {
			t.Errorf("%q still both read %q", names, cut[0])
		}
		for _, c := range cut {
			if ansi.StringWidth(c) > w || !strings.Contains(c, "…") {
				t.Errorf("%q: not a cut of at most %d cells", c, w)
			}
		}
	}
}

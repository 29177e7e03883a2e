package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// The cuts below shorten text already made safe (safe.Line: no escape
// sequence, no control character) to a number of terminal cells. They work
// on grapheme clusters and their widths, so an East Asian character (two
// cells) or an emoji is kept or dropped whole and a cut never leaves half
// of one: the result is at most w cells, one less when a wide character
// sat at the cut.

// cluster is one grapheme cluster of a text and the cells it takes.
type cluster struct {
	s string
	w int
}

// clusters splits s into grapheme clusters with their widths.
func clusters(s string) []cluster {
	var out []cluster
	for s != "" {
		c, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if c == "" { // not reached for valid input; never loop for ever
			c, w = s[:1], 1
		}
		out = append(out, cluster{c, w})
		s = s[len(c):]
	}
	return out
}

// takeHead joins the clusters from the start that fit in w cells.
func takeHead(cs []cluster, w int) (string, int) {
	var b strings.Builder
	used := 0
	for _, c := range cs {
		if used+c.w > w {
			break
		}
		b.WriteString(c.s)
		used += c.w
	}
	return b.String(), used
}

// takeTail joins the clusters from the end that fit in w cells.
func takeTail(cs []cluster, w int) (string, int) {
	used, i := 0, len(cs)
	for i > 0 && used+cs[i-1].w <= w {
		i--
		used += cs[i].w
	}
	var b strings.Builder
	for _, c := range cs[i:] {
		b.WriteString(c.s)
	}
	return b.String(), used
}

func widthOf(cs []cluster) int {
	n := 0
	for _, c := range cs {
		n += c.w
	}
	return n
}

// cutMiddle fits s in w cells by cutting its middle: the start and the end
// stay, joined by an ellipsis ("deploy-c…mand"). Names that share a prefix
// (feedback_deploy_command, feedback_deploy_window) differ at their end,
// which a cut at the end would drop.
func cutMiddle(s string, w int) string {
	return cutMiddleAt(s, w, -1)
}

// cutMiddleAt is cutMiddle keeping head cells of the start (-1: half of
// what the ellipsis leaves, the extra cell to the start).
func cutMiddleAt(s string, w, head int) string {
	cs := clusters(s)
	if widthOf(cs) <= w {
		return s
	}
	if w <= 1 {
		return ansi.Truncate(s, max(w, 0), "")
	}
	room := w - 1 // the ellipsis takes one cell
	if head < 0 || head > room {
		head = room - room/2
	}
	h, hw := takeHead(cs, head)
	// A wide character that did not fit in the start leaves its cell to
	// the end.
	t, _ := takeTail(cs, room-hw)
	return h + "…" + t
}

// cutEnd fits s in w cells by cutting its end, with an ellipsis.
func cutEnd(s string, w int) string {
	return ansi.Truncate(s, max(w, 0), "…")
}

// cutTitle fits a proposal's or a write's title in w cells. Such a title
// names what it acts on last ("Fix the frontmatter of
// reference_staging.md"), and that file name is what tells two titles of
// one kind apart, so it stays whole and the words before it are cut
// ("Fix the… reference_staging.md"). A title that does not end with a file
// name loses its end, as prose does; one whose file name leaves too little
// room is cut in the middle.
func cutTitle(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw <= w {
		return s
	}
	i := strings.LastIndexByte(s, ' ')
	if i < 0 || !looksLikeFile(s[i+1:]) {
		return cutEnd(s, w)
	}
	return cutKeepTail(s, i, w)
}

// cutPath fits a path in w cells keeping its last element whole
// ("/home/dev/…/kefu-platform") when there is room for a little of the
// start too, and cuts its middle otherwise.
func cutPath(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	i := strings.LastIndexByte(strings.TrimRight(s, "/"), '/')
	if i <= 0 {
		return cutMiddle(s, w)
	}
	return cutKeepTail(s, i, w)
}

// minHead is the fewest cells of a text's start a cut keeping its tail
// leaves: less reads as noise, and a middle cut serves better.
const minHead = 4

// cutKeepTail cuts s before s[at:] (a separator and the part that must
// stay), at a word when one ends in the second half of what is left of
// the start; it cuts the middle when the tail leaves less than minHead
// cells of the start.
func cutKeepTail(s string, at, w int) string {
	tail := s[at:]
	room := w - 1 - ansi.StringWidth(tail)
	if room < minHead {
		return cutMiddle(s, w)
	}
	head, _ := takeHead(clusters(s[:at]), room)
	// Back to the last whole word unless the head ends at one already.
	if next := s[len(head):]; next != "" && next[0] != ' ' && next[0] != '/' {
		if j := strings.LastIndexAny(head, " /"); j >= 0 && ansi.StringWidth(head[:j]) >= room/2 {
			head = head[:j+1]
		}
	}
	// "Fix the… reference_staging.md", "/home/dev/…/kefu-platform": the
	// ellipsis stands for whole words or path elements where it can.
	return strings.TrimRight(head, " ") + "…" + tail
}

// looksLikeFile reports whether a word names a file: a base name with an
// extension of letters or digits ("notes.md", "settings.json"), possibly
// in quotes or followed by a colon.
func looksLikeFile(word string) bool {
	word = strings.Trim(word, "\"'“”‘’:,;()")
	dot := strings.LastIndexByte(word, '.')
	if dot <= 0 || dot == len(word)-1 || len(word)-dot-1 > 8 {
		return false
	}
	for _, r := range word[dot+1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// distinct re-cuts texts whose cuts read the same although the texts
// differ, so no two rows of a list look alike. cut holds the texts as cut
// in the middle (changed in place), full the texts whole, w the cells each
// had. A group that reads the same tries each split of the start and end
// from the middle outwards; when the texts differ only too deep inside
// for any split, each shows a window around where it differs
// ("start…iff…end").
func distinct(cut, full []string, w []int) {
	groups := map[string][]int{}
	for i := range cut {
		groups[cut[i]] = append(groups[cut[i]], i)
	}
	for _, g := range groups {
		if len(g) > 1 && differ(full, g) {
			resplit(cut, full, w, g)
		}
	}
}

// differ reports whether the rows of g hold more than one text.
func differ(full []string, g []int) bool {
	for _, i := range g[1:] {
		if full[i] != full[g[0]] {
			return true
		}
	}
	return false
}

// resplit gives the rows of g cuts that tell them apart.
func resplit(cut, full []string, w []int, g []int) {
	room := w[g[0]] - 1
	if room < 2 {
		return
	}
	mid := room - room/2
	for d := 1; d <= room; d++ {
		for _, head := range []int{mid + d, mid - d} {
			if head < 1 || head >= room {
				continue
			}
			seen := map[string]string{}
			ok := true
			try := make([]string, len(g))
			for k, i := range g {
				try[k] = cutMiddleAt(full[i], w[i], head)
				if f, dup := seen[try[k]]; dup && f != full[i] {
					ok = false
					break
				}
				seen[try[k]] = full[i]
			}
			if ok {
				for k, i := range g {
					cut[i] = try[k]
				}
				return
			}
		}
	}
	for _, i := range g {
		cs := clusters(full[i])
		at := len(cs)
		for _, j := range g {
			if full[j] != full[i] {
				at = min(at, firstDiff(cs, clusters(full[j])))
			}
		}
		if s := cutAround(cs, w[i], at); s != "" {
			cut[i] = s
		}
	}
}

// firstDiff is the index of the first cluster where a and b differ.
func firstDiff(a, b []cluster) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i].s != b[i].s {
			return i
		}
	}
	return n
}

// cutAround fits the clusters in w cells as start…window…end, the window
// holding cluster at; "" when w is too small for three parts.
func cutAround(cs []cluster, w, at int) string {
	room := w - 2
	if room < 6 {
		return ""
	}
	part := room / 3
	head, hw := takeHead(cs, part)
	tail, tw := takeTail(cs, part)
	win := room - hw - tw
	// The window starts a few cells before the difference, so it reads as
	// a piece of the name.
	start := at
	for lead := 0; start > 0 && lead+cs[start-1].w <= win/3; start-- {
		lead += cs[start-1].w
	}
	mid, _ := takeHead(cs[start:], win)
	return head + "…" + mid + "…" + tail
}

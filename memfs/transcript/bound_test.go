package transcript

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// TestTextOverCap: a text over what a memory file can hold is not kept.
// The write is still recorded (it happened), without what it wrote; a
// read that returned such a text is recorded without its content. A
// normal write next to them keeps its text.
func TestTextOverCap(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("big.md")
	q := w.memPath("small.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	huge := strings.Repeat("a line of a memory nobody should keep whole\n", 2*maxMemText/44)
	w.file(uuid1+".jsonl",
		b.call("toolu_A", "Write", map[string]any{"file_path": p, "content": huge}),
		b.result("toolu_A", "File created successfully at: "+p, false, writeTUR(p, huge, nil)),
		b.call("toolu_R", "Read", map[string]any{"file_path": p}),
		b.result("toolu_R", huge, false, map[string]any{"type": "text", "file": map[string]any{"filePath": p, "content": huge, "numLines": 9, "startLine": 1, "totalLines": 9}}),
		b.call("toolu_B", "Write", map[string]any{"file_path": q, "content": "small\n"}),
		b.result("toolu_B", "File created successfully at: "+q, false, writeTUR(q, "small\n", nil)),
	)
	l := w.read(w.opts())
	big := writesTo(l, p)
	if len(big) != 1 || !big[0].TextDropped || big[0].HasAfter || big[0].After != "" || big[0].Before != "" {
		t.Fatalf("the 2 MB write: %d writes, %+v", len(big), big)
	}
	var read *model.MemObservation
	for i := range l.Observations {
		if o := &l.Observations[i]; o.Path == p && o.Kind == model.ObsRead {
			read = o
		}
	}
	if read == nil || !read.ContentDropped || read.Content != "" || read.Full {
		t.Fatalf("the 2 MB read: %+v", read)
	}
	if small := writesTo(l, q); len(small) != 1 || small[0].After != "small\n" || small[0].TextDropped {
		t.Fatalf("the small write next to it: %+v", small)
	}
}

// TestPendingInputsBounded: calls whose results have not come yet (a live
// session, or an attacker's) keep at most maxPendingText of input text
// between reads; once the results come, every write is recorded, the
// first ones with their text, the rest without.
func TestPendingInputsBounded(t *testing.T) {
	w := newTlogWorld(t)
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	body := strings.Repeat("x", 900<<10)
	const n = 10
	var calls, results []string
	for i := range n {
		p := w.memPath(fmt.Sprintf("m%d.md", i))
		id := fmt.Sprintf("toolu_%02d", i)
		calls = append(calls, b.call(id, "Write", map[string]any{"file_path": p, "content": body + fmt.Sprint(i)}))
		// A subagent's result: no toolUseResult, so the input is the only
		// record of what was written.
		results = append(results, b.result(id, "File created successfully at: "+p, false, nil))
	}
	f := w.file(uuid1+".jsonl", calls...)
	if l := w.read(w.opts()); len(l.Writes) != 0 {
		t.Fatalf("writes before any result: %d", len(l.Writes))
	}
	if size := dirSize(w.cache); size > maxPendingText+1<<20 {
		t.Fatalf("the cache holds %d bytes for pending calls (inputs %d bytes)", size, n*len(body))
	}
	fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(strings.Join(results, "\n") + "\n")
	fh.Close()
	l := w.read(w.opts())
	if len(l.Writes) != n {
		t.Fatalf("writes after the results: %d, want %d", len(l.Writes), n)
	}
	kept := 0
	for i, wr := range l.Writes {
		switch {
		case wr.HasAfter && wr.After == body+fmt.Sprint(i):
			kept++
		case !wr.TextDropped || wr.HasAfter:
			t.Fatalf("write %d: neither its text nor marked as dropped: %+v", i, wr.After[:min(20, len(wr.After))])
		}
	}
	if kept == 0 || kept*len(body) > maxPendingText {
		t.Fatalf("%d writes kept their text", kept)
	}
}

// boundWorld writes two sessions of m Writes each, interleaved in time,
// into a world whose bounds are low; each Write is two events (the write
// and the session's observation of what it wrote).
func boundWorld(t *testing.T, m int) (*tlogWorld, []string, []string) {
	w := newTlogWorld(t)
	start := time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC)
	var files []string
	var rest []string
	for s, sess := range []string{uuid1, uuid2} {
		b := newLines(sess, "/p", start.Add(time.Duration(s)*500*time.Millisecond))
		var lines []string
		for i := range m {
			p := w.memPath(fmt.Sprintf("topic_%d.md", i%3))
			id := fmt.Sprintf("toolu_%d_%03d", s, i)
			text := fmt.Sprintf("note %d of session %d\n%s\n", i, s, strings.Repeat("words ", 20))
			lines = append(lines, b.call(id, "Write", map[string]any{"file_path": p, "content": text}),
				b.result(id, "File created successfully at: "+p, false, writeTUR(p, text, nil)))
		}
		// The second session's last writes come later, appended.
		if s == 1 {
			rest = lines[len(lines)-10:]
			lines = lines[:len(lines)-10]
		}
		files = append(files, w.file(sess+".jsonl", lines...))
	}
	return w, files, rest
}

// TestBoundsKeepNewest: a project with more memory events than the
// bounds keeps the newest, drops the text of older ones, says so, and a
// read in steps through the cache (a session that grew, a transcript
// deleted) gives exactly what a cold read gives.
func TestBoundsKeepNewest(t *testing.T) {
	w, files, rest := boundWorld(t, 40)
	opts := w.opts()
	opts.maxEvents, opts.maxText = 50, 4000
	cold := func() *model.TranscriptLog {
		o := opts
		o.CacheDir = ""
		return w.read(o)
	}
	same := func(what string, a, b *model.TranscriptLog) {
		t.Helper()
		if !reflect.DeepEqual(a.Writes, b.Writes) || !reflect.DeepEqual(a.Observations, b.Observations) ||
			!reflect.DeepEqual(a.Problems, b.Problems) || !a.Since.Equal(b.Since) || !a.TextSince.Equal(b.TextSince) {
			t.Fatalf("%s: the cached read differs from a cold one:\n%d writes, %d observations, %q\n%d writes, %d observations, %q",
				what, len(a.Writes), len(a.Observations), a.Problems, len(b.Writes), len(b.Observations), b.Problems)
		}
	}
	first := w.read(opts)
	same("first read", first, cold())

	fh, err := os.OpenFile(files[1], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(strings.Join(rest, "\n") + "\n")
	fh.Close()
	grown := w.read(opts)
	c := cold()
	same("after an append", grown, c)

	if n := len(c.Writes) + len(c.Observations); n != 50 {
		t.Fatalf("kept %d events, want the newest 50", n)
	}
	if c.Since.IsZero() || c.TextSince.IsZero() || len(c.Problems) != 1 || !strings.Contains(c.Problems[0].String(), "more memory activity than memtui keeps") {
		t.Fatalf("since %v, text since %v, problems %q", c.Since, c.TextSince, c.Problems)
	}
	// Newest first: every kept write is at or after Since, the newest
	// ones have their text and the older ones none.
	var text, dropped int
	lastDropped, firstText := time.Time{}, time.Time{}
	for _, wr := range c.Writes {
		if wr.Time.Before(c.Since) {
			t.Fatalf("a write at %v, before Since %v", wr.Time, c.Since)
		}
		if wr.TextDropped {
			dropped++
			lastDropped = wr.Time
		} else {
			text++
			if firstText.IsZero() {
				firstText = wr.Time
			}
		}
	}
	if text == 0 || dropped == 0 || lastDropped.After(firstText) {
		t.Fatalf("%d writes with text (from %v), %d without (to %v)", text, firstText, dropped, lastDropped)
	}

	os.Remove(files[1])
	same("after a deletion", w.read(opts), cold())
}

// TestLongMemoryLines: a Write whose input and result lines are too long
// to decode is still recorded (at its result's time and line), without
// its text; so is one whose long input waited for a short result that
// came in a later read. Each skipped line is a problem.
func TestLongMemoryLines(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("a.md")
	q := w.memPath("b.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	huge := strings.Repeat("z", tlogChunk+1000)
	lines := []string{
		b.prompt("go"),
		b.call("toolu_A", "Write", map[string]any{"file_path": p, "content": huge}),
		b.result("toolu_A", "File created successfully at: "+p, false, writeTUR(p, huge, nil)),
		b.call("toolu_B", "Write", map[string]any{"file_path": q, "content": huge}),
	}
	resultAt := b.ts.Add(-time.Second) // the stamp of toolu_A's result
	f := w.file(uuid1+".jsonl", lines...)
	opts := w.opts()
	opts.maxLine = tlogChunk
	l := w.read(opts)
	ws := writesTo(l, p)
	if len(ws) != 1 || !ws[0].TextDropped || ws[0].HasAfter || ws[0].Line != 3 || !ws[0].Time.Equal(resultAt) || ws[0].Session != uuid1 {
		t.Fatalf("the long Write: %+v", ws)
	}
	if len(l.Problems) != 3 {
		t.Errorf("problems: %q", l.Problems)
	}
	fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(b.result("toolu_B", "File created successfully at: "+q, false, nil) + "\n")
	fh.Close()
	l = w.read(opts)
	if ws := writesTo(l, q); len(ws) != 1 || !ws[0].TextDropped || ws[0].Line != 5 {
		t.Fatalf("the long pending Write: %+v", ws)
	}
}

// TestBoundsDenseTree: on a write-dense tree of many sessions, what the
// bounds keep does not depend on how many workers scanned or in which
// order they finished, and a warm start gives it again.
func TestBoundsDenseTree(t *testing.T) {
	tr, err := genDenseTree(t.TempDir(), 3, 64, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.files) < 10 {
		t.Fatalf("only %d sessions generated", len(tr.files))
	}
	read := func(workers int, cache string) *model.TranscriptLog {
		l, err := Read(t.Context(), tr.project(), Options{Workers: workers, CacheDir: cache, maxEvents: 400, maxText: 64 << 10})
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	one := read(1, "")
	if n := len(one.Writes) + len(one.Observations); n != 400 || one.Since.IsZero() || one.TextSince.IsZero() {
		t.Fatalf("kept %d events, since %v, text since %v", n, one.Since, one.TextSince)
	}
	cache := t.TempDir()
	for i, l := range []*model.TranscriptLog{read(4, ""), read(4, cache), read(4, cache)} {
		if !reflect.DeepEqual(one.Writes, l.Writes) || !reflect.DeepEqual(one.Observations, l.Observations) || !one.Since.Equal(l.Since) || !one.TextSince.Equal(l.TextSince) {
			t.Fatalf("read %d differs from a one-worker read", i)
		}
	}
}

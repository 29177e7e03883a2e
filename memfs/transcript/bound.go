package transcript

import (
	"bytes"
	"container/heap"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// This file bounds what the transcript reader keeps, whatever the
// transcripts hold (a 2 GB transcript of unique Writes into the memory dir
// once took 11 GB of memory and left a 1 GB cache).
//
// What the analyses need is small: the lost-update analysis compares a
// file's recent states and the lines its recent writes added, heat counts
// recent uses, and a memory file memtui reads is at most
// memfs.DefaultMaxFileBytes. So:
//
//   - No text over memfs.DefaultMaxFileBytes is kept: a write whose text is
//     larger is recorded without it (TextDropped), an observation without
//     its content (ContentDropped). A file that large is read truncated,
//     and the lost-update analysis skips truncated files anyway.
//   - A project keeps the newest maxKeptEvents events (writes and
//     observations, in the order (time, transcript, place in the file)),
//     and the text of the newest of them up to maxKeptText bytes. Older
//     events are left out, older texts dropped; the log says from when it
//     is complete (Since, TextSince) and a Problem says what was left out.
//     The analyses then say less about older history, never something
//     false: a write without text is one of unknown content, and a
//     session that may have seen text before the cut is taken to have.
//
// Both selections are "newest first": adding events (a transcript that
// grew) only ever pushes the cut later, so an event left out once is left
// out of any later read as well, and a warm start from the cache gives
// what a cold read gives. Removing events (a transcript deleted or
// rewritten) could bring older ones back, so then a trimmed cache is read
// again from scratch (see readProjectTranscripts).
//
// While scanning, a keeper shared by the workers tracks the cut as far as
// the events seen so far allow; the file being scanned drops what is
// certainly beyond it every trimEvery events, and the files already done
// are trimmed again as the cut moves on (scanAll): memory stays bounded
// during the scan too, not only in the result. Lines are bounded apart
// (maxLineDefault, longLine), and so are the inputs of calls still
// waiting for their results (maxPendingText, boundInput).

const (
	// maxMemText is the longest text kept (a write's content, the file it
	// replaced, an edit's strings, what a read or recall showed).
	maxMemText = int(memfs.DefaultMaxFileBytes)
	// maxPendingText bounds the input text kept for a file's calls still
	// waiting for their results (a live session's parallel Writes, or
	// calls that never got one); a call beyond it is kept without text.
	maxPendingText = 2 << 20
	// maxKeptEvents is how many writes and observations a project keeps:
	// at some ten per session (an index load, recalls, reads, a few
	// writes), some three thousand sessions, more than most projects hold
	// within Claude Code's 30 days of transcripts.
	maxKeptEvents = 1 << 15
	// maxKeptText is how many bytes of their text a project keeps (what
	// the cache holds of memory text at rest, counted as it is stored).
	maxKeptText = 12 << 20
	// trimEvery is how many events a file collects between trims.
	trimEvery = 1024
)

// evKey orders events: by time, then transcript, then the order they were
// found in it (seq). It is a total order, so "the newest n" is exact.
type evKey struct {
	T    time.Time
	File string
	Seq  int64
}

func (a evKey) before(b evKey) bool {
	if c := a.T.Compare(b.T); c != 0 {
		return c < 0
	}
	if a.File != b.File {
		return a.File < b.File
	}
	return a.Seq < b.Seq
}

// cuts say what is left out: an event at or before Cut, and the text of
// one at or before TextCut (each only when its Has flag is set). The
// cache keeps the last selection's cuts, so a warm start with nothing new
// need not select again.
type cuts struct {
	Cut, TextCut       evKey
	HasCut, HasTextCut bool
}

// join makes c the later of c and o, each cut on its own: cuts only ever
// move later as events are added.
func (c *cuts) join(o cuts) {
	if o.HasCut {
		c.Cut, c.HasCut = laterKey(c.Cut, o.Cut, c.HasCut), true
	}
	if o.HasTextCut {
		c.TextCut, c.HasTextCut = laterKey(c.TextCut, o.TextCut, c.HasTextCut), true
	}
}

// norm drops a text cut at or before the event cut: every event whose
// text it would drop is left out whole already. Which of them a read meets
// depends on what it scanned (a cold read pops texts of events the event
// cut then removes; a warm one never sees those events again), so without
// this a warm read and a cold one could report a different TextSince.
func (c cuts) norm() cuts {
	if c.HasCut && c.HasTextCut && !c.Cut.before(c.TextCut) {
		c.TextCut, c.HasTextCut = evKey{}, false
	}
	return c
}

func (c *cuts) any() bool              { return c.HasCut || c.HasTextCut }
func (c *cuts) drops(k evKey) bool     { return c.HasCut && !c.Cut.before(k) }
func (c *cuts) dropsText(k evKey) bool { return c.HasTextCut && !c.TextCut.before(k) }

// keeper is the project-wide cut while scanning: the newest maxEvents keys
// seen, and the newest text items up to maxText bytes. Whatever it pops is
// certainly left out of the final selection.
type keeper struct {
	mu        sync.Mutex
	maxEvents int
	maxText   int64
	events    keyHeap
	texts     keyHeap
	textSum   int64
	c         cuts
}

func newKeeper(maxEvents int, maxText int64) *keeper {
	return &keeper{maxEvents: maxEvents, maxText: maxText}
}

// add records an event with text bytes of text.
func (k *keeper) add(key evKey, text int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	heap.Push(&k.events, sized{key, 0})
	if k.events.Len() > k.maxEvents {
		p := heap.Pop(&k.events).(sized)
		k.c.Cut, k.c.HasCut = laterKey(k.c.Cut, p.key, k.c.HasCut), true
	}
	if text <= 0 {
		return
	}
	heap.Push(&k.texts, sized{key, text})
	k.textSum += text
	// An item keeps its text when it and every newer text fit in maxText:
	// the oldest item stands behind all the others here, so once the sum
	// is over, it is out, and it stays out whatever else is found.
	for k.textSum > k.maxText {
		p := heap.Pop(&k.texts).(sized)
		k.textSum -= p.size
		k.c.TextCut, k.c.HasTextCut = laterKey(k.c.TextCut, p.key, k.c.HasTextCut), true
	}
}

func (k *keeper) cuts() cuts {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.c
}

func laterKey(a, b evKey, has bool) evKey {
	if has && b.before(a) {
		return a
	}
	return b
}

type sized struct {
	key  evKey
	size int64
}

// keyHeap is a min-heap of keys (the oldest on top).
type keyHeap []sized

func (h keyHeap) Len() int           { return len(h) }
func (h keyHeap) Less(i, j int) bool { return h[i].key.before(h[j].key) }
func (h keyHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *keyHeap) Push(x any)        { *h = append(*h, x.(sized)) }
func (h *keyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (kw *keyedWrite) key(file string) evKey { return evKey{kw.W.Time, file, kw.Seq} }
func (ko *keyedObs) key(file string) evKey   { return evKey{ko.O.Time, file, ko.Seq} }

// trim drops from the state what c leaves out: events at or before the
// cut, texts at or before the text cut. It reports whether it changed
// anything.
func (st *fileState) trim(c cuts) bool {
	if !c.any() {
		return false
	}
	var cw, co bool
	st.Writes, cw = trimEvents(st.Writes, st.Path, c)
	st.Obs, co = trimEvents(st.Obs, st.Path, c)
	return cw || co
}

// keptEvent is what trim needs of a kept write or observation (the pointer
// types *keyedWrite and *keyedObs).
type keptEvent[T any] interface {
	*T
	key(file string) evKey
	textBytes() int64
	dropText()
}

func (kw *keyedWrite) textBytes() int64 { return kw.Text }
func (ko *keyedObs) textBytes() int64   { return ko.Text }
func (kw *keyedWrite) dropText()        { dropWriteText(&kw.W) }
func (ko *keyedObs) dropText()          { dropObsContent(&ko.O) }

// trimEvents drops the events of one file at or before the cut and the
// texts at or before the text cut, in place; it reports whether it changed
// anything.
func trimEvents[T any, P keptEvent[T]](evs []T, file string, c cuts) ([]T, bool) {
	changed := false
	kept := evs[:0]
	for i := range evs {
		e := P(&evs[i])
		k := e.key(file)
		if c.drops(k) {
			changed = true
			continue
		}
		if c.dropsText(k) && e.textBytes() > 0 {
			e.dropText()
			changed = true
		}
		kept = append(kept, evs[i])
	}
	clear(evs[len(kept):])
	return shrink(kept), changed
}

// shrink gives a slice trimmed to a fraction of its capacity an array of
// its own size: the array a file's events grew to before the cut caught
// up with them would otherwise stay allocated to the end.
func shrink[T any](s []T) []T {
	if cap(s) > 64 && len(s) < cap(s)/4 {
		return append(make([]T, 0, len(s)+len(s)/4), s...)
	}
	return s
}

// dropWriteText leaves a write known to have happened, not what it left.
// Its Text (the bytes it counted) stays, so later selections count it as
// before.
func dropWriteText(w *model.MemWrite) {
	if w.Kind == model.WriteShell || w.Kind == model.WriteFork {
		return // carries no text
	}
	w.Before, w.HasBefore, w.After, w.HasAfter, w.Edits = "", false, "", false, nil
	w.TextDropped = true
}

func dropObsContent(o *model.MemObservation) {
	if o.Kind == model.ObsUnchanged {
		return
	}
	o.Content, o.Full, o.ContentDropped = "", false, true
}

// writeText is how many bytes of text a write carries, as stored.
func writeText(w *model.MemWrite) int64 {
	n := len(w.Before) + len(w.After)
	for _, e := range w.Edits {
		n += len(e.Old) + len(e.New)
	}
	return int64(n)
}

// finalCuts is the exact selection over every state: the newest
// maxEvents events, and the newest texts up to maxText bytes.
func finalCuts(states []*fileState, maxEvents int, maxText int64) cuts {
	type item struct {
		key  evKey
		text int64
	}
	var items []item
	for _, st := range states {
		if st == nil || st.failed {
			continue
		}
		for i := range st.Writes {
			items = append(items, item{st.Writes[i].key(st.Path), st.Writes[i].Text})
		}
		for i := range st.Obs {
			items = append(items, item{st.Obs[i].key(st.Path), st.Obs[i].Text})
		}
	}
	var c cuts
	sort.Slice(items, func(i, j int) bool { return items[j].key.before(items[i].key) }) // newest first
	if len(items) > maxEvents {
		c.Cut, c.HasCut = items[maxEvents].key, true
		items = items[:maxEvents]
	}
	var sum int64
	for _, it := range items {
		if sum += it.text; it.text > 0 && sum > maxText {
			c.TextCut, c.HasTextCut = it.key, true
			break
		}
	}
	return c
}

// boundsProblem says what a selection left out, for the log's Problems.
func boundsProblem(c cuts, maxEvents int, maxText int64) string {
	var parts []string
	if c.HasCut {
		parts = append(parts, fmt.Sprintf("memory writes and reads recorded before %s are left out (memtui keeps the newest %d)",
			c.Cut.T.UTC().Format(time.RFC3339), maxEvents))
	}
	if c.HasTextCut {
		parts = append(parts, fmt.Sprintf("what writes and reads before %s wrote or saw is not kept (memtui keeps the newest %s of memory text)",
			c.TextCut.T.UTC().Format(time.RFC3339), claude.FormatFileSize(int(maxText))))
	}
	return "the transcripts record more memory activity than memtui keeps: " + strings.Join(parts, "; ") +
		"; lost updates and use older than that are not looked for"
}

// capText returns s when it is at most maxMemText bytes, else "" and
// false: a text no memory file memtui reads can hold.
func capText(s string) (string, bool) {
	if len(s) > maxMemText {
		return "", false
	}
	return s, true
}

// longLine records what the ends of a line too long to decode say (see
// skipLongLine): a call on a memory file is kept pending without its
// input; the result of a pending call makes its write (or read) without
// the text. A result too long to decode is taken as a success: an error
// is a short message.
func (x *extractor) longLine(head, end []byte, lineNo int) {
	kind, id := lineHead(head)
	if kind == headOther {
		// A result block whose fields come in another order.
		if rid := jsonString(head, "tool_use_id", false); rid != "" && x.pending[rid] != nil {
			kind, id = headResult, []byte(rid)
		}
	}
	rec := lineRec{
		Timestamp: lineString(head, end, "timestamp"),
		UUID:      lineString(head, end, "uuid"),
		SessionID: lineString(head, end, "sessionId"),
		AgentID:   lineString(head, end, "agentId"),
		Cwd:       lineString(head, end, "cwd"),
		GitBranch: lineString(head, end, "gitBranch"),
		Version:   lineString(head, end, "version"),
	}
	x.meta(rec.Cwd, rec.GitBranch, rec.Version, rec.SessionID, rec.Timestamp)
	cwd := firstNonEmpty(rec.Cwd, x.st.Meta.Cwd)
	switch kind {
	case headToolUse:
		i := bytes.Index(head, callHead)
		call := head[i+len(callHead):]
		j := bytes.IndexByte(call, '"')
		if j <= 0 {
			return
		}
		pu := &pendingUse{ID: string(call[:j]), Name: jsonString(call, "name", false), Offset: x.run.base + int64(x.run.pos), Dropped: true}
		// The input's small fields come before its long text or after it.
		field := func(key string) string {
			return firstNonEmpty(jsonString(call, key, false), jsonString(end, key, true))
		}
		if store := field("store"); store != "" {
			if p, ok := x.mem.storePath(store, field("path")); ok {
				if pu.Name != storeRead {
					pu.Name = storeTool
				}
				pu.Paths = []string{p}
			}
		} else if pu.Name == "Write" || pu.Name == "Edit" || pu.Name == "MultiEdit" {
			if p, ok := x.mem.path(field("file_path"), cwd); ok {
				pu.Paths = []string{p}
			}
		}
		if len(pu.Paths) > 0 {
			x.addPending(pu)
			x.pairOrphan(pu.ID)
		}
	case headResult:
		pu := x.pending[string(id)]
		if pu == nil {
			return
		}
		delete(x.pending, pu.ID)
		x.run.unwatch(pu.ID)
		ev := x.event(&rec, pu.ID, lineNo)
		for _, p := range pu.Paths {
			if pu.Name == "Read" {
				x.observe(ev, model.MemObservation{Path: p, Kind: model.ObsRead, ContentDropped: true})
				continue
			}
			x.applied(ev, pu, p, nil, "")
		}
	}
}

// lineString is an envelope field of a line known only by its ends: the
// first occurrence in its head (envelope fields before the message), else
// the last in its end (after it). Inside the message, strings are escaped,
// so their quotes do not match.
func lineString(head, end []byte, key string) string {
	if s := jsonString(head, key, false); s != "" {
		return s
	}
	return jsonString(end, key, true)
}

// jsonString finds "key":"..." in b (the last one when last) and returns
// the string unescaped, "" when there is none or it is cut off.
func jsonString(b []byte, key string, last bool) string {
	pat := []byte(`"` + key + `":"`)
	var i int
	if last {
		i = bytes.LastIndex(b, pat)
	} else {
		i = bytes.Index(b, pat)
	}
	if i < 0 {
		return ""
	}
	v := b[i+len(pat)-1:]
	for j := 1; j < len(v) && j < 4096; j++ {
		switch v[j] {
		case '\\':
			j++
		case '"':
			var s string
			if json.Unmarshal(v[:j+1], &s) != nil {
				return ""
			}
			return s
		}
	}
	return ""
}

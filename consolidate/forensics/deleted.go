package forensics

import (
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
)

// Deleted is a memory the transcripts or memtui's own records (snapshots,
// the review baseline: MemoryDir.Kept) show existed, gone from disk, whose
// last text they hold whole.
type Deleted struct {
	// File is the memory-dir-relative slash path.
	File string
	// Text is the file's last complete text.
	Text string
	// From says where Text comes from: the session, the tool and when
	// (a write that left it, or a read that saw it whole); for a text
	// memtui kept, FromHow is its Source ("snapshot", "review baseline")
	// and FromSession is "".
	FromSession, FromHow string
	FromTime             time.Time
	// By is the write that removed it (a shell rm, an mv away); nil when
	// no recorded write did (a person, a script, Claude Code's background
	// consolidation, whose deletes leave no record).
	By *model.MemWrite
	// Entry is the index entry the file had when the index was last seen
	// whole with one (nil when none): what a restore puts back.
	Entry *memindex.Entry
}

// DeletedMemories lists the memories of d that the log or memtui's own
// records (d.Kept) show existed and that are gone from disk, each with its
// last complete text: only where every recorded change from that text on
// is known (a shell write or a
// background fork of unknown content in between leaves it unknown, and
// no partial text is ever offered). Left out: MEMORY.md (its absence is
// index-missing's), a file memtui itself deleted (the journal's undo
// brings it back), and a memory whose body lines all stand in one file on
// disk (merged into it, not lost).
func DeletedMemories(d *model.MemoryDir, log *model.TranscriptLog) []Deleted {
	if log == nil {
		log = &model.TranscriptLog{}
	}
	exists := map[string]bool{}
	if d.Index != nil {
		exists[model.IndexFileName] = true
	}
	for _, f := range d.Files {
		exists[f.Path] = true
	}
	for _, p := range d.Problems {
		exists[p.Path] = true // on disk, though not read
	}
	type state struct {
		text    string
		known   bool
		memtui  bool // memtui deleted it last
		by      *model.MemWrite
		from    model.MemWrite
		fromHow string
	}
	states := map[string]*state{}
	get := func(rel string) *state {
		st := states[rel]
		if st == nil {
			st = &state{}
			states[rel] = st
		}
		return st
	}
	// The events of every file, writes and whole reads, in time order
	// (the log is sorted; a read and a write at one instant: the write
	// first, as the read saw its result).
	type event struct {
		w *model.MemWrite
		o *model.MemObservation
		t time.Time
	}
	var evs []event
	for i := range log.Writes {
		evs = append(evs, event{w: &log.Writes[i], t: log.Writes[i].Time})
	}
	for i := range log.Observations {
		o := &log.Observations[i]
		if (o.Kind == model.ObsRead || o.Kind == model.ObsRecall) && o.Full && !o.ContentDropped {
			evs = append(evs, event{o: o, t: o.Time})
		}
	}
	sort.SliceStable(evs, func(i, j int) bool {
		if !evs[i].t.Equal(evs[j].t) {
			return evs[i].t.Before(evs[j].t)
		}
		return evs[i].w != nil && evs[j].w == nil
	})
	var indexes []string // the index's whole texts, oldest first
	for _, e := range evs {
		if o := e.o; o != nil {
			rel, ok := relPath(d, o.Path)
			if !ok {
				continue
			}
			if rel == model.IndexFileName {
				indexes = append(indexes, o.Content)
				continue
			}
			st := get(rel)
			st.text, st.known, st.memtui = o.Content, true, false
			st.from = model.MemWrite{Session: o.Session, Agent: o.Agent, Time: o.Time}
			st.fromHow = "Read"
			continue
		}
		w := e.w
		rel, ok := relPath(d, w.Path)
		if !ok {
			continue
		}
		if rel == model.IndexFileName {
			if w.HasAfter && !w.TextDropped {
				indexes = append(indexes, w.After)
			}
			continue
		}
		st := get(rel)
		switch {
		case w.Kind == model.WriteMemtui:
			st.memtui = !w.Created && w.HasAfter && w.After == ""
			st.known = w.HasAfter && !st.memtui
			st.text = w.After
			st.by = nil
		case w.Deleted:
			if w.HasBefore && !w.TextDropped {
				st.text, st.known = w.Before, true
			}
			st.by, st.memtui = w, false
		case w.TextDropped:
			st.known = false
		case (w.Kind == model.WriteFull || w.Kind == model.WriteStore) && w.HasAfter:
			st.text, st.known, st.by, st.memtui = w.After, true, nil, false
			st.from, st.fromHow = *w, ToolName(*w)
		case w.Kind == model.WriteEdit || w.Kind == model.WriteMulti:
			base, ok := st.text, st.known
			if w.HasBefore {
				base, ok = w.Before, true
			}
			if ok {
				base, ok = ApplyEdits(base, w.Edits)
			}
			st.text, st.known, st.by, st.memtui = base, ok, nil, false
			if ok {
				st.from, st.fromHow = *w, ToolName(*w)
			}
		default:
			// A shell write or a background fork: what it left is unknown.
			st.known, st.by, st.memtui = false, nil, false
		}
	}
	// The index's entries, newest text first, parsed once.
	var entries [][]memindex.Entry
	for i := len(indexes) - 1; i >= 0; i-- {
		entries = append(entries, memindex.ParseText(indexes[i]).Entries)
	}
	var out []Deleted
	// What memtui kept itself (snapshots, the review baseline) stands in
	// for the transcripts where they know no whole text, or an older one:
	// the last whole text wins, whoever recorded it.
	kept := map[string]model.KeptText{}
	for _, k := range d.Kept {
		if k.Path == model.IndexFileName || exists[k.Path] || k.Text == "" {
			continue
		}
		if o, ok := kept[k.Path]; !ok || k.Seen.After(o.Seen) {
			kept[k.Path] = k
		}
	}
	for rel, k := range kept {
		st := states[rel]
		if st != nil && st.memtui {
			continue // memtui deleted it: the journal's undo brings it back
		}
		if st != nil && st.known && !st.from.Time.Before(k.Seen) {
			continue // the transcripts hold a text as late
		}
		if mergedInto(d, k.Text) || changedAfter(d, log, rel, k.Seen) {
			continue
		}
		del := Deleted{File: rel, Text: k.Text, FromHow: k.Source, FromTime: k.Seen, By: forkDeleting(d, log, rel, k)}
		if st != nil && st.by != nil && !st.by.Time.Before(k.Seen) {
			del.By = st.by
		}
		if k.Index != "" {
			es := memindex.ParseText(k.Index).Entries
			for j := range es {
				if r, ok := es[j].Primary(); ok && r.Target == rel {
					del.Entry = &es[j]
					break
				}
			}
		}
		out = append(out, del)
		delete(states, rel)
	}
	for rel, st := range states {
		if exists[rel] || !st.known || st.memtui || st.text == "" || mergedInto(d, st.text) {
			continue
		}
		del := Deleted{File: rel, Text: st.text, FromSession: st.from.Session, FromHow: st.fromHow, FromTime: st.from.Time, By: st.by}
		for _, es := range entries {
			for j := range es {
				if r, ok := es[j].Primary(); ok && r.Target == rel {
					del.Entry = &es[j]
					break
				}
			}
			if del.Entry != nil {
				break
			}
		}
		out = append(out, del)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// changedAfter reports a recorded change to rel after t that left a text
// memtui never saw (a shell command, an edit): a text kept at t is then
// not the file's last. A removal, and a background fork's write (a Dream
// that rewrote and then removed the file), are not such a change.
func changedAfter(d *model.MemoryDir, log *model.TranscriptLog, rel string, t time.Time) bool {
	for i := range log.Writes {
		w := &log.Writes[i]
		if w.Deleted || w.Kind == model.WriteFork || !w.Time.After(t.Add(slack)) {
			continue
		}
		if r, ok := relPath(d, w.Path); ok && r == rel {
			return true
		}
	}
	return false
}

// forkDeleting is the background fork whose memory_saved line lists rel
// between when memtui last saw it and when it saw it gone: a Dream run
// lists the files it deleted among its written paths (facts 12.4). nil
// when none does.
func forkDeleting(d *model.MemoryDir, log *model.TranscriptLog, rel string, k model.KeptText) *model.MemWrite {
	if log == nil {
		return nil
	}
	for i := range log.Writes {
		w := &log.Writes[i]
		if w.Kind != model.WriteFork || w.Time.Before(k.Seen.Add(-slack)) || !k.Gone.IsZero() && w.Time.After(k.Gone.Add(slack)) {
			continue
		}
		if r, ok := relPath(d, w.Path); ok && r == rel {
			return w
		}
	}
	return nil
}

// mergedInto reports whether every body line of text (after its
// frontmatter, blank lines aside) stands in one file of d: the memory was
// folded into it, not lost.
func mergedInto(d *model.MemoryDir, text string) bool {
	body := string(claude.ParseDoc([]byte(text)).Body([]byte(text)))
	var lines []string
	for _, l := range strings.Split(body, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return false
	}
	for _, f := range d.Files {
		c := string(f.Content)
		all := true
		for _, l := range lines {
			if !strings.Contains(c, l) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

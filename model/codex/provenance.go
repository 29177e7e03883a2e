package codex

import (
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// Provenance is what a Codex home's session rollouts say about its
// store (codex facts §6): per memory file, who read, cited and wrote it;
// per session, what it did with the store.
type Provenance struct {
	// Home and Root are the store's (Root = Home/memories).
	Home, Root string
	// Sessions are the sessions that read, cited or wrote memory, newest
	// first. Loaded counts the others whose context only carried the
	// summary (every session with memories on does).
	Sessions []SessionUse
	Loaded   int
	// Files are the store's files (every file on disk, and every path a
	// session named), by path relative to Root.
	Files map[string]*FileUse
	// Rollouts counts the rollout files read; Oldest is the earliest
	// session start among them (what is older is not seen).
	Rollouts int
	Oldest   time.Time
	// Problems are what could not be read, per rollout (or folder).
	Problems []model.TranscriptProblem
}

// SessionUse is one session's use of the store.
type SessionUse struct {
	ThreadID, Cwd, Source, CLIVersion, MemoryMode string
	// Rollout is the session's rollout file.
	Rollout    string
	Start, End time.Time
	// Loaded says the summary was injected into its context.
	Loaded bool
	// Reads are its reads, failed ones included (each says so).
	Reads []Read
	// Citations are its replies' citations.
	Citations []Citation
	// NoteWrites and Edits are its writes.
	NoteWrites, Edits []Write
}

// ReadPaths are the paths it read (failed reads aside), each once, in
// the order first read ("" is the whole store).
func (s *SessionUse) ReadPaths() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range s.Reads {
		if !r.Failed && !seen[r.Path] {
			seen[r.Path] = true
			out = append(out, r.Path)
		}
	}
	return out
}

// Used says the session read, cited or wrote memory.
func (s *SessionUse) Used() bool {
	return len(s.Reads) > 0 || len(s.Citations) > 0 || len(s.NoteWrites) > 0 || len(s.Edits) > 0
}

// FileUse is one file's use.
type FileUse struct {
	// Path is relative to the store's root; Exists says it is on disk.
	Path   string
	Exists bool
	// ThreadID is a rollout summary's thread (its header's thread_id).
	ThreadID string
	// Reads counts its reads (failed ones aside) in ReadBy's sessions
	// (thread ids, in the order first read); LastRead is the latest.
	Reads    int
	ReadBy   []string
	LastRead time.Time
	// Loads counts the sessions whose context carried it (the summary
	// only); LastLoad is the latest.
	Loads    int
	LastLoad time.Time
	// Citations counts the citation entries that name it, by CitedBy's
	// sessions, over Ranges (each distinct range once, in order).
	Citations int
	CitedBy   []string
	Ranges    []LineRange
	LastCited time.Time
	// ThreadCitations counts the citations whose rollout ids name this
	// rollout summary's thread (what Codex counts as its memory's use,
	// codex facts §2), by ThreadCitedBy's sessions.
	ThreadCitations int
	ThreadCitedBy   []string
	// Writes are the sessions' writes to it, oldest first.
	Writes []FileWrite
}

// LineRange is a cited range of lines, 1-based, inclusive.
type LineRange struct{ Start, End int }

// FileWrite is one session's write to a file.
type FileWrite struct {
	Write
	ThreadID, Cwd, Rollout string
}

// Sessions are the sessions that used the file, each once: readers,
// citers (of it, or of its thread) and writers, newest first.
func (f *FileUse) Sessions(p *Provenance) []*SessionUse {
	want := map[string]bool{}
	for _, ids := range [][]string{f.ReadBy, f.CitedBy, f.ThreadCitedBy} {
		for _, id := range ids {
			want[id] = true
		}
	}
	for _, w := range f.Writes {
		want[w.ThreadID] = true
	}
	var out []*SessionUse
	for i := range p.Sessions {
		if want[p.Sessions[i].Key()] {
			out = append(out, &p.Sessions[i])
		}
	}
	return out
}

// Key names the session as FileUse's lists name it: its thread id, else
// its rollout file.
func (s *SessionUse) Key() string {
	if s.ThreadID != "" {
		return s.ThreadID
	}
	return s.Rollout
}

// Aggregate gathers the rollouts of st's home: per file and per session.
// A thread recorded in two rollout files (a copy left in
// archived_sessions/) is one session. Rollout ids of citations are
// matched to the rollout summaries whose header names the thread.
func Aggregate(st *Store, rollouts []*Rollout) *Provenance {
	p := &Provenance{Files: map[string]*FileUse{}, Rollouts: len(rollouts)}
	byThread := map[string]string{}
	if st != nil {
		p.Home, p.Root = st.Home, st.Root
		for _, f := range st.Files {
			fu := p.file(f.Path)
			fu.Exists = true
			if KindOf(f.Path) == KindRollout && strings.HasSuffix(f.Path, ".md") {
				if id := ParseRolloutSummary(f.Content).ThreadID; id != "" {
					fu.ThreadID = id
					byThread[strings.ToLower(id)] = f.Path
				}
			}
		}
	}
	// The store's folders: the root, the two Codex searches, and every
	// folder that holds a file.
	dirs := map[string]bool{"": true, strings.TrimSuffix(RolloutDir, "/"): true, strings.TrimSuffix(SkillsDir, "/"): true}
	for rel := range p.Files {
		for d := path.Dir(rel); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	sessions := map[string]*SessionUse{}
	var order []string
	for _, r := range rollouts {
		for _, msg := range r.Problems {
			p.Problems = append(p.Problems, model.TranscriptProblem{Transcript: r.Path, Message: msg})
		}
		if !r.Start.IsZero() && (p.Oldest.IsZero() || r.Start.Before(p.Oldest)) {
			p.Oldest = r.Start
		}
		key := r.ThreadID
		if key == "" {
			key = r.Path
		}
		s := sessions[key]
		if s == nil {
			s = &SessionUse{ThreadID: r.ThreadID, Cwd: r.Cwd, Source: r.Source, CLIVersion: r.CLIVersion, MemoryMode: r.MemoryMode, Rollout: r.Path, Start: r.Start, End: r.End}
			sessions[key] = s
			order = append(order, key)
		} else {
			// The fuller copy names the session; the span covers both.
			if r.Lines > 0 && r.End.After(s.End) {
				s.Rollout, s.End = r.Path, r.End
			}
			if s.Start.IsZero() || !r.Start.IsZero() && r.Start.Before(s.Start) {
				s.Start = r.Start
			}
		}
		s.Loaded = s.Loaded || r.Injected != nil
		s.Reads = appendNew(s.Reads, r.Reads, func(a Read) string { return eventKey(a.CallID, a.Path, a.Line) })
		s.NoteWrites = appendNew(s.NoteWrites, r.NoteWrites, func(w Write) string { return eventKey(w.CallID, w.Path, w.Line) })
		s.Edits = appendNew(s.Edits, r.Edits, func(w Write) string { return eventKey(w.CallID, w.Path, w.Line) })
		if len(s.Citations) < len(r.Citations) {
			// Two copies of a thread record the same replies: the longer
			// one holds the other.
			s.Citations = r.Citations
		}
	}
	for _, key := range order {
		s := sessions[key]
		if s.Loaded {
			fu := p.file(SummaryFile)
			fu.Loads++
			if s.Start.After(fu.LastLoad) {
				fu.LastLoad = s.Start
			}
		}
		for _, rd := range s.Reads {
			if rd.Failed || dirs[rd.Path] {
				// A folder's read (a search of skills/) is the session's,
				// not any one file's.
				continue
			}
			fu := p.file(rd.Path)
			fu.Reads++
			fu.ReadBy = addOnce(fu.ReadBy, key)
			if rd.Time.After(fu.LastRead) {
				fu.LastRead = rd.Time
			}
		}
		for _, c := range s.Citations {
			for _, e := range c.Entries {
				if e.Path == "" || isAbsAny(e.Path) {
					continue // a file outside the store: the session's, not the store's
				}
				fu := p.file(e.Path)
				fu.Citations++
				fu.CitedBy = addOnce(fu.CitedBy, key)
				if r := (LineRange{e.LineStart, e.LineEnd}); !slices.Contains(fu.Ranges, r) {
					fu.Ranges = append(fu.Ranges, r)
				}
				if c.Time.After(fu.LastCited) {
					fu.LastCited = c.Time
				}
			}
			seen := map[string]bool{}
			for _, id := range c.RolloutIDs {
				rel, ok := byThread[strings.ToLower(id)]
				if !ok || seen[rel] {
					continue
				}
				seen[rel] = true
				fu := p.file(rel)
				fu.ThreadCitations++
				fu.ThreadCitedBy = addOnce(fu.ThreadCitedBy, key)
			}
		}
		for _, ws := range [][]Write{s.NoteWrites, s.Edits} {
			for _, w := range ws {
				fu := p.file(w.Path)
				fu.Writes = append(fu.Writes, FileWrite{Write: w, ThreadID: key, Cwd: s.Cwd, Rollout: s.Rollout})
			}
		}
		if s.Used() {
			p.Sessions = append(p.Sessions, *s)
		} else if s.Loaded {
			p.Loaded++
		}
	}
	for _, fu := range p.Files {
		sort.SliceStable(fu.Writes, func(i, j int) bool { return fu.Writes[i].Time.Before(fu.Writes[j].Time) })
	}
	sort.SliceStable(p.Sessions, func(i, j int) bool {
		a, b := &p.Sessions[i], &p.Sessions[j]
		if !a.Start.Equal(b.Start) {
			return a.Start.After(b.Start)
		}
		return a.Key() < b.Key()
	})
	return p
}

func (p *Provenance) file(rel string) *FileUse {
	fu := p.Files[rel]
	if fu == nil {
		fu = &FileUse{Path: rel}
		p.Files[rel] = fu
	}
	return fu
}

// Paths are the files' paths, sorted.
func (p *Provenance) Paths() []string {
	out := make([]string, 0, len(p.Files))
	for k := range p.Files {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Session is the session named key (FileUse's lists), nil when none.
func (p *Provenance) Session(key string) *SessionUse {
	for i := range p.Sessions {
		if p.Sessions[i].Key() == key {
			return &p.Sessions[i]
		}
	}
	return nil
}

// Used says the file was read, loaded, cited or written.
func (f *FileUse) Used() bool {
	return f.Reads > 0 || f.Loads > 0 || f.Citations > 0 || f.ThreadCitations > 0 || len(f.Writes) > 0
}

// addOnce appends s to ss unless it is there.
func addOnce(ss []string, s string) []string {
	if slices.Contains(ss, s) {
		return ss
	}
	return append(ss, s)
}

// eventKey names an event across two copies of one rollout.
func eventKey(call, path string, line int) string {
	return call + "\x00" + path + "\x00" + strconv.Itoa(line)
}

// appendNew appends the items of add whose key dst lacks.
func appendNew[T any](dst, add []T, key func(T) string) []T {
	if len(dst) == 0 {
		return append(dst, add...)
	}
	have := make(map[string]bool, len(dst))
	for _, x := range dst {
		have[key(x)] = true
	}
	for _, x := range add {
		if k := key(x); !have[k] {
			have[k] = true
			dst = append(dst, x)
		}
	}
	return dst
}

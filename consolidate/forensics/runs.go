package forensics

import (
	"sort"
	"time"

	"github.com/memtui/memtui/model"
)

// Claude Code's background forks (Dream, memory extraction) run with no
// transcript of their own (facts 12.2): what they changed shows only as
// files that differ between two of memtui's snapshots with no tool call
// in any transcript to explain them, near the memory_saved line the fork
// left in its parent session's transcript (its paths; "Improved" for
// Dream) or the .consolidate-lock mtime a Dream run moved.

// Run is one background fork's work on a memory dir, as the snapshots
// taken around it show.
type Run struct {
	// Kind is KindDream or KindExtraction.
	Kind SessionKind
	// Session is the main session whose transcript has the fork's
	// memory_saved line; "" when only the lock's mtime tells of the run.
	Session string
	// Time is the memory_saved line's, else the lock's mtime; LockPID the
	// lock's PID then (0 when unknown).
	Time    time.Time
	LockPID int
	// From and To are the snapshots' times the run lies between.
	From, To time.Time
	// Files are what it created, changed and deleted, by path.
	Files []RunFile
}

// RunFile is one file a run changed.
type RunFile struct {
	// Path is memory-dir-relative, slash-separated.
	Path string
	// Op is OpCreated, OpModified or OpDeleted.
	Op WriteOp
	// Before and After are the file as the two snapshots saw it (Before
	// zero for a created file, After for a deleted one).
	Before, After model.SnapFile
}

// Key names a run among a directory's activities, as SessionActivity.Key
// does: a run with no session is named by its time.
func (r *Run) Key() string {
	if r.Session != "" {
		return activityKey(r.Kind, r.Session, "")
	}
	return activityKey(r.Kind, "", r.Time.UTC().Format(time.RFC3339Nano))
}

// slack is how far before a snapshot a transcript's time may fall and
// still count as after it: the transcript's clock and the snapshot's are
// the same machine's, but a tool result is recorded a moment after the
// file changed.
const slack = 2 * time.Second

// Runs finds the background runs in d's snapshots (oldest first; the last
// may be the disk as it is now): each file that changed between two
// snapshots with no write in the log to explain it (a write of any
// session, subagent or memtui in that window) is a fork's when a fork's
// memory_saved line in the window lists it (that fork's run), else a
// Dream run's when the lock's mtime moved inside the window (the run
// that took the lock then). A change nothing explains is left out: a
// person's editor, say, is not a run.
func Runs(d *model.MemoryDir, snaps []model.Snapshot, log *model.TranscriptLog) []Run {
	var out []Run
	prov := map[string][]model.MemWrite{}
	if log != nil {
		prov = Provenance(d, log)
	}
	for i := 1; i < len(snaps); i++ {
		a, b := snaps[i-1], snaps[i]
		byKey := map[string]*Run{}
		var order []string
		for _, f := range changedBetween(a, b) {
			var fork *model.MemWrite
			explained := false
			for k := range prov[f.Path] {
				w := &prov[f.Path][k]
				if w.Time.Before(a.Time.Add(-slack)) || w.Time.After(b.Time.Add(slack)) {
					continue
				}
				if w.Kind == model.WriteFork {
					fork = w
					continue
				}
				explained = true
			}
			if explained {
				continue
			}
			var r *Run
			switch {
			case fork != nil:
				kind := KindExtraction
				if fork.Verb == "Improved" {
					kind = KindDream
				}
				r = &Run{Kind: kind, Session: fork.Session, Time: fork.Time}
			case !b.LockMtime.IsZero() && !b.LockMtime.Equal(a.LockMtime) && b.LockMtime.After(a.Time.Add(-slack)) && !b.LockMtime.After(b.Time.Add(slack)):
				r = &Run{Kind: KindDream, Time: b.LockMtime, LockPID: b.LockPID}
			default:
				continue
			}
			k := r.Key()
			if byKey[k] == nil {
				r.From, r.To = a.Time, b.Time
				if r.LockPID == 0 && !b.LockMtime.Equal(a.LockMtime) {
					r.LockPID = b.LockPID
				}
				byKey[k] = r
				order = append(order, k)
			}
			byKey[k].Files = append(byKey[k].Files, f)
		}
		for _, k := range order {
			out = append(out, *byKey[k])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.After(out[j].Time) })
	return out
}

// changedBetween are the files that differ between two snapshots, by
// path.
func changedBetween(a, b model.Snapshot) []RunFile {
	var out []RunFile
	for p, fb := range b.Files {
		fa, ok := a.Files[p]
		switch {
		case !ok:
			out = append(out, RunFile{Path: p, Op: OpCreated, After: fb})
		case fa.SHA256 != fb.SHA256:
			out = append(out, RunFile{Path: p, Op: OpModified, Before: fa, After: fb})
		}
	}
	for p, fa := range a.Files {
		if _, ok := b.Files[p]; !ok {
			out = append(out, RunFile{Path: p, Op: OpDeleted, Before: fa})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// WithRuns adds the runs to a directory's activities (Sessions): a run
// whose memory_saved line made an activity already fills in that
// activity's writes (their texts come from the snapshots: text gives a
// kept text by hash, ok false when there is none or it was kept with a
// secret masked); a run only the lock tells of becomes an activity of
// its own. Activities stay newest first.
func WithRuns(d *model.MemoryDir, acts []SessionActivity, runs []Run, text func(sha string) (string, bool)) []SessionActivity {
	if len(runs) == 0 {
		return acts
	}
	idx := map[string]int{}
	for i := range acts {
		idx[acts[i].Key()] = i
	}
	for ri := range runs {
		r := &runs[ri]
		i, ok := idx[r.Key()]
		if !ok {
			acts = append(acts, SessionActivity{Session: r.Session, Kind: r.Kind, Start: r.Time, End: r.Time, RunAt: r.Time, LockPID: r.LockPID})
			i = len(acts) - 1
			idx[r.Key()] = i
		}
		a := &acts[i]
		a.RunAt, a.LockPID = r.Time, r.LockPID
		for _, f := range r.Files {
			hw := runWrite(d, r, f, text)
			replaced := false
			for k := range a.Wrote {
				if a.Wrote[k].Path == f.Path && a.Wrote[k].Kind == model.WriteFork && !a.Wrote[k].HasAfter && !a.Wrote[k].HasBefore {
					hw.MemWrite.Transcript, hw.MemWrite.Line = a.Wrote[k].Transcript, a.Wrote[k].Line
					a.Wrote[k] = hw
					replaced = true
					break
				}
			}
			if !replaced {
				a.Wrote = append(a.Wrote, hw)
			}
		}
	}
	sort.SliceStable(acts, func(i, j int) bool { return acts[i].End.After(acts[j].End) })
	return acts
}

// runWrite is a run's change to one file as a write of the run, with the
// texts the snapshots kept whole.
func runWrite(d *model.MemoryDir, r *Run, f RunFile, text func(string) (string, bool)) HistoryWrite {
	verb := ""
	if r.Kind == KindDream {
		verb = "Improved"
	}
	w := model.MemWrite{Path: d.Path + "/" + f.Path, Kind: model.WriteFork, Session: r.Session, Time: r.Time, Verb: verb}
	if f.Op == OpCreated {
		w.Created, w.HasBefore = true, true
	}
	if f.Op == OpDeleted {
		w.Deleted = true
	}
	whole := func(sf model.SnapFile) (string, bool) {
		if sf.Redacted || sf.Missing || text == nil {
			return "", false
		}
		return text(sf.SHA256)
	}
	if f.Op != OpCreated {
		w.Before, w.HasBefore = whole(f.Before)
	}
	if f.Op != OpDeleted {
		w.After, w.HasAfter = whole(f.After)
	}
	hw := HistoryWrite{MemWrite: w, Op: f.Op, Tool: "fork"}
	hw.Path = f.Path
	return hw
}

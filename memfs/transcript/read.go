package transcript

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// Options configure Read.
type Options struct {
	// CacheDir holds the per-project transcript cache
	// (<CacheDir>/transcripts/<key>.cache); "" keeps no cache, so every call
	// reads every transcript.
	CacheDir string
	// Home expands "~" in the paths agents wrote (transcripts §2: paths
	// are stored as the model wrote them).
	Home string
	// JournalRoot is memtui's apply journal, whose applied entries become
	// WriteMemtui writes; "" reads no journal.
	JournalRoot string
	// Workers is how many transcripts are scanned at once; 0 means
	// GOMAXPROCS.
	Workers int

	// maxLine is the longest line kept (0: maxLineDefault); tests lower it.
	maxLine int
	// maxEvents and maxText are the project's bounds (0: maxKeptEvents,
	// maxKeptText); tests lower them.
	maxEvents int
	maxText   int64
	// onOpen, when set, is called with each transcript path opened; tests
	// use it to prove a warm start opens none.
	onOpen func(path string)
	// folders, when set, holds the directory names of each projects/ dir
	// (keyed by its path), listed once for all projects by
	// ReadAll; a dir not in it is listed by Read.
	folders map[string][]string
	// listings, when set, lists each transcript folder once for all
	// projects (ReadAll); nil lists every time.
	listings *listings
	// journal, when set, lists JournalRoot once for all projects
	// (ReadAll); nil lists it on every call.
	journal *journalListing
}

const (
	// tlogChunk is the scan buffer: large enough that moving a partial
	// line to its front is rare.
	tlogChunk = 4 << 20
	// tlogRead is how much one read asks for: small enough that the bytes
	// are still in the CPU cache when the scan that follows each read gets
	// to them (measured at 2 GB: 256 KiB reads are 5% faster than 4 MiB
	// ones; 64 KiB ones lose it again to syscalls).
	tlogRead = 256 << 10
	// maxLineDefault bounds the buffer a single line may grow it to, and
	// so the line decoded at once. A line that matters carries at most a
	// memory file's text a few times over (a Write's input; its result
	// with the content, the file it replaced and their diff), and no text
	// over memfs.DefaultMaxFileBytes is kept (bound.go), so a longer line
	// can only hold text memtui would drop: it is skipped with a Problem
	// rather than held whole (three 250 MB lines once took 4.9 GB).
	maxLineDefault = 16 << 20
)

// Read reads what a project's transcripts say about its memories:
// every applied write to a memory file (with the text written when the
// transcript has it), every time a session saw a memory's content, and the
// sessions themselves. Memory files are the *.md files under p.Dirs and
// <TranscriptDir>/memory.
//
// It reads <TranscriptDir>/*.jsonl (sessions and legacy agent-*.jsonl) and
// <TranscriptDir>/<uuid>/subagents/**/agent-*.jsonl, skipping compaction
// agents, journal.jsonl and sidecars (transcripts §1.1, §7 rule 5), and the
// same in the folders beside it whose sessions can write into its memory
// dirs: sessions launched in a subdirectory of the project or inside its
// memory folder (folders.go). Their sessions join Sessions marked
// OtherFolder, and only when they touched this project's memories. Lines
// are split on '\n' only; blank, torn and unparseable lines are skipped; a
// final line without '\n' is left for a later call (a live session is
// mid-append). Only lines that can matter are decoded: those naming a
// memory dir, title lines, and results of tool calls already seen.
//
// Writes and observations are deduplicated across forked transcripts by
// tool_use id (else line uuid), keeping the earliest (time, file), and
// sorted. With opts.CacheDir set, a transcript whose size and mtime are
// unchanged is not opened again, and one that only grew is read from where
// the last call stopped. Read writes nothing outside CacheDir,
// and returns ctx.Err() promptly when ctx is cancelled.
//
// Memory and cache stay bounded whatever the transcripts hold
// (bound.go): no text over a memory file's size is kept, a line
// over maxLineDefault is known only by its ends, and a project keeps its
// newest maxKeptEvents events with the newest maxKeptText bytes of their
// text. When that leaves anything out, the log says from when it is
// complete (Since, TextSince) and a Problem says so.
func Read(ctx context.Context, p *model.Project, opts Options) (*model.TranscriptLog, error) {
	if p == nil {
		return nil, errors.New("transcript.Read: no project")
	}
	if opts.maxLine <= 0 {
		opts.maxLine = maxLineDefault
	}
	if opts.maxEvents <= 0 {
		opts.maxEvents = maxKeptEvents
	}
	if opts.maxText <= 0 {
		opts.maxText = maxKeptText
	}
	log := &model.TranscriptLog{Sessions: make(map[string]*model.Session)}
	dirs := memoryDirs(p)
	if p.TranscriptDir != "" {
		parent := filepath.Dir(p.TranscriptDir)
		names, ok := opts.folders[parent]
		if !ok {
			names = folderNames(parent)
		}
		others := otherFolders(p.TranscriptDir, dirs, names)
		if err := readProjectTranscripts(ctx, p.TranscriptDir, others, dirs, opts, log); err != nil {
			return nil, err
		}
	}
	if opts.JournalRoot != "" {
		ws, probs, err := journalWrites(opts.JournalRoot, opts.journal, dirs)
		if err != nil {
			log.Problems = append(log.Problems, problem(opts.JournalRoot, "memtui's journal could not be read: %v", memfs.UnwrapPathErr(err)))
		}
		for _, pr := range probs {
			log.Problems = append(log.Problems, model.TranscriptProblem{Transcript: opts.JournalRoot, Message: pr})
		}
		log.Writes = append(log.Writes, ws...)
	}
	foldToDisk(p, log)
	log.SortLog()
	return log, nil
}

// foldToDisk names events the way the disk does for a project made on
// Windows: its sessions write one file as Feedback.md and feedback.md
// (NTFS is case-blind, transcripts §9.1), and the file listed is the one
// their events are about. Only a path no listed file has exactly, and that
// exactly one listed file has in another case, is renamed; it is done on
// every read (not cached), since it follows the files on disk.
func foldToDisk(p *model.Project, log *model.TranscriptLog) {
	if p.TranscriptDir == "" || !isWinSlug(filepath.Base(p.TranscriptDir)) {
		return
	}
	exact := make(map[string]bool)
	folded := make(map[string]string)
	for _, d := range p.Dirs {
		if d == nil {
			continue
		}
		files := d.Files
		if d.Index != nil {
			files = append([]*model.File{d.Index}, files...)
		}
		for _, f := range files {
			full := filepath.Join(d.Path, filepath.FromSlash(f.Path))
			exact[full] = true
			k := lowerASCII(full)
			if _, dup := folded[k]; dup {
				folded[k] = "" // two files differing in case: no guess
			} else {
				folded[k] = full
			}
		}
	}
	if len(folded) == 0 {
		return
	}
	disk := func(path string) string {
		if exact[path] {
			return path
		}
		if q := folded[lowerASCII(path)]; q != "" {
			return q
		}
		return path
	}
	for i := range log.Writes {
		log.Writes[i].Path = disk(log.Writes[i].Path)
	}
	for i := range log.Observations {
		log.Observations[i].Path = disk(log.Observations[i].Path)
	}
}

// ReadAll reads the transcripts of every project that has a
// transcript dir, projects at a time, and sets each one's Log. errs[i] is
// why project i's could not be read (its Log stays nil).
func ReadAll(ctx context.Context, ps []*model.Project, projects int, opts Options) (errs []error) {
	errs = make([]error, len(ps))
	// Each projects/ dir is listed once here, not once per project: its
	// names are what every project picks its other folders from.
	if opts.folders == nil {
		opts.folders = make(map[string][]string)
		for _, p := range ps {
			if p.TranscriptDir == "" {
				continue
			}
			parent := filepath.Dir(p.TranscriptDir)
			if _, ok := opts.folders[parent]; !ok {
				opts.folders[parent] = folderNames(parent)
			}
		}
	}
	if opts.listings == nil {
		opts.listings = &listings{m: make(map[string]*listing)}
	}
	if opts.journal == nil {
		opts.journal = &journalListing{}
	}
	pool.Run(ctx, len(ps), projects, func(i int) {
		if ps[i].TranscriptDir == "" {
			return // a --memory-dir: no transcripts of its own
		}
		ps[i].Log, errs[i] = Read(ctx, ps[i], opts)
	})
	return errs
}

// memoryDirs lists the project's memory dirs, absolute and cleaned, with
// the transcript dir's own memory/ (the auto memdir, even when Discover
// did not list it because it was absent then).
func memoryDirs(p *model.Project) []string {
	var dirs []string
	seen := make(map[string]bool)
	add := func(d string) {
		if d == "" {
			return
		}
		d = filepath.Clean(d)
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	for _, d := range p.Dirs {
		if d != nil && d.Kind == model.DirAuto {
			add(d.Path)
		}
	}
	if p.TranscriptDir != "" {
		add(filepath.Join(p.TranscriptDir, memfs.MemoryDirName))
	}
	for _, d := range p.Dirs {
		if d != nil {
			add(d.Path)
		}
	}
	return dirs
}

func readProjectTranscripts(ctx context.Context, tdir string, others, dirs []string, opts Options, log *model.TranscriptLog) error {
	files, probs := opts.listings.list(tdir)
	log.Problems = append(log.Problems, probs...)
	for _, o := range others {
		more, probs := opts.listings.list(o)
		for i := range more {
			more[i].other = true
		}
		files = append(files, more...)
		log.Problems = append(log.Problems, probs...)
	}
	cache := loadTranscriptCache(opts.CacheDir, tdir, dirs, opts.Home)
	mem := newMemMatcher(dirs, opts.Home)
	mem.movedFrom(tdir)

	states, todo := unchanged(files, cache)
	if cache.Cuts.any() && lostEvents(files, todo, cache) {
		// The cached states were trimmed against events that are gone
		// now: only a fresh read gives what a cold read gives.
		cache.Files, cache.Cuts = map[string]*fileState{}, cuts{}
		states, todo = unchanged(files, cache)
	}
	keep := newKeeper(opts.maxEvents, opts.maxText)
	if len(todo) > 0 {
		// What the cache holds counts against the bounds from the start.
		for _, st := range states {
			if st == nil {
				continue
			}
			for i := range st.Writes {
				keep.add(st.Writes[i].key(st.Path), st.Writes[i].Text)
			}
			for i := range st.Obs {
				keep.add(st.Obs[i].key(st.Path), st.Obs[i].Text)
			}
		}
	}
	read, err := scanAll(ctx, files, states, todo, cache, mem, keep, opts)
	if err != nil {
		return err
	}
	log.Read = read
	trimmed := false
	if len(todo) > 0 || len(cache.Files) != countKept(states) {
		// Select exactly over everything: the keeper's cut was as far as
		// the events seen at the time allowed.
		// What was trimmed before (the keeper's cuts while scanning, the
		// cache's from earlier reads) is gone from the states: the cut is
		// the latest of those and of the selection over what is left.
		c := finalCuts(states, opts.maxEvents, opts.maxText)
		c.join(keep.cuts())
		c.join(cache.Cuts)
		cache.Cuts = c.norm()
		for _, st := range states {
			if st != nil && st.trim(cache.Cuts) {
				trimmed = true
			}
		}
	}
	if len(todo) > 0 || trimmed || len(cache.Files) != countKept(states) {
		cache.Files = make(map[string]*fileState, len(states))
		for _, st := range states {
			if st != nil && !st.failed {
				cache.Files[st.Path] = st
			}
		}
		saveTranscriptCache(opts.CacheDir, cache)
	}
	assemble(log, files, states)
	if c := cache.Cuts; c.any() {
		log.Problems = append(log.Problems, model.TranscriptProblem{Transcript: tdir, Message: boundsProblem(c, opts.maxEvents, opts.maxText)})
		if c.HasCut {
			log.Since = c.Cut.T
			if log.Oldest.Before(log.Since) {
				log.Oldest = log.Since // heat covers only what is kept
			}
		}
		if c.HasTextCut {
			log.TextSince = c.TextCut.T
		}
	}
	return nil
}

// unchanged sets the states of the files whose size and mtime are what
// the cache recorded (they are not even opened) and lists the others.
func unchanged(files []transcriptFile, cache *transcriptCache) ([]*fileState, []int) {
	states := make([]*fileState, len(files))
	var todo []int
	for i, tf := range files {
		st := cache.Files[tf.path]
		if st != nil && st.Size == tf.size && st.ModTime == tf.mod.UnixNano() {
			states[i] = st
			continue
		}
		todo = append(todo, i)
	}
	return states, todo
}

// lostEvents reports whether events the cache was selected over are gone:
// a cached transcript deleted, or rewritten rather than appended to.
func lostEvents(files []transcriptFile, todo []int, cache *transcriptCache) bool {
	listed := make(map[string]bool, len(files))
	for _, tf := range files {
		listed[tf.path] = true
	}
	for p := range cache.Files {
		if !listed[p] {
			return true
		}
	}
	for _, i := range todo {
		prev := cache.Files[files[i].path]
		if prev != nil && !appendedTo(files[i].path, prev) {
			return true
		}
	}
	return false
}

// appendedTo reports whether the file still begins with what prev read.
func appendedTo(path string, prev *fileState) bool {
	f, err := memfs.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, _, _ := resumeState(f, prev, fi.Size())
	return st == prev
}

func countKept(states []*fileState) int {
	n := 0
	for _, st := range states {
		if st != nil && !st.failed {
			n++
		}
	}
	return n
}

// transcriptFile is one transcript found by the listing.
type transcriptFile struct {
	path string
	size int64
	mod  time.Time
	// main is a <uuid>.jsonl session file; otherwise a subagent's.
	main bool
	// session is the stem of a main file, or the <uuid> dir a subagent
	// file lives under ("" for a legacy agent-*.jsonl sibling).
	session string
	// agent is the id from agent-<id>.jsonl.
	agent string
	// other is a file in another slug's folder (folders.go).
	other bool
}

// listTranscriptFiles finds the transcripts of one project dir with
// directory reads and lstats only (a warm start must not open a file).
func listTranscriptFiles(tdir string) ([]transcriptFile, []model.TranscriptProblem) {
	var files []transcriptFile
	var probs []model.TranscriptProblem
	ents, err := memfs.ReadDir(tdir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			probs = append(probs, problem(tdir, "the transcript dir could not be listed: %v", memfs.UnwrapPathErr(err)))
		}
		return nil, probs
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() {
			if memfs.IsUUID(name) {
				files = append(files, listSubagents(filepath.Join(tdir, name, "subagents"), name, &probs)...)
			}
			continue
		}
		stem, ok := strings.CutSuffix(name, ".jsonl")
		if !ok {
			continue
		}
		tf := transcriptFile{path: filepath.Join(tdir, name)}
		switch {
		case memfs.IsUUID(stem):
			tf.main, tf.session = true, stem
		case isAgentFile(name):
			tf.agent = strings.TrimPrefix(stem, "agent-")
		default:
			continue
		}
		if statTranscript(&tf, e) {
			files = append(files, tf)
		}
	}
	return files, probs
}

// isAgentFile matches agent-<id>.jsonl except compaction agents, which
// re-emit the whole conversation (transcripts §5.4).
func isAgentFile(name string) bool {
	return strings.HasPrefix(name, "agent-") && strings.HasSuffix(name, ".jsonl") &&
		!strings.HasPrefix(name, "agent-acompact-")
}

// listSubagents walks <uuid>/subagents at any depth (workflow runs nest
// their agents, transcripts §1.1).
func listSubagents(dir, session string, probs *[]model.TranscriptProblem) []transcriptFile {
	var out []transcriptFile
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if p != dir && !errors.Is(err, fs.ErrNotExist) {
				*probs = append(*probs, problem(p, "the subagent dir could not be listed: %v", memfs.UnwrapPathErr(err)))
			}
			return nil
		}
		if e.IsDir() || !isAgentFile(e.Name()) {
			return nil
		}
		tf := transcriptFile{path: p, session: session, agent: strings.TrimSuffix(strings.TrimPrefix(e.Name(), "agent-"), ".jsonl")}
		if statTranscript(&tf, e) {
			out = append(out, tf)
		}
		return nil
	})
	return out
}

// statTranscript fills size and mtime; anything but a regular file (or a
// link to one) is skipped. A link is listed so that the open step, which
// does not follow it (openRegular), reports it instead of dropping it
// silently.
func statTranscript(tf *transcriptFile, e fs.DirEntry) bool {
	var info fs.FileInfo
	var err error
	if e.Type()&fs.ModeSymlink != 0 {
		info, err = os.Stat(tf.path)
	} else {
		info, err = e.Info()
	}
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	tf.size, tf.mod = info.Size(), info.ModTime()
	return true
}

// scanAll scans the files in todo on opts.Workers goroutines, largest first
// so one big session does not finish alone at the end. It returns the bytes
// read; states[i] is set for each file scanned.
func scanAll(ctx context.Context, files []transcriptFile, states []*fileState, todo []int, cache *transcriptCache, mem *memMatcher, keep *keeper, opts Options) (int64, error) {
	sort.Slice(todo, func(a, b int) bool { return files[todo[a]].size > files[todo[b]].size })
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// A scanner holds a large buffer: one per worker, not one per file.
	scanners := sync.Pool{New: func() any { return newScanner(mem, keep, opts) }}
	var (
		mu   sync.Mutex
		read int64
		done []*fileState // scanned, held until the final selection
		held int          // events they held when last trimmed, and since
	)
	pool.Run(ctx, len(todo), workers, func(k int) {
		sc := scanners.Get().(*scanner)
		defer scanners.Put(sc)
		i := todo[k]
		st, n := sc.scan(ctx, files[i], cache.Files[files[i].path])
		mu.Lock()
		defer mu.Unlock()
		states[i] = st
		read += n
		done = append(done, st)
		held += len(st.Writes) + len(st.Obs)
		if held > keep.maxEvents+keep.maxEvents/4 {
			// A file is trimmed to the cut as it stood when it was
			// done; the cut has moved on since, so trim them all again,
			// or files done early would hold their events to the end.
			c := keep.cuts()
			held = 0
			for _, d := range done {
				d.trim(c)
				held += len(d.Writes) + len(d.Obs)
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return read, err
	}
	return read, nil
}

// assemble merges the per-file results into the log: deduplicated events,
// sessions, counts and problems.
func assemble(log *model.TranscriptLog, files []transcriptFile, states []*fileState) {
	nw, no := 0, 0
	for _, st := range states {
		if st != nil && !st.failed {
			nw, no = nw+len(st.Writes), no+len(st.Obs)
		}
	}
	writes := make([]keyedWrite, 0, nw)
	obs := make([]model.MemObservation, 0, no)
	for i, tf := range files {
		st := states[i]
		if st == nil {
			continue
		}
		log.Problems = append(log.Problems, st.Problems...)
		if st.failed {
			continue
		}
		log.Files++
		log.Bytes += tf.size
		writes = append(writes, st.Writes...)
		for i := range st.Obs {
			obs = append(obs, st.Obs[i].O)
		}
		if f := st.Meta.First; !f.IsZero() && (log.Oldest.IsZero() || f.Before(log.Oldest)) {
			log.Oldest = f
		}
	}
	log.Writes = dedupeWrites(writes)
	log.Observations = dedupeObs(obs)
	buildSessions(log, files, states)
}

// dedupeWrites keeps one write per key, the earliest by (time, transcript,
// line): forks copy their parent's lines with the same ids (§5.3).
func dedupeWrites(ws []keyedWrite) []model.MemWrite {
	sort.SliceStable(ws, func(i, j int) bool { return writeBefore(&ws[i].W, &ws[j].W) })
	seen := make(map[string]int, len(ws))
	out := make([]model.MemWrite, 0, len(ws))
	for _, w := range ws {
		k := w.Key + "\x00" + string(w.W.Kind) + "\x00" + w.W.Path
		if i, ok := seen[k]; ok {
			// A fork's copy: keep the session it was copied into too.
			if kept := &out[i]; !kept.SessionIs(w.W.Session) {
				kept.AlsoIn = append(kept.AlsoIn, w.W.Session)
			}
			continue
		}
		seen[k] = len(out)
		out = append(out, w.W)
	}
	return out
}

func writeBefore(a, b *model.MemWrite) bool {
	if !a.Time.Equal(b.Time) {
		return a.Time.Before(b.Time)
	}
	if a.Transcript != b.Transcript {
		return a.Transcript < b.Transcript
	}
	return a.Line < b.Line
}

func dedupeObs(os []model.MemObservation) []model.MemObservation {
	sort.SliceStable(os, func(i, j int) bool {
		a, b := &os[i], &os[j]
		if !a.Time.Equal(b.Time) {
			return a.Time.Before(b.Time)
		}
		if a.Transcript != b.Transcript {
			return a.Transcript < b.Transcript
		}
		return a.Line < b.Line
	})
	seen := make(map[string]int, len(os))
	out := make([]model.MemObservation, 0, len(os))
	for _, o := range os {
		k := o.ID + "\x00" + string(o.Kind) + "\x00" + o.Path
		if i, ok := seen[k]; ok {
			if kept := &out[i]; !kept.SessionIs(o.Session) {
				kept.AlsoIn = append(kept.AlsoIn, o.Session)
			}
			continue
		}
		seen[k] = len(out)
		out = append(out, o)
	}
	return out
}

// buildSessions makes one Session per main transcript, then adds sessions
// known only from subagent files (their main transcript was swept). A
// session from another folder is kept only when the log's events name it:
// it is there for its title, not as one of the project's sessions.
func buildSessions(log *model.TranscriptLog, files []transcriptFile, states []*fileState) {
	for i, tf := range files {
		st := states[i]
		if st == nil || !tf.main {
			continue
		}
		if prev := log.Sessions[tf.session]; prev != nil && tf.other && !prev.OtherFolder {
			continue // the project's own transcript of it comes first
		}
		m := &st.Meta
		s := &model.Session{ID: tf.session, Transcript: tf.path, ModTime: tf.mod, OtherFolder: tf.other,
			Cwd: m.Cwd, Branch: m.Branch, Version: m.Version, Start: m.Start, End: m.Last,
			Title: firstNonEmpty(m.CustomTitle, m.AITitle, m.Summary)}
		if s.Start.IsZero() {
			s.Start = m.First
		}
		log.Sessions[s.ID] = s
	}
	for i, tf := range files {
		st := states[i]
		if st == nil || tf.main {
			continue
		}
		m := &st.Meta
		id := firstNonEmpty(m.SessionID, tf.session)
		if id == "" {
			continue
		}
		s := log.Sessions[id]
		if s == nil {
			s = &model.Session{ID: id}
			log.Sessions[id] = s
		}
		if s.Transcript == "" && m.HasFirst && (s.Start.IsZero() || m.Start.Before(s.Start)) {
			s.Start, s.Cwd, s.Branch, s.Version = m.Start, m.Cwd, m.Branch, m.Version
		}
		if m.Last.After(s.End) {
			s.End = m.Last
		}
		if tf.other && s.Transcript == "" {
			s.OtherFolder = true
		}
	}
	dropIdleOthers(log)
}

// dropIdleOthers removes the other folders' sessions that no event of the
// log names: a subdirectory's sessions mostly never touch this project's
// memories, and listing them would pass them off as its sessions.
func dropIdleOthers(log *model.TranscriptLog) {
	var used map[string]bool
	for id, s := range log.Sessions {
		if !s.OtherFolder {
			continue
		}
		if used == nil {
			used = make(map[string]bool)
			for i := range log.Writes {
				w := &log.Writes[i]
				used[w.Session] = true
				for _, a := range w.AlsoIn {
					used[a] = true
				}
			}
			for i := range log.Observations {
				o := &log.Observations[i]
				used[o.Session] = true
				for _, a := range o.AlsoIn {
					used[a] = true
				}
			}
		}
		if !used[id] {
			delete(log.Sessions, id)
		}
	}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

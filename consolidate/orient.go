// Package consolidate is memtui's checks as pure functions over model
// values: the "orient" phase of Dream, every lint rule run over a memory
// directory, producing findings. This file is the driver (OrientDir,
// ForScan, DirJobs, MergeFindings); rules.go lists the rules, and each
// check lives in the file named after what it checks (files.go, index.go,
// nudges.go, scan.go, duplicates.go, lost_report.go, strands.go). Dream's proposers
// (consolidate/dream) start from what the checks find and use the helpers
// exported for them (OrientDirAll, CheckIndex, IndexView); the transcript
// analysis the lost-update check reports (consolidate/forensics) and the
// diffs (consolidate/diff) are packages of their own. It may import model
// and its sub-packages and the consolidate/ leaves (forensics, diff,
// secrets, similar), never consolidate/dream. No disk, no terminal, no
// goroutines: a run over a whole scan, on the one pool, is app's
// (app.Workspace.Check). Whatever a check needs to know about the world
// (does a source path still exist?) comes in through Options.
package consolidate

import (
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"
	"unsafe"

	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// PathProbe answers whether a source path a memory names still exists in the
// project. memfs implements it; tests use a map.
type PathProbe interface {
	// Exists reports whether the project at root has a file whose path ends
	// with the slash-separated path p (matched at a path-element boundary).
	// known is false when the project's files cannot be examined (root
	// unknown or gone); the check then stays silent rather than guess.
	Exists(root, p string) (exists, known bool)
}

// IgnoreRule silences rules for the projects whose slug or real path
// contains Project ("" matches every project).
type IgnoreRule struct {
	Project string   `yaml:"project"`
	Rules   []string `yaml:"rules"`
}

// Options tune the checks.
type Options struct {
	// Now is "today": relative ages and stale checks count from it.
	Now time.Time
	// Paths answers dangling-path questions; nil disables that check.
	Paths PathProbe
	// Secrets scans for credentials; nil means the default scanner.
	Secrets *secrets.Scanner
	// Ignore silences rules per project (from the config file).
	Ignore []IgnoreRule
	// StaleAfter is the age after which a memory is reported stale.
	StaleAfter time.Duration
	// Workers bounds parallelism; 0 means GOMAXPROCS.
	Workers int
	// DropContent says each directory's file contents are handed over:
	// the caller frees them once the directory is checked (app's lint run
	// does, so it holds one directory per worker in memory, not the tree).
	// The checks then read them in place, without a string copy, so
	// nothing may write to them during or after the run.
	DropContent bool

	// sessions knows which transcripts exist, across the whole scan.
	sessions sessionSet
	// strands are the scan's stranded stores, by memory dir (strands.go).
	strands strandIndex
}

// DefaultStaleAfter is the default age for stale-memory: a quarter of a year
// without an update.
const DefaultStaleAfter = 90 * 24 * time.Hour

// ForScan is opts ready for a run over the whole scan: defaults filled in,
// and what the checks know across projects (which session transcripts
// exist) gathered once. OrientDir and ProposeDir calls of one run share it.
func (o Options) ForScan(scan *model.Scan) Options {
	o = o.WithDefaults()
	o.sessions = newSessionSet(scan.Projects)
	o.strands = newStrandIndex(scan.Strands)
	return o
}

// MergeFindings is the scan's configuration findings and every
// directory's (OrientDir's, one slice per DirJobs job), sorted by project,
// directory, file, line and rule, so output is stable run to run. The run
// over a scan itself is app's (app.Workspace.Check): it loads each
// directory just before checking it, on the one pool.
func MergeFindings(scan *model.Scan, perDir [][]model.Finding) []model.Finding {
	n := len(scan.Config)
	for _, r := range perDir {
		n += len(r)
	}
	out := append(make([]model.Finding, 0, n), configFindings(scan.Config)...)
	for _, r := range perDir {
		out = append(out, r...)
	}
	SortFindings(out)
	return out
}

// UnreadableDir is the finding for a memory directory that could not be
// read at all.
func UnreadableDir(p *model.Project, d *model.MemoryDir, err error) model.Finding {
	return model.Finding{
		Rule:       RuleFileUnreadable,
		Severity:   rulesByID[RuleFileUnreadable].Severity,
		Project:    p.Name(),
		MemoryDir:  d.Path,
		Message:    "the memory directory could not be read: " + err.Error(),
		Suggestion: "Check the directory's permissions.",
	}
}

// DirJob is one memory directory with its project, for a worker pool.
type DirJob struct {
	P *model.Project
	D *model.MemoryDir
}

// DirJobs lists the scan's directories keep accepts, in scan order (nil
// keep: every one).
func DirJobs(scan *model.Scan, keep func(*model.MemoryDir) bool) []DirJob {
	var jobs []DirJob
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			if keep == nil || keep(d) {
				jobs = append(jobs, DirJob{p, d})
			}
		}
	}
	return jobs
}

// OrientDir runs every check over one memory directory.
func OrientDir(p *model.Project, d *model.MemoryDir, opts Options) []model.Finding {
	return orientDir(p, d, opts).findings
}

// OrientDirDocs is OrientDir that also returns each topic file's parsed
// frontmatter by path, for a caller that needs both (the TUI): the checks
// have parsed every file already.
func OrientDirDocs(p *model.Project, d *model.MemoryDir, opts Options) ([]model.Finding, map[string]model.Doc) {
	s := orientDir(p, d, opts)
	return s.findings, s.docs()
}

// Oriented is one directory after every check: its findings, each topic
// file's parsed frontmatter by path, and the lost-update analysis the
// check ran (forensics.LostUpdates), which Dream's proposers start from
// rather than work out again.
type Oriented struct {
	Findings []model.Finding
	Docs     map[string]model.Doc
	Lost     []forensics.Lost
	// Deleted is what the memory-deleted check found (the restore's text).
	Deleted []forensics.Deleted
}

// OrientDirAll is OrientDir with everything the checks worked out on the
// way that Dream's proposers need.
func OrientDirAll(p *model.Project, d *model.MemoryDir, opts Options) Oriented {
	s := orientDir(p, d, opts)
	return Oriented{Findings: s.findings, Docs: s.docs(), Lost: s.lost, Deleted: s.deleted}
}

// docs is each topic file's parsed frontmatter by path.
func (s *dirState) docs() map[string]model.Doc {
	out := make(map[string]model.Doc, len(s.files))
	for _, fs := range s.files {
		out[fs.f.Path] = fs.doc
	}
	return out
}

// orientDir is OrientDir, returning the whole state.
func orientDir(p *model.Project, d *model.MemoryDir, opts Options) *dirState {
	opts = opts.WithDefaults()
	if opts.sessions == nil && p != nil {
		opts.sessions = newSessionSet([]*model.Project{p})
	}
	s := newDirState(p, d, opts)
	for _, check := range checks {
		check(s)
	}
	return s
}

// checks run in order over each directory. Each appends findings through
// dirState.report.
var checks = []func(*dirState){
	checkProblems,
	checkDir,
	checkFiles,
	checkChains,
	checkIndex,
	checkNames,
	checkDuplicates,
	checkScan,
	checkLostUpdates,
	checkDeleted,
	checkStrands,
}

// SortFindings orders findings for stable output.
func SortFindings(fs []model.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.Project != b.Project:
			return a.Project < b.Project
		case a.MemoryDir != b.MemoryDir:
			return a.MemoryDir < b.MemoryDir
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Rule != b.Rule:
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}

// WithDefaults is o with every unset option given its default: now, the
// stale age, GOMAXPROCS workers and the default secret scanner. Orient,
// OrientDir and ForScan apply it; Dream's ProposeDir does too.
func (o Options) WithDefaults() Options {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.StaleAfter == 0 {
		o.StaleAfter = DefaultStaleAfter
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Secrets == nil {
		o.Secrets = secrets.Default()
	}
	return o
}

// CheckedFile is a topic file (or the index) with what the checks derive from
// it, computed once.
type CheckedFile struct {
	f   *model.File
	doc model.Doc
	// text is the content as a string. It shares f.Content's memory only
	// when Options.DropContent hands the contents over (see init).
	text string
	// ignored holds rules silenced by <!-- memtui-ignore RULE --> comments.
	ignored map[string]bool
	// lineOf's memory: the last offset asked and its line (0 before the
	// first question), how often a question went back before it, and
	// past lineOfBacksteps of those every line start.
	lineOff, lineNo int
	lineBack        int
	lines           []int
	// items are the byte ranges of its claudeCodeItem blocks (see
	// itemSpans), found on first use.
	items     [][2]int
	itemsRead bool
}

// File is the file as read.
func (fs *CheckedFile) File() *model.File { return fs.f }

// Doc is the file's parsed frontmatter and body.
func (fs *CheckedFile) Doc() model.Doc { return fs.doc }

// itemSpans returns the byte ranges of the file's claudeCodeItem blocks
// (claude.ItemSpans): text there is Claude Code's bookkeeping, stripped
// before recall and never rewritten by memtui.
func (fs *CheckedFile) itemSpans() [][2]int {
	if !fs.itemsRead {
		fs.items, fs.itemsRead = claude.ItemSpans(fs.f.Content), true
	}
	return fs.items
}

// lineOfBacksteps is how many questions lineOf answers by counting from the
// start again before it builds the table of line starts instead.
const lineOfBacksteps = 8

// lineOf returns the 1-based line of byte offset off. Checks mostly ask in
// increasing order within a file, so it counts newlines from the last
// offset asked (vectorised, no table); a check that jumps back often gets
// the table and a binary search.
func (fs *CheckedFile) lineOf(off int) int {
	if off < 0 {
		return 0
	}
	off = min(off, len(fs.text))
	if fs.lines != nil {
		return sort.Search(len(fs.lines), func(i int) bool { return fs.lines[i] > off })
	}
	if fs.lineNo == 0 || off < fs.lineOff {
		if fs.lineNo != 0 {
			if fs.lineBack++; fs.lineBack > lineOfBacksteps {
				fs.lines = lineStarts(fs.text)
				return fs.lineOf(off)
			}
		}
		fs.lineOff, fs.lineNo = 0, 1
	}
	fs.lineNo += strings.Count(fs.text[fs.lineOff:off], "\n")
	fs.lineOff = off
	return fs.lineNo
}

func lineStarts(s string) []int {
	starts := make([]int, 1, 1+strings.Count(s, "\n"))
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
}

// dirState carries one directory through the checks.
type dirState struct {
	opts    Options
	project *model.Project
	dir     *model.MemoryDir
	files   []*CheckedFile // topic files, sorted by path
	byPath  map[string]*CheckedFile
	index   *CheckedFile // MEMORY.md, nil when absent
	ignored map[string]bool
	// memMode is ModeOf(project, dir), worked out on first use (memMode()):
	// it walks every observation of the project's log.
	memMode    MemoryMode
	memModeSet bool
	findings   []model.Finding
	// lost is what the lost-update check found, kept for the restore-lost
	// proposer (the analysis is the costly part of both); deleted the
	// memory-deleted check's, for restore-deleted.
	lost    []forensics.Lost
	deleted []forensics.Deleted
}

func newDirState(p *model.Project, d *model.MemoryDir, opts Options) *dirState {
	s := &dirState{
		opts:    opts,
		project: p,
		dir:     d,
		byPath:  make(map[string]*CheckedFile, len(d.Files)),
		ignored: projectIgnores(p, opts.Ignore),
	}
	// One allocation for every file's state, the index's included.
	n := len(d.Files)
	if d.Index != nil {
		n++
	}
	states := make([]CheckedFile, n)
	s.files = make([]*CheckedFile, len(d.Files))
	for i, f := range d.Files {
		fs := &states[i]
		fs.init(f, opts.DropContent)
		s.files[i] = fs
		s.byPath[f.Path] = fs
	}
	if d.Index != nil {
		s.index = &states[n-1]
		s.index.init(d.Index, opts.DropContent)
	}
	return s
}

func newFileState(f *model.File) *CheckedFile {
	fs := &CheckedFile{}
	fs.init(f, false)
	return fs
}

// init fills fs from f. With owned set the caller hands f.Content over (it
// is dropped after the checks and never written again), so the text shares
// its memory instead of copying every file once more.
func (fs *CheckedFile) init(f *model.File, owned bool) {
	var text string
	if owned {
		text = unsafe.String(unsafe.SliceData(f.Content), len(f.Content))
	} else {
		text = string(f.Content)
	}
	*fs = CheckedFile{
		f:       f,
		doc:     claude.ParseDoc(f.Content),
		text:    text,
		ignored: inlineIgnores(text),
	}
}

// report records a finding unless the rule is silenced for the file or the
// project. file is relative to the memory dir ("" for the dir itself).
func (s *dirState) report(rule, file string, line int, message, suggestion string) {
	if s.ignored[rule] {
		return
	}
	if fs := s.fileByPath(file); fs != nil && fs.ignored[rule] {
		return
	}
	r, ok := rulesByID[rule]
	if !ok {
		panic("consolidate: unknown rule " + rule) // a programming error, caught by tests
	}
	s.findings = append(s.findings, model.Finding{
		Rule:       rule,
		Severity:   r.Severity,
		Project:    s.project.Name(),
		MemoryDir:  s.dir.Path,
		File:       file,
		Line:       line,
		Message:    message,
		Suggestion: sentence(suggestion),
	})
}

// sentence makes a suggestion read as one: a capital first letter and a
// closing full stop, whichever check or reader wrote it.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if c := s[0]; c >= 'a' && c <= 'z' {
		s = string(c-'a'+'A') + s[1:]
	}
	switch s[len(s)-1] {
	case '.', '!', '?':
		return s
	}
	return s + "."
}

func (s *dirState) fileByPath(p string) *CheckedFile {
	if p == "" {
		return nil
	}
	if s.index != nil && p == s.index.f.Path {
		return s.index
	}
	return s.byPath[p]
}

var ignoreComment = regexp.MustCompile(`<!--\s*memtui-ignore\s+([^>]*?)\s*-->`)

// inlineIgnores collects the rules named by memtui-ignore comments in text.
// Cheap when there are none: it looks for "<!--" first, because '<' is rare
// in memory text while the 'm' of "memtui" is everywhere.
func inlineIgnores(text string) map[string]bool {
	if !hasIgnoreComment(text) {
		return nil
	}
	m := map[string]bool{}
	for _, sub := range ignoreComment.FindAllStringSubmatch(text, -1) {
		for _, r := range strings.FieldsFunc(sub[1], func(c rune) bool { return c == ' ' || c == ',' || c == '\t' }) {
			m[r] = true
		}
	}
	return m
}

func hasIgnoreComment(text string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "<!--")
		if j < 0 {
			return false
		}
		i += j + 4
		rest := strings.TrimLeft(text[i:min(len(text), i+16)], " \t")
		if strings.HasPrefix(rest, "memtui-ignore") {
			return true
		}
	}
}

func projectIgnores(p *model.Project, rules []IgnoreRule) map[string]bool {
	var m map[string]bool
	for _, ir := range rules {
		if ir.Project != "" && (p == nil || (!strings.Contains(p.Slug, ir.Project) && !strings.Contains(p.Root, ir.Project))) {
			continue
		}
		if m == nil {
			m = map[string]bool{}
		}
		for _, r := range ir.Rules {
			m[r] = true
		}
	}
	return m
}

// configFindings turns the scan's configuration problems into findings.
// ConfigFindings reports the scan's configuration problems (invalid
// settings, rejected overrides) as findings, as Orient includes them.
func ConfigFindings(ps []model.ConfigProblem) []model.Finding { return configFindings(ps) }

func configFindings(ps []model.ConfigProblem) []model.Finding {
	var out []model.Finding
	for _, p := range ps {
		rule := RuleSettingsInvalid
		if p.Kind == model.OverrideInvalid {
			rule = RuleOverrideInvalid
		}
		out = append(out, model.Finding{
			Rule:       rule,
			Severity:   rulesByID[rule].Severity,
			Project:    p.Project,
			File:       p.Source,
			Line:       p.Line,
			Message:    p.Detail,
			Suggestion: sentence(p.Suggestion),
		})
	}
	return out
}

// mode is which mode the project's transcripts show for the directory
// (ModeOf), worked out once for all the checks that ask.
func (s *dirState) mode() MemoryMode {
	if !s.memModeSet {
		s.memMode, s.memModeSet = ModeOf(s.project, s.dir), true
	}
	return s.memMode
}

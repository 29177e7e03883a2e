package memindex

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// Editor edits MEMORY.md as a list of rows: one row per entry (the
// entry line and the indented continuation lines hanging under it, which
// move together) and one per other line. A fenced code block, a run of HTML
// comment lines, a table's header with its |---| row and a frontmatter block
// are one row each, so no move can split them. Every line keeps its text and
// its line ending, so Bytes returns the file byte for byte until something
// is edited, and the lines an edit does not touch stay as they were. All
// operations are pure; each one that changes the index is a step of the
// undo history. It is memtui's one writer of index text: the TUI's index
// editor, memtui index --move-above-cut and the reindex proposal all edit
// MEMORY.md through it, so they write entries alike.
type Editor struct {
	hist   []*ixeState
	cur    int
	eol    string // the ending new lines get: the file's first one
	noEOL  bool   // the file's last line has no "\n": keep it that way
	nextID int
	mode   model.LoadMode // the pipeline Claude Code loads this index with
	redact func(string) string
}

// Row describes one row of the editor's current state, from a parse
// of the current bytes.
type Row struct {
	// ID is stable across edits: the same row keeps it wherever it moves.
	ID int
	// Line is the 1-based line of the row's first line in Bytes; Lines is
	// how many lines the row has.
	Line  int
	Lines int
	// Kind is the kind of the row's first line.
	Kind LineKind
	// Text is the first line without its line ending.
	Text string
	// Entry is the entry on the row's first line, nil when it is not one.
	Entry *Entry
	// Target is the entry's primary target ("" when not an entry).
	Target string
}

// DeletedRow is a row DeleteRow took out, which RestoreRow can put back.
type DeletedRow struct {
	ID     int
	At     int // the row index it had when deleted
	Text   string
	Target string // the entry's primary target, "" when it was not an entry
}

// CutMove reports a MoveAboveCut.
type CutMove struct {
	// Row is the moved entry's new row index.
	Row int
	// Pushed are the rows (indexes in the new state) that loaded before the
	// move and are now cut, wholly or in part.
	Pushed []int
	// Load is the simulated load after the move.
	Load claude.Load
}

// Budget is the load of the current bytes, for a live meter.
type Budget struct {
	Load      claude.Load
	Lines     int  // Load.LineCount
	Units     int  // Load.Units
	Truncated bool // Load.Truncated()
	// CutRow is the first row Claude Code does not load whole, -1 when
	// everything loads.
	CutRow int
	// NearRow is the first row that takes the index to 80% of either cap
	// (160 lines or 20,000 units: Claude Code's nudge fires), TargetRow the
	// first that takes it past the 70% it asks for (140 lines or 17,500
	// units), both counted from the first non-blank line after any
	// frontmatter; -1 when the index stays under the mark.
	NearRow   int
	TargetRow int
}

// DefaultHookMax is the hook length the index editor's ShortenHooks cuts
// to by default.
const DefaultHookMax = 150

// EntryMaxChars is the length of an index entry's line the format asks for
// ("one line per entry, under ~150 characters"): new entries are written
// within it, and FitHooks brings long ones back under it.
const EntryMaxChars = 150

// ixeMinHook is the shortest hook worth writing: with less room than this,
// a new or fitted entry goes without one rather than with a stub.
const ixeMinHook = 12

// Errors of the index editor.
var (
	ErrNoRow     = errors.New("no such row")
	ErrNotEntry  = errors.New("row is not an index entry")
	ErrPinned    = errors.New("the frontmatter block stays at the top")
	ErrNoChange  = errors.New("nothing to change")
	ErrNoHistory = errors.New("nothing to undo or redo")
	ErrHides     = errors.New("the edit would hide a reference inside code, a comment or frontmatter")
)

// ixeLine is one line: its text without ending, and its ending as written
// ("\n", "\r\n", or "" / "\r" for a last line without "\n").
type ixeLine struct{ text, eol string }

type ixeRow struct {
	id    int
	lines []ixeLine // never modified in place: an edit makes a new slice
	fm    bool      // the frontmatter block: pinned at the top
}

type ixeDel struct {
	row  ixeRow
	at   int
	prev int // id of the row before it when deleted, -1 at the top
}

// ixeState is one state of the history. Its slices are never modified
// after the state is pushed.
type ixeState struct {
	rows    []ixeRow
	deleted []ixeDel
	view    *ixeView // lazily computed
}

// ixeView is the current bytes parsed and loaded, with rows mapped to lines.
type ixeView struct {
	bytes  []byte
	ix     Index
	first  []int // first[r] is row r's first line (1-based)
	row    []int // row[l-1] is the row holding line l
	ld     *claude.Load
	mode   model.LoadMode
	styles *ixeStyles // lazily computed
}

// NewEditor makes an editor over the bytes of an auto-memory
// MEMORY.md.
func NewEditor(content []byte) *Editor { return NewEditorMode(content, model.LoadAuto) }

// NewEditorMode makes an editor over the bytes of a MEMORY.md that
// Claude Code loads with the given pipeline (a subagent's is loaded raw):
// the cut, the meters and the marks follow it.
func NewEditorMode(content []byte, mode model.LoadMode) *Editor {
	ix := Parse(content)
	e := &Editor{eol: "\n", noEOL: len(content) > 0 && content[len(content)-1] != '\n', mode: mode}
	if ix.CRLF {
		e.eol = "\r\n"
	}
	e.hist = []*ixeState{{rows: e.rowsOf(&ix)}}
	return e
}

// rowsOf cuts a parsed index into rows with fresh IDs: an entry with its
// hanging lines, a code block, a comment, a table's header with its
// delimiter row and the frontmatter block are one row each.
func (e *Editor) rowsOf(ix *Index) []ixeRow {
	var rows []ixeRow
	ls := ix.Lines
	for i := 0; i < len(ls); {
		j := i + 1
		switch k := ls[i].Kind; k {
		case LineFrontmatter, LineCode, LineComment:
			for j < len(ls) && ls[j].Kind == k && !(k == LineCode && ixeFenceOpens(ls, j)) {
				j++
			}
		case LineEntry:
			for j < len(ls) && ls[j].Kind == LineContinuation && ls[j].Entry == ls[i].Entry {
				j++
			}
		case LineTableHeader:
			if j < len(ls) && ls[j].Kind == LineTableSeparator {
				j++
			}
		}
		r := ixeRow{id: e.nextID, fm: ls[i].Kind == LineFrontmatter}
		e.nextID++
		for _, l := range ls[i:j] {
			r.lines = append(r.lines, ixeLineOf(l))
		}
		rows = append(rows, r)
		i = j
	}
	return rows
}

// ixeFenceOpens reports whether code line j opens a new block right after
// the previous one closed.
func ixeFenceOpens(ls []Line, j int) bool {
	if j == 0 || ls[j-1].Kind != LineCode {
		return false
	}
	// Re-run the fence logic over the block so far: cheap, as blocks are short.
	start := j - 1
	for start > 0 && ls[start-1].Kind == LineCode {
		start--
	}
	p := ixParser{}
	open := false
	for k := start; k < j; k++ {
		t := ls[k].Text
		if !open {
			open = p.openFence(t)
			continue
		}
		if ixFenceClose(t, p.fence, p.fenceLen) {
			open = false
		}
	}
	return !open
}

func ixeLineOf(l Line) ixeLine {
	eol := l.Raw[len(l.Text):]
	if l.Newline {
		eol += "\n"
	}
	return ixeLine{text: l.Text, eol: eol}
}

func (e *Editor) state() *ixeState { return e.hist[e.cur] }

// push makes st the current state, dropping any redo steps.
func (e *Editor) push(st *ixeState) {
	st.view = nil
	e.hist = append(e.hist[:e.cur+1], st)
	e.cur++
}

// Bytes returns the current content of MEMORY.md.
func (e *Editor) Bytes() []byte { return e.render(e.state().rows) }

func (e *Editor) render(rows []ixeRow) []byte {
	n, last := 0, -1
	for i, r := range rows {
		for _, l := range r.lines {
			n += len(l.text) + 2
		}
		if len(r.lines) > 0 {
			last = i
		}
	}
	out := make([]byte, 0, n)
	for i, r := range rows {
		for k, l := range r.lines {
			out = append(out, l.text...)
			eol := l.eol
			isLast := i == last && k == len(r.lines)-1
			switch {
			case isLast && e.noEOL:
				if strings.HasSuffix(eol, "\n") {
					eol = ""
				}
			case !strings.HasSuffix(eol, "\n"):
				eol = e.eol
			}
			out = append(out, eol...)
		}
	}
	return out
}

// view parses the current state (cached per state).
func (e *Editor) view() *ixeView {
	st := e.state()
	if st.view == nil {
		st.view = e.viewOf(st.rows)
	}
	return st.view
}

func (e *Editor) viewOf(rows []ixeRow) *ixeView {
	v := &ixeView{bytes: e.render(rows), mode: e.mode}
	v.ix = Parse(v.bytes)
	v.first = make([]int, len(rows))
	v.row = make([]int, 0, len(v.ix.Lines))
	n := 1
	for i, r := range rows {
		v.first[i] = n
		for range r.lines {
			v.row = append(v.row, i)
		}
		n += len(r.lines)
	}
	return v
}

func (v *ixeView) load() *claude.Load {
	if v.ld == nil {
		ld := claude.SimulateLoadMode(v.bytes, v.mode)
		v.ld = &ld
	}
	return v.ld
}

// entry returns the entry on row r's first line, or nil.
func (v *ixeView) entry(r int) *Entry {
	l := v.ix.Line(v.first[r])
	if l == nil || l.Kind != LineEntry {
		return nil
	}
	return &v.ix.Entries[l.Entry]
}

// cutRows marks the rows Claude Code does not load whole.
func (v *ixeView) cutRows(nrows int) []bool {
	cut := make([]bool, nrows)
	ld := v.load()
	if !ld.Truncated() {
		return cut
	}
	for _, ln := range ld.Dropped {
		cut[v.row[ln-1]] = true
	}
	if ld.LastLineCut && ld.LastLine > 0 {
		cut[v.row[ld.LastLine-1]] = true
	}
	return cut
}

// refTargets counts the targets of every reference the parser sees.
func (v *ixeView) refTargets() map[string]int { return v.ix.refTargetsAll() }

// Len is the number of rows.
func (e *Editor) Len() int { return len(e.state().rows) }

// Index returns the parse of the current bytes.
func (e *Editor) Index() Index { return e.view().ix }

// Modified reports whether the current bytes differ from the original.
func (e *Editor) Modified() bool {
	return string(e.Bytes()) != string(e.render(e.hist[0].rows))
}

// Rows describes the current rows.
func (e *Editor) Rows() []Row {
	st, v := e.state(), e.view()
	out := make([]Row, len(st.rows))
	for i, r := range st.rows {
		row := Row{ID: r.id, Line: v.first[i], Lines: len(r.lines)}
		if l := v.ix.Line(v.first[i]); l != nil {
			row.Kind, row.Text = l.Kind, l.Text
		}
		if en := v.entry(i); en != nil {
			c := *en
			row.Entry = &c
			row.Target = ixeTarget(en)
		}
		out[i] = row
	}
	return out
}

func ixeTarget(en *Entry) string {
	if r, ok := en.Primary(); ok {
		return r.Target
	}
	return ""
}

// ixeMatches reports whether an entry's primary target names the memory at
// slash path p (a wikilink names it by its file name without ".md").
func ixeMatches(en *Entry, p string) bool {
	r, ok := en.Primary()
	if !ok {
		return false
	}
	if r.Target == p {
		return true
	}
	return r.Kind == RefWiki && (r.Target == strings.TrimSuffix(p, ".md") || r.Target == strings.TrimSuffix(path.Base(p), ".md"))
}

// FindRow returns the row of the first entry pointing at target (a slash
// path relative to the memory dir), or -1.
func (e *Editor) FindRow(target string) int {
	target = path.Clean(target)
	v := e.view()
	for i := range e.state().rows {
		if en := v.entry(i); en != nil && ixeMatches(en, target) {
			return i
		}
	}
	return -1
}

func (e *Editor) pinned() int {
	if rows := e.state().rows; len(rows) > 0 && rows[0].fm {
		return 1
	}
	return 0
}

func (e *Editor) checkRow(i int) error {
	if i < 0 || i >= e.Len() {
		return fmt.Errorf("row %d: %w", i, ErrNoRow)
	}
	if i < e.pinned() {
		return ErrPinned
	}
	return nil
}

func (e *Editor) checkEntry(i int) (*Entry, error) {
	if err := e.checkRow(i); err != nil {
		return nil, err
	}
	en := e.view().entry(i)
	if en == nil {
		return nil, fmt.Errorf("row %d: %w", i, ErrNotEntry)
	}
	return en, nil
}

// ---- moves ----

// MoveRow moves row i by delta rows (negative is up), across headings.
func (e *Editor) MoveRow(i, delta int) error { return e.MoveRange(i, i+1, delta) }

// MoveRange moves rows [from, to) by delta rows (negative is up). A move
// that would put a reference inside a code block, a comment or frontmatter
// is refused.
func (e *Editor) MoveRange(from, to, delta int) error {
	n, p := e.Len(), e.pinned()
	switch {
	case from < 0 || to > n || from >= to:
		return fmt.Errorf("rows [%d,%d) of %d: %w", from, to, n, ErrNoRow)
	case from < p || from+delta < p:
		return ErrPinned
	case delta == 0:
		return ErrNoChange
	case to+delta > n:
		return fmt.Errorf("rows [%d,%d) cannot move %+d: %w", from, to, delta, ErrNoRow)
	}
	rows := ixeMove(e.state().rows, from, to, from+delta)
	if !e.keepsRefs(rows) {
		return ErrHides
	}
	e.push(&ixeState{rows: rows, deleted: e.state().deleted})
	return nil
}

// ixeMove returns rows with [from, to) moved so that it starts at index at
// of the result.
func ixeMove(rows []ixeRow, from, to, at int) []ixeRow {
	block := slices.Clone(rows[from:to])
	rest := slices.Concat(rows[:from], rows[to:])
	return slices.Concat(rest[:at], block, rest[at:])
}

// keepsRefs reports whether rows show the parser every reference the
// current state shows it.
func (e *Editor) keepsRefs(rows []ixeRow) bool { return e.keeps(e.viewOf(rows)) }

// keeps reports whether view w shows the parser every reference the
// current state shows it.
func (e *Editor) keeps(w *ixeView) bool {
	before := e.view().refTargets()
	after := w.refTargets()
	for t, k := range before {
		if after[t] < k {
			return false
		}
	}
	return true
}

// MoveAboveCut moves the entry pointing at target (a slash path relative to
// the memory dir) up to the end of the part of MEMORY.md that Claude Code
// loads; see MoveRowAboveCut.
func (e *Editor) MoveAboveCut(target string) (CutMove, error) {
	i := e.FindRow(target)
	if i < 0 {
		return CutMove{}, fmt.Errorf("no entry points at %s: %w", target, ErrNotEntry)
	}
	return e.MoveRowAboveCut(i)
}

// MoveRowAboveCut moves entry row i, which the load cuts, to the end of the
// loaded part: just above the cut, under its own heading when that heading
// loads (at the end of the heading's section when the section ends above
// the cut). The move pushes other rows below the cut: the report lists
// them.
func (e *Editor) MoveRowAboveCut(i int) (CutMove, error) {
	en, err := e.checkEntry(i)
	if err != nil {
		return CutMove{}, err
	}
	st, v := e.state(), e.view()
	if !v.load().Truncated() {
		return CutMove{}, fmt.Errorf("the index loads whole: %w", ErrNoChange)
	}
	cutBefore := v.cutRows(len(st.rows))
	if !cutBefore[i] {
		return CutMove{}, fmt.Errorf("row %d already loads: %w", i, ErrNoChange)
	}
	firstCut := slices.Index(cutBefore, true) // ≤ i
	head := -1
	if en.Section >= 0 {
		if h := v.row[v.ix.Headings[en.Section].Line-1]; h < i && !cutBefore[h] {
			head = h
		}
	}
	hi := firstCut // insertion index in the rows without i (all before i)
	if head >= 0 {
		for k := head + 1; k < firstCut; k++ {
			if l := v.ix.Line(v.first[k]); l != nil && l.Kind == LineHeading {
				hi = k
				break
			}
		}
	}
	rest := slices.Concat(st.rows[:i], st.rows[i+1:])
	shape := ixeShape(&v.ix)
	var fallback []ixeRow
	fallbackAt := -1
	try := func(at int, strict bool) ([]ixeRow, *ixeView, bool) {
		rows := slices.Concat(rest[:at], []ixeRow{st.rows[i]}, rest[at:])
		w := e.viewOf(rows)
		if w.cutRows(len(rows))[at] || !e.keepsRefs(rows) {
			return nil, nil, false
		}
		if strict && ixeShape(&w.ix) != shape {
			if fallback == nil {
				fallback, fallbackAt = rows, at
			}
			return nil, nil, false
		}
		return rows, w, true
	}
	// Start where the row's last line would be the last loaded line: rows
	// before i keep their lines once i is out.
	ll := len(st.rows[i].lines)
	for hi > e.pinned() && v.first[hi]+ll-1 > v.load().LastLine {
		hi--
	}
	var rows []ixeRow
	var w *ixeView
	at := -1
	const tries = 64 // a size cut may need a few steps up; more means no room
	for k := hi; k >= e.pinned() && k > hi-tries && (head < 0 || k > head) && rows == nil; k-- {
		if r, vw, ok := try(k, true); ok {
			rows, w, at = r, vw, k
		}
	}
	for k := min(hi, head); head >= 0 && k >= e.pinned() && k > min(hi, head)-tries && rows == nil; k-- {
		if r, vw, ok := try(k, true); ok {
			rows, w, at = r, vw, k
		}
	}
	if rows == nil && fallback != nil {
		rows, at = fallback, fallbackAt
		w = e.viewOf(rows)
	}
	if rows == nil {
		return CutMove{}, fmt.Errorf("no room above the cut for row %d: %w", i, ErrNoChange)
	}
	e.push(&ixeState{rows: rows, deleted: st.deleted})
	e.state().view = w
	cutAfter := w.cutRows(len(rows))
	wasCut := map[int]bool{}
	for k, r := range st.rows {
		wasCut[r.id] = cutBefore[k]
	}
	mv := CutMove{Row: at, Load: *w.load()}
	for k, r := range rows {
		if cutAfter[k] && !wasCut[r.id] {
			mv.Pushed = append(mv.Pushed, k)
		}
	}
	return mv, nil
}

// ixeShape summarises the structure a move must not change: how many
// entries of each form and how many continuation lines.
func ixeShape(ix *Index) [4]int {
	var s [4]int
	for _, en := range ix.Entries {
		s[en.Form]++
	}
	for _, l := range ix.Lines {
		if l.Kind == LineContinuation {
			s[3]++
		}
	}
	return s
}

// ---- delete and restore ----

// DeleteRow takes row i out of the index (the topic file stays). The row
// is kept in Deleted so RestoreRow can put it back.
func (e *Editor) DeleteRow(i int) error {
	if err := e.checkRow(i); err != nil {
		return err
	}
	st := e.state()
	prev := -1
	if i > 0 {
		prev = st.rows[i-1].id
	}
	rows := slices.Concat(st.rows[:i], st.rows[i+1:])
	del := slices.Concat(st.deleted, []ixeDel{{row: st.rows[i], at: i, prev: prev}})
	e.push(&ixeState{rows: rows, deleted: del})
	return nil
}

// Deleted lists the rows deleted so far, oldest first.
func (e *Editor) Deleted() []DeletedRow {
	st := e.state()
	out := make([]DeletedRow, len(st.deleted))
	for k, d := range st.deleted {
		out[k] = DeletedRow{ID: d.row.id, At: d.at}
		if len(d.row.lines) > 0 {
			out[k].Text = d.row.lines[0].text
			line := ParseText(d.row.lines[0].text)
			if len(line.Entries) > 0 {
				out[k].Target = ixeTarget(&line.Entries[0])
			}
		}
	}
	return out
}

// RestoreRow puts deleted row k (an index into Deleted) back where it was:
// after the row that preceded it, or at its old index when that row is gone.
func (e *Editor) RestoreRow(k int) error {
	st := e.state()
	if k < 0 || k >= len(st.deleted) {
		return fmt.Errorf("deleted row %d: %w", k, ErrNoRow)
	}
	d := st.deleted[k]
	at := min(max(d.at, e.pinned()), len(st.rows))
	if d.prev < 0 {
		at = e.pinned()
	} else if j := slices.IndexFunc(st.rows, func(r ixeRow) bool { return r.id == d.prev }); j >= 0 {
		at = j + 1
	}
	rows := slices.Concat(st.rows[:at], []ixeRow{d.row}, st.rows[at:])
	del := slices.Concat(st.deleted[:k], st.deleted[k+1:])
	e.push(&ixeState{rows: rows, deleted: del})
	return nil
}

// RemoveRows takes rows out of the index as one step and closes up the
// blank lines around them, the way a person tidies a list after crossing
// items out: a removal never leaves two blank lines in a row, nor blank
// lines at the start or the end of the file. Unlike DeleteRow it may take
// the frontmatter block (Claude Code strips it unread), and it keeps
// nothing for RestoreRow: Undo brings the rows back.
func (e *Editor) RemoveRows(rows []int) error {
	st := e.state()
	drop := make([]bool, len(st.rows))
	n := 0
	for _, i := range rows {
		if i < 0 || i >= len(st.rows) {
			return fmt.Errorf("row %d: %w", i, ErrNoRow)
		}
		if !drop[i] {
			drop[i] = true
			n++
		}
	}
	if n == 0 {
		return ErrNoChange
	}
	e.push(&ixeState{rows: ixeClose(st.rows, drop, nil), deleted: st.deleted})
	return nil
}

// RemoveEntries removes, as one step, every entry pointing at target (a
// slash path relative to the memory dir; a wikilink by its name), with
// its continuation lines, closing up the blank lines around them as
// RemoveRows does, and says how many went. A memory pruned takes its
// entries with it this way, so no link to it is left dangling.
func (e *Editor) RemoveEntries(target string) (int, error) {
	target = path.Clean(target)
	v := e.view()
	var rows []int
	for i := range e.state().rows {
		if en := v.entry(i); en != nil && ixeMatches(en, target) {
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		return 0, ErrNoChange
	}
	return len(rows), e.RemoveRows(rows)
}

// ixeClose returns rows without those marked in drop, closing up the blank
// rows around each removal; a row marked in cut lost lines at its end, which
// closes up the blank rows after it the same way.
func ixeClose(rows []ixeRow, drop, cut []bool) []ixeRow {
	out := make([]ixeRow, 0, len(rows))
	gap := false // lines were removed since the last kept non-blank row
	for k, r := range rows {
		if drop[k] {
			gap = true
			continue
		}
		blank := r.blank()
		if blank && gap && (len(out) == 0 || out[len(out)-1].blank()) {
			continue
		}
		if !blank {
			gap = cut != nil && cut[k]
		}
		out = append(out, r)
	}
	if gap {
		for len(out) > 0 && out[len(out)-1].blank() {
			out = out[:len(out)-1]
		}
	}
	return out
}

// blank reports a row that is one blank line.
func (r ixeRow) blank() bool {
	return len(r.lines) == 1 && strings.TrimSpace(r.lines[0].text) == ""
}

// ---- style ----

// ixeStyle is one way the index writes entries.
type ixeStyle struct {
	table  bool
	prefix string  // list: indent, marker and blank before the reference
	kind   RefKind // how the reference is written
	gap    string  // list: from the end of the reference to the hook
	// table: a template row's cells, which cell holds the reference, the
	// title and the hook (-1 when none), and whether the row has outer pipes.
	cells                   []ixCell
	refCell, titleCell, hkc int
	piped                   bool
}

// ixeStyles are the ways an index writes entries: its usual list item, and
// the row of its first table with a reference cell.
type ixeStyles struct {
	list   ixeStyle
	table  ixeStyle
	hasTbl bool // table is set
}

// ixeListDefault is the entry the format asks for: - [Title](file.md) — hook.
var ixeListDefault = ixeStyle{prefix: "- ", kind: RefLink, gap: " — "}

// styles finds the index's entry styles: the list marker, reference kind
// and separator its list entries use most, and its first table's row.
func (e *Editor) styles() ixeStyles {
	v := e.view()
	if v.styles != nil {
		return *v.styles
	}
	ix := &v.ix
	ss := ixeStyles{list: ixeListDefault}
	prefixes, kinds, gaps := map[string]int{}, map[RefKind]int{}, map[string]int{}
	for k := range ix.Entries {
		en := &ix.Entries[k]
		switch en.Form {
		case EntryTable:
			if !ss.hasTbl {
				ss.table, ss.hasTbl = ixeTableStyle(en)
			}
		case EntryList:
			body, _ := ixListBody(en.Raw)
			if ixIndent(en.Raw) == 0 {
				prefixes[en.Raw[:len(en.Raw)-len(body)]]++
			}
			kinds[en.Refs[0].Kind]++
			if h := ixeHookSpan(en); h.sep {
				gaps[en.Raw[h.base:h.start]]++
			}
		}
	}
	ss.list.prefix = ixeMost(prefixes, ss.list.prefix)
	ss.list.gap = ixeMost(gaps, ss.list.gap)
	if len(kinds) > 0 {
		best := -1
		for _, k := range []RefKind{RefLink, RefWiki, RefCode} {
			if kinds[k] > best {
				ss.list.kind, best = k, kinds[k]
			}
		}
	}
	v.styles = &ss
	return ss
}

// styleAfter is the style of an entry written right after row i of view v
// (-1: at the top), with a blank line before it when blank: a row of the
// table it continues when i is a table's header or row, else the index's
// list item, since a table row standing alone is not one.
func (e *Editor) styleAfter(v *ixeView, i int, blank bool) ixeStyle {
	ss := e.styles()
	if blank || i < 0 || i >= len(v.first) {
		return ss.list
	}
	if en := v.entry(i); en != nil {
		if en.Form == EntryTable {
			if s, ok := ixeTableStyle(en); ok {
				return s
			}
		}
		return ss.list
	}
	if l := v.ix.Line(v.first[i]); l != nil && l.Kind == LineTableHeader {
		if i+1 < len(v.first) {
			if en := v.entry(i + 1); en != nil && en.Form == EntryTable {
				if s, ok := ixeTableStyle(en); ok {
					return s
				}
			}
		}
		if ss.hasTbl {
			return ss.table
		}
	}
	return ss.list
}

// ixeTableStyle takes a table entry as the template of new rows.
func ixeTableStyle(en *Entry) (ixeStyle, bool) {
	cells, ri := ixeRefCell(en)
	if ri < 0 {
		return ixeStyle{}, false
	}
	return ixeStyle{table: true, cells: cells, refCell: ri, kind: en.Refs[0].Kind, titleCell: ri - 1, hkc: ixeHookCell(cells, ri),
		piped: strings.HasPrefix(strings.TrimSpace(en.Raw), "|")}, true
}

// ixeMost returns the key counted most (ties: the smallest), else def.
func ixeMost(m map[string]int, def string) string {
	best, n := def, 0
	for k, c := range m {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best
}

// ixeRefCell splits a table entry into cells and finds the one holding its
// first reference (-1 when none).
func ixeRefCell(en *Entry) ([]ixCell, int) {
	cells := ixCells(en.Raw)
	r := en.Refs[0]
	for i, c := range cells {
		if r.Col >= c.off && r.Col < c.off+len(c.text) {
			return cells, i
		}
	}
	return cells, -1
}

// ixeHookCell is the cell after ri that carries the hook: the longest.
func ixeHookCell(cells []ixCell, ri int) int {
	best := -1
	for i := ri + 1; i < len(cells); i++ {
		if best < 0 || len(strings.TrimSpace(cells[i].text)) > len(strings.TrimSpace(cells[best].text)) {
			best = i
		}
	}
	return best
}

// ixeSpan locates a list or prose entry's hook in its line: base is just
// after the reference (and any emphasis closing around it), start and end
// bound the hook, sep reports a separator between base and start.
type ixeSpan struct {
	base, start, end int
	sep              bool
}

func ixeHookSpan(en *Entry) ixeSpan {
	t := en.Raw
	r := en.Refs[0]
	base := r.Col + len(r.Raw)
	base += len(t[base:]) - len(strings.TrimLeft(t[base:], "*_~"))
	end := len(strings.TrimRightFunc(t, unicode.IsSpace))
	end = max(end, base)
	rs := base + len(t[base:]) - len(strings.TrimLeftFunc(t[base:], unicode.IsSpace))
	rs = min(rs, end)
	sep, _ := ixSplitSep(t[rs:end])
	if sep == "" {
		return ixeSpan{base: base, start: rs, end: end}
	}
	st := rs + len(sep)
	st += len(t[st:end]) - len(strings.TrimLeftFunc(t[st:end], unicode.IsSpace))
	return ixeSpan{base: base, start: st, end: end, sep: true}
}

// ixeOneLine folds s to one line of single blanks.
func ixeOneLine(s string) string {
	// A control character is never written into an index line: a title or
	// hook taken from a memory's frontmatter may hold one (an escape
	// sequence, a BEL), and the index is text Claude Code and people read.
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// ixeEscTitle escapes what would end a link's text early.
func ixeEscTitle(s string) string {
	return ixeTitleEsc.Replace(ixeOneLine(s))
}

// ixeTitleEsc and ixeAliasEsc are built once: the orphan check writes a
// link into every orphan's suggestion.
var (
	ixeTitleEsc = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`)
	ixeAliasEsc = strings.NewReplacer("]", "", "|", "/")
)

func ixeEscCell(s string) string { return strings.ReplaceAll(ixeOneLine(s), "|", `\|`) }

// ixeDest writes a link destination; one with blanks, parentheses or
// angle brackets goes in angle brackets, where CommonMark allows them.
func ixeDest(p string) string {
	if strings.ContainsAny(p, " \t()<>") {
		return "<" + p + ">"
	}
	return p
}

// Link writes a markdown link to the memory at slash path p as an
// index entry writes it: the title on one line with what would end the
// link's text early escaped, the destination in angle brackets when it
// holds blanks or parentheses.
func Link(title, p string) string {
	if title == "" {
		title = strings.TrimSuffix(path.Base(p), ".md")
	}
	return "[" + ixeEscTitle(title) + "](" + ixeDest(p) + ")"
}

// ref writes a reference to p in the style's kind.
func (s ixeStyle) ref(p, title string) string {
	switch s.kind {
	case RefCode:
		return "`" + p + "`"
	case RefWiki:
		name := strings.TrimSuffix(p, ".md")
		if t := ixeOneLine(title); t != "" && t != name {
			return "[[" + name + "|" + ixeAliasEsc.Replace(t) + "]]"
		}
		return "[[" + name + "]]"
	}
	return Link(title, p)
}

// line writes an entry for p in the style, its hook cut with cut so that
// the line stays within EntryMaxChars characters, or left out when fewer
// than ixeMinHook characters would be left for it.
func (s ixeStyle) line(p, title, hook string, cut func(string, int) string) string {
	hook = ixeOneLine(hook)
	if s.kind == RefCode && hook == "" && !s.table {
		hook = ixeOneLine(title) // a code span has no room for a title
	}
	bare := s.render(p, title, "")
	if hook == "" || s.table && s.hkc < 0 {
		return bare
	}
	room := EntryMaxChars - utf8.RuneCountInString(bare)
	if !s.table {
		room -= utf8.RuneCountInString(s.gap)
	}
	for room >= ixeMinHook {
		out := s.render(p, title, cut(hook, room))
		over := utf8.RuneCountInString(out) - EntryMaxChars
		if over <= 0 {
			return out
		}
		room -= over // a table cell's escaped pipes took the room
	}
	return bare
}

// render writes an entry for p in the style with the hook as given.
func (s ixeStyle) render(p, title, hook string) string {
	if !s.table {
		out := s.prefix + s.ref(p, title)
		if hook != "" {
			out += s.gap + hook
		}
		return out
	}
	var b strings.Builder
	for i := range s.cells {
		if i > 0 || s.piped {
			b.WriteString("|")
		}
		c := ""
		switch i {
		case s.refCell:
			c = s.ref(p, title)
		case s.titleCell:
			c = ixeEscCell(title)
		case s.hkc:
			c = ixeEscCell(hook)
		}
		b.WriteString(" " + c + " ")
	}
	if s.piped {
		b.WriteString("|")
	}
	if !s.piped {
		return strings.TrimSpace(b.String())
	}
	return b.String()
}

// ---- add ----

// NewEntry is an entry AddEntries writes.
type NewEntry struct {
	// Path is the memory's slash path relative to the memory dir; Title and
	// Hook are written in the index's style (the hook cut to keep the line
	// within EntryMaxChars characters).
	Path, Title, Hook string
	// After is the row it goes after (-1: at the top).
	After int
	// Blank puts a blank line before it, unless the line before is blank
	// already (or there is none).
	Blank bool
}

// AddEntry adds an entry for the memory at path (a slash path relative to
// the memory dir) after row afterRow (-1: at the top), in the index's own
// style (see AddEntries). It returns the new row's index.
func (e *Editor) AddEntry(p, title, hook string, afterRow int) (int, error) {
	at, err := e.AddEntries([]NewEntry{{Path: p, Title: title, Hook: hook, After: afterRow}})
	if err != nil {
		return -1, err
	}
	return at[0], nil
}

// AddEntries adds the entries as one step and returns their rows'
// indexes, in the order given. Entries after the same row go in the order
// given. Each is written in the style of where it goes: a row of the table
// it continues, else the index's usual list item (marker, reference kind
// and separator); its hook is cut so the line stays within EntryMaxChars
// characters. A path already indexed, given twice, or whose line would
// not read as its entry where it goes is refused, and so is a batch that
// would hide a reference inside code, a comment or frontmatter.
func (e *Editor) AddEntries(adds []NewEntry) ([]int, error) {
	if len(adds) == 0 {
		return nil, ErrNoChange
	}
	st, v := e.state(), e.view()
	indexed := v.indexed()
	paths := make([]string, len(adds))
	for k, a := range adds {
		p := strings.TrimSpace(a.Path)
		if p == "" || strings.ContainsAny(p, "\r\n") {
			return nil, fmt.Errorf("add entry: empty path")
		}
		p = path.Clean(p)
		if at := a.After + 1; at < e.pinned() || at > len(st.rows) {
			return nil, fmt.Errorf("after row %d: %w", a.After, ErrNoRow)
		}
		if indexed(p) || slices.Contains(paths[:k], p) {
			return nil, fmt.Errorf("add entry: %s is already indexed", p)
		}
		paths[k] = p
	}
	order := make([]int, len(adds)) // adds by the row they follow, stable
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return adds[a].After - adds[b].After })
	rows := make([]ixeRow, 0, len(st.rows)+2*len(adds))
	at := make([]int, len(adds))
	next := 0
	emit := func(after int) {
		var prev *ixeStyle // the style of the entry just added here
		for ; next < len(order) && adds[order[next]].After == after; next++ {
			a := adds[order[next]]
			blank := a.Blank && len(rows) > 0 && !rows[len(rows)-1].blank()
			if blank {
				rows = append(rows, e.newRow(""))
			}
			s := e.styleAfter(v, after, a.Blank)
			if prev != nil && !a.Blank {
				s = *prev
			}
			prev = &s
			at[order[next]] = len(rows)
			rows = append(rows, e.newRow(s.line(paths[order[next]], a.Title, a.Hook, e.clip)))
		}
	}
	emit(-1)
	for i, r := range st.rows {
		rows = append(rows, r)
		emit(i)
	}
	w := e.viewOf(rows)
	if !e.keeps(w) {
		return nil, ErrHides
	}
	for k, i := range at {
		if en := w.entry(i); en == nil || !ixeMatches(en, paths[k]) {
			return nil, fmt.Errorf("add entry: the new line would not read as an entry for %s here", paths[k])
		}
	}
	e.push(&ixeState{rows: rows, deleted: st.deleted})
	e.state().view = w
	return at, nil
}

// indexed returns a test of whether some entry points at a slash path
// already (see ixeMatches), built once for the view.
func (v *ixeView) indexed() func(p string) bool {
	targets, wiki := map[string]bool{}, map[string]bool{}
	for k := range v.ix.Entries {
		if r, ok := v.ix.Entries[k].Primary(); ok {
			targets[r.Target] = true
			if r.Kind == RefWiki {
				wiki[r.Target] = true
			}
		}
	}
	return func(p string) bool {
		return targets[p] || wiki[strings.TrimSuffix(p, ".md")] || wiki[strings.TrimSuffix(path.Base(p), ".md")]
	}
}

func (e *Editor) newRow(text string) ixeRow {
	r := ixeRow{id: e.nextID, lines: []ixeLine{{text: text, eol: e.eol}}}
	e.nextID++
	return r
}

// AddSection appends a heading of the given level (1 to 6) at the end of
// the index, with a blank line before it (unless the index is empty or
// ends with one) and one after it, and returns the heading's row.
func (e *Editor) AddSection(level int, title string) (int, error) {
	title = ixeOneLine(title)
	if level < 1 || level > 6 || title == "" {
		return -1, fmt.Errorf("add section %q at level %d: %w", title, level, ErrNoChange)
	}
	st := e.state()
	rows := slices.Clone(st.rows)
	if n := len(rows); n > 0 && !rows[n-1].blank() {
		rows = append(rows, e.newRow(""))
	}
	at := len(rows)
	rows = append(rows, e.newRow(strings.Repeat("#", level)+" "+title), e.newRow(""))
	if !e.keepsRefs(rows) {
		return -1, ErrHides
	}
	e.push(&ixeState{rows: rows, deleted: st.deleted})
	return at, nil
}

// ---- hooks ----

// EditHook replaces the hook of entry row i: the text after the separator.
// The indent, list marker, title, link and separator stay byte for byte; an
// entry without a separator gets the index's usual one; an empty hook
// removes the separator too. For a table row the hook cell (the longest
// after the reference) is replaced. Prose entries have no hook.
func (e *Editor) EditHook(i int, hook string) error {
	en, err := e.checkEntry(i)
	if err != nil {
		return err
	}
	text, err := e.withHook(en, hook)
	if err != nil {
		return err
	}
	if !ixeKeepsPrimary(en, text) {
		return fmt.Errorf("line %d: the hook holds the entry's own reference: %w", en.Line, ErrHides)
	}
	if text == en.Raw {
		return ErrNoChange
	}
	st := e.state()
	rows := slices.Clone(st.rows)
	rows[i] = ixeReplaceFirst(rows[i], text)
	e.push(&ixeState{rows: rows, deleted: st.deleted})
	return nil
}

// ixeKeepsPrimary reports whether line text still references the entry's
// primary target (a hook may hold it when the first reference is a URL).
func ixeKeepsPrimary(en *Entry, text string) bool {
	p, ok := en.Primary()
	if !ok {
		return true
	}
	for _, r := range ParseText(text).Lines[0].Refs {
		if r.Target == p.Target {
			return true
		}
	}
	return false
}

// ixeReplaceFirst returns r with its first line's text replaced.
func ixeReplaceFirst(r ixeRow, text string) ixeRow {
	lines := slices.Clone(r.lines)
	lines[0].text = text
	r.lines = lines
	return r
}

// withHook returns the entry's line with its hook replaced.
func (e *Editor) withHook(en *Entry, hook string) (string, error) {
	hook = ixeOneLine(hook)
	t := en.Raw
	switch en.Form {
	case EntryProse:
		return "", fmt.Errorf("line %d: a prose entry has no hook: %w", en.Line, ErrNotEntry)
	case EntryTable:
		cells, ri := ixeRefCell(en)
		hc := ixeHookCell(cells, ri)
		if ri < 0 || hc < 0 {
			return "", fmt.Errorf("line %d: the table row has no hook cell: %w", en.Line, ErrNotEntry)
		}
		c := cells[hc]
		inner := strings.TrimSpace(c.text)
		lead := c.text[:len(c.text)-len(strings.TrimLeft(c.text, " \t"))]
		trail := c.text[len(strings.TrimRight(c.text, " \t")):]
		if inner == "" {
			lead, trail = " ", " "
		}
		if lead == "" {
			lead = " "
		}
		if trail == "" && c.off+len(c.text) < len(t) {
			trail = " "
		}
		return t[:c.off] + lead + ixeEscCell(hook) + trail + t[c.off+len(c.text):], nil
	}
	h := ixeHookSpan(en)
	switch {
	case hook == "":
		return t[:h.base] + t[h.end:], nil
	case h.sep:
		pre := t[:h.start]
		if h.start == h.end && !strings.HasSuffix(pre, " ") {
			pre += " " // "- [A](a.md) —" with nothing after
		}
		return pre + hook + t[h.end:], nil
	}
	return t[:h.base] + e.styles().list.gap + hook + t[h.end:], nil
}

// hookText is the entry's hook as written: the text after the separator,
// or a table row's hook cell.
func hookText(en *Entry) (string, bool) {
	switch en.Form {
	case EntryTable:
		cells, ri := ixeRefCell(en)
		hc := ixeHookCell(cells, ri)
		if ri < 0 || hc < 0 {
			return "", false
		}
		return strings.TrimSpace(cells[hc].text), true
	case EntryList:
		return en.Hook, true
	}
	return "", false
}

// ShortenHooks replaces every hook longer than max characters (max ≤ 0
// means DefaultHookMax) with the description of the memory it points at
// (descriptions is keyed by slash path relative to the memory dir), or,
// when that description is missing or too long too, cuts the hook at a word
// boundary and marks the cut with "…". It returns how many hooks changed;
// all of them are one undo step.
func (e *Editor) ShortenHooks(descriptions map[string]string, max int) (int, error) {
	if max <= 0 {
		max = DefaultHookMax
	}
	if max < 2 {
		return 0, fmt.Errorf("shorten hooks to %d characters: too short", max)
	}
	st, v := e.state(), e.view()
	rows := slices.Clone(st.rows)
	n := 0
	for i := range rows {
		en := v.entry(i)
		if en == nil {
			continue
		}
		cur, ok := hookText(en)
		if !ok || utf8.RuneCountInString(cur) <= max {
			continue
		}
		hook := ""
		if d := ixeOneLine(descriptions[ixeTarget(en)]); d != "" && utf8.RuneCountInString(d) <= max {
			hook = d
		} else {
			hook = e.clip(cur, max)
		}
		text, err := e.withHook(en, hook)
		if err != nil || text == en.Raw || !ixeKeepsPrimary(en, text) {
			continue
		}
		rows[i] = ixeReplaceFirst(rows[i], text)
		n++
	}
	if n > 0 {
		e.push(&ixeState{rows: rows, deleted: st.deleted})
	}
	return n, nil
}

// HookFit asks FitHooks to bring one entry's line within the length: Row
// is the entry's row, Desc the description of the memory it points at.
type HookFit struct {
	Row  int
	Desc string
}

// FitHooks brings the line of each given entry within max characters
// (max ≤ 0: EntryMaxChars) through its hook: the description when the line
// fits with it, else the description cut to fit, else the hook cut to fit,
// else (a list entry; a table keeps its cell) no hook and no separator.
// Everything around the hook stays byte for byte. An entry whose line fits
// already, or would not fit even without a hook (its title is too long,
// which is for a person to shorten), is left as it is. It reports which
// entries changed; all of them are one undo step.
func (e *Editor) FitHooks(fits []HookFit, max int) ([]bool, error) {
	if max <= 0 {
		max = EntryMaxChars
	}
	st, v := e.state(), e.view()
	rows := slices.Clone(st.rows)
	done := make([]bool, len(fits))
	n := 0
	for k, f := range fits {
		if f.Row < e.pinned() || f.Row >= len(rows) {
			return nil, fmt.Errorf("row %d: %w", f.Row, ErrNoRow)
		}
		en := v.entry(f.Row)
		if en == nil || utf8.RuneCountInString(rows[f.Row].lines[0].text) <= max {
			continue
		}
		if text, ok := e.fitHook(en, ixeOneLine(f.Desc), max); ok && ixeKeepsPrimary(en, text) {
			rows[f.Row] = ixeReplaceFirst(rows[f.Row], text)
			done[k] = true
			n++
		}
	}
	if n == 0 {
		return done, nil
	}
	e.push(&ixeState{rows: rows, deleted: st.deleted})
	return done, nil
}

// fitHook returns the entry's line with the hook FitHooks chooses.
func (e *Editor) fitHook(en *Entry, desc string, max int) (string, bool) {
	cur, ok := hookText(en)
	if !ok {
		return "", false
	}
	probe, err := e.withHook(en, "x")
	if err != nil {
		return "", false
	}
	room := max - (utf8.RuneCountInString(probe) - 1)
	for {
		var hook string
		switch {
		case desc != "" && utf8.RuneCountInString(desc) <= room:
			hook = desc
		case room >= ixeMinHook && desc != "":
			hook = e.clip(desc, room)
		case room >= ixeMinHook:
			hook = e.clip(cur, room)
		case en.Form == EntryTable:
			return "", false
		}
		text, err := e.withHook(en, hook)
		if err != nil {
			return "", false
		}
		over := utf8.RuneCountInString(text) - max
		if over <= 0 {
			return text, text != en.Raw
		}
		if hook == "" || room < ixeMinHook {
			return "", false // the title alone is too long
		}
		room -= over // a table cell's escaped pipes took the room
	}
}

// Fold asks FoldRows to fold one entry: Row is the entry's row; Hook, when
// not empty, becomes the hook of an entry that has none.
type Fold struct {
	Row  int
	Hook string
}

// FoldRows drops the hanging lines of each given entry, leaving its first
// line, and closes up the blank lines after it as RemoveRows does. With a
// Hook, the entry (which must have no hook) takes it as its hook, after the
// index's usual separator, and is left as it is when that would take its
// line past max characters (max ≤ 0: EntryMaxChars). It reports which
// entries changed; all of them are one undo step.
func (e *Editor) FoldRows(folds []Fold, max int) ([]bool, error) {
	if max <= 0 {
		max = EntryMaxChars
	}
	st, v := e.state(), e.view()
	rows := slices.Clone(st.rows)
	done := make([]bool, len(folds))
	cut := make([]bool, len(rows))
	n := 0
	for k, f := range folds {
		if f.Row < e.pinned() || f.Row >= len(rows) {
			return nil, fmt.Errorf("row %d: %w", f.Row, ErrNoRow)
		}
		en := v.entry(f.Row)
		if en == nil || len(rows[f.Row].lines) < 2 {
			continue
		}
		r := rows[f.Row]
		r.lines = r.lines[:1:1]
		if hook := ixeOneLine(f.Hook); hook != "" {
			if en.Hook != "" {
				continue
			}
			text, err := e.withHook(en, hook)
			if err != nil || utf8.RuneCountInString(text) > max {
				continue
			}
			r = ixeReplaceFirst(r, text)
		}
		rows[f.Row] = r
		done[k], cut[f.Row] = true, true
		n++
	}
	if n == 0 {
		return done, nil
	}
	e.push(&ixeState{rows: ixeClose(rows, make([]bool, len(rows)), cut), deleted: st.deleted})
	return done, nil
}

// Unlink asks UnlinkRefs to turn references on one line into text: Row is
// the row, Line the line within it (0: its first), Refs the references as
// parsed.
type Unlink struct {
	Row, Line int
	Refs      []Ref
}

// UnlinkRefs turns each given reference into its plain text, the rest of
// its line kept byte for byte: a link into its text (its destination when
// the text is blank), a backticked name or a wikilink into its
// destination. A reference no longer on its line is skipped. It returns
// the references it unlinked, per request; all of them are one undo step.
func (e *Editor) UnlinkRefs(us []Unlink) ([][]Ref, error) {
	st := e.state()
	rows := slices.Clone(st.rows)
	out := make([][]Ref, len(us))
	n := 0
	for k, u := range us {
		if u.Row < 0 || u.Row >= len(rows) || u.Line < 0 || u.Line >= len(rows[u.Row].lines) {
			continue // the line went with an earlier edit
		}
		text := rows[u.Row].lines[u.Line].text
		for _, r := range u.Refs {
			if !strings.Contains(text, r.Raw) {
				continue
			}
			plain := r.Dest
			if r.Kind == RefLink && strings.TrimSpace(r.Text) != "" {
				plain = r.Text
			}
			text = strings.Replace(text, r.Raw, plain, 1)
			out[k] = append(out[k], r)
		}
		if len(out[k]) > 0 {
			row := rows[u.Row]
			row.lines = slices.Clone(row.lines)
			row.lines[u.Line].text = text
			rows[u.Row] = row
			n++
		}
	}
	if n == 0 {
		return out, ErrNoChange
	}
	e.push(&ixeState{rows: rows, deleted: st.deleted})
	return out, nil
}

// SetRedact makes the editor pass every text it cuts to fit (a new entry's
// hook, a hook FitHooks or ShortenHooks writes) through redact first: a
// token cut in half no longer looks like a secret, so a scan of the result
// could not find what is left of it. The reindex proposer sets it to the
// secret scanner's redaction; model itself knows no secrets.
func (e *Editor) SetRedact(redact func(string) string) { e.redact = redact }

// clip is Clip after the editor's redaction.
func (e *Editor) clip(s string, n int) string {
	if e.redact != nil {
		s = e.redact(s)
	}
	return Clip(s, n)
}

// Clip cuts s to at most n characters, "…" included: at the last blank in
// the second half of what fits when there is one (else inside the word),
// never inside a link, code span or wikilink of its first line, and
// without the blank or punctuation the cut would leave dangling. s is
// returned as it is when it fits. It is the one cut of text memtui writes
// into an index and of the quotes in its messages, so a hook cut by the
// reindex proposal, by the index editor and in a finding ends alike.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	if n == 1 {
		return "…"
	}
	rs := []rune(s)
	cut := n - 1
	for k := cut; k > cut/2; k-- {
		if unicode.IsSpace(rs[k]) {
			cut = k
			break
		}
	}
	head := string(rs[:cut])
	if strings.ContainsAny(head, "[`") { // only then can a reference straddle the cut
		for _, r := range ParseText(s).Lines[0].Refs {
			if r.Col < len(head) && r.Col+len(r.Raw) > len(head) {
				head = head[:r.Col]
				break
			}
		}
	}
	out := strings.TrimRightFunc(head, func(c rune) bool {
		return unicode.IsSpace(c) || strings.ContainsRune(",;:—–-(", c)
	})
	if out == "" { // one long word, or a reference from the start: cut it
		out = string(rs[:n-1])
	}
	return out + "…"
}

// ---- demote ----

// Archive says where Demote and DemoteTo move entries and how the index
// links them.
type Archive struct {
	// Path is the archive, relative to the memory dir; it must sit beside
	// MEMORY.md so the moved links still resolve.
	Path string
	// Title names a new archive (frontmatter name and heading) and is the
	// title of the entry linking it ("Archived index entries" when empty).
	Title string
	// Hook is that entry's hook; empty names the moved entries.
	Hook string
	// Content is the archive as it is when it exists: the rows are
	// appended to it, in its own line endings. Nil makes a new one.
	Content []byte
	// Frontmatter is a new archive's frontmatter block, with the blank
	// line after it; empty writes name, description, node_type memory and
	// type reference.
	Frontmatter string
	// Intro is a paragraph under a new archive's heading.
	Intro string
	// NoLink leaves MEMORY.md without an entry for the archive (the caller
	// links it, or the index does already); otherwise one entry, in the
	// moved rows' style, takes the first moved row's place.
	NoLink bool
}

// Demote moves entry rows out of MEMORY.md into a new archive index and
// leaves one entry, in the index's style and at the first moved row's
// place, pointing at it; see DemoteTo.
func (e *Editor) Demote(rows []int, archivePath, archiveTitle string) ([]byte, error) {
	return e.DemoteTo(rows, Archive{Path: archivePath, Title: archiveTitle})
}

// DemoteTo moves entry rows out of MEMORY.md into the archive a describes
// and returns the archive's content: a new archive has frontmatter, a
// heading and a.Intro; then the moved rows as written (continuation lines
// included) under the headings they sat under, table rows under their
// table's header. The blank lines around the moved rows close up as
// RemoveRows closes them. Undo restores MEMORY.md; writing or removing the
// archive is the caller's.
func (e *Editor) DemoteTo(rows []int, a Archive) ([]byte, error) {
	archivePath := path.Clean(strings.TrimSpace(a.Path))
	switch {
	case len(rows) == 0:
		return nil, fmt.Errorf("demote: %w", ErrNoChange)
	case !strings.HasSuffix(archivePath, ".md") || strings.Contains(archivePath, "/") || strings.EqualFold(archivePath, "MEMORY.md") || strings.ContainsAny(archivePath, "\r\n"):
		return nil, fmt.Errorf("demote: archive %q must be a .md file beside MEMORY.md", archivePath)
	case !a.NoLink && e.FindRow(archivePath) >= 0:
		return nil, fmt.Errorf("demote: %s is already indexed", archivePath)
	}
	title := ixeOneLine(a.Title)
	if title == "" {
		title = "Archived index entries"
	}
	sel := slices.Clone(rows)
	slices.Sort(sel)
	st, v := e.state(), e.view()
	var names []string
	for k, i := range sel {
		en, err := e.checkEntry(i)
		if err != nil {
			return nil, err
		}
		if k > 0 && sel[k-1] == i {
			return nil, fmt.Errorf("demote: row %d twice", i)
		}
		names = append(names, en.Name())
	}
	nl := e.eol
	if a.Content != nil {
		nl = ixeEOL(a.Content)
	}
	body := e.archiveBody(v, sel, nl)
	var b strings.Builder
	if a.Content == nil {
		fm := a.Frontmatter
		if fm == "" {
			desc := fmt.Sprintf("Index entries moved out of MEMORY.md (%d): %s", len(sel), strings.Join(names, ", "))
			fm = "---\nname: " + model.YAMLScalar(title) + "\ndescription: " + model.YAMLScalar(Clip(desc, 250)) + "\n" +
				"metadata:\n  node_type: memory\n  type: reference\n---\n\n"
		}
		b.WriteString(strings.ReplaceAll(fm, "\n", nl))
		b.WriteString("# " + title + nl + nl)
		if intro := ixeOneLine(a.Intro); intro != "" {
			b.WriteString(intro + nl + nl)
		}
	} else {
		b.Write(a.Content)
		if len(a.Content) > 0 && a.Content[len(a.Content)-1] != '\n' {
			b.WriteString(nl)
		}
		b.WriteString(nl)
	}
	b.WriteString(body)

	drop := make([]bool, len(st.rows))
	for _, i := range sel {
		drop[i] = true
	}
	all, linkID := st.rows, -1
	if !a.NoLink {
		s := e.styles().list
		if firstEn := v.entry(sel[0]); firstEn.Form == EntryTable {
			if ts, ok := ixeTableStyle(firstEn); ok {
				s = ts
			}
		}
		hook := a.Hook
		if hook == "" {
			room := max(40, DefaultHookMax-utf8.RuneCountInString(title)-len(archivePath)-10)
			hook = Clip(fmt.Sprintf("%d older entries: %s", len(sel), strings.Join(names, ", ")), room)
		}
		link := e.newRow(s.line(archivePath, title, hook, e.clip))
		all = slices.Concat(st.rows[:sel[0]], []ixeRow{link}, st.rows[sel[0]:])
		drop = slices.Insert(drop, sel[0], false)
		linkID = link.id
	}
	keep := ixeClose(all, drop, nil)
	w := e.viewOf(keep)
	if !a.NoLink {
		if i := slices.IndexFunc(keep, func(r ixeRow) bool { return r.id == linkID }); i < 0 || w.entry(i) == nil || !ixeMatches(w.entry(i), archivePath) {
			return nil, fmt.Errorf("demote: the archive entry would not read as an entry here")
		}
	}
	// Every reference that leaves MEMORY.md must be in the archive.
	arch := ParseText(body)
	left, moved := w.refTargets(), arch.refTargetsAll()
	for t, k := range v.refTargets() {
		if left[t]+moved[t] < k {
			return nil, fmt.Errorf("demote: %s would be lost: %w", t, ErrHides)
		}
	}
	e.push(&ixeState{rows: keep, deleted: st.deleted})
	e.state().view = w
	return []byte(b.String()), nil
}

// archiveBody writes the rows sel (sorted) for an archive: grouped under
// the headings they sat under ("## " and the heading's text), table rows
// under their table's header.
func (e *Editor) archiveBody(v *ixeView, sel []int, nl string) string {
	const none = -2
	rows := e.state().rows
	var b strings.Builder
	// The section and the table (its header's row, -1 when made up) written
	// last, and whether a list row was.
	sec, table, listed := none, none, false
	for _, i := range sel {
		en := v.entry(i)
		if en.Section != sec {
			if b.Len() > 0 {
				b.WriteString(nl)
			}
			if en.Section >= 0 {
				b.WriteString("## " + v.ix.Headings[en.Section].Text + nl + nl)
			}
			sec, table, listed = en.Section, none, false
		}
		if en.Form == EntryTable {
			if h, header := e.tableHeader(v, i); table == none || h != table {
				if table != none || listed {
					b.WriteString(nl) // a table starts after a blank line
				}
				for _, l := range header {
					b.WriteString(l.text + nl)
				}
				table, listed = h, false
			}
		} else {
			if table != none {
				b.WriteString(nl) // a blank line ends the table
				table = none
			}
			listed = true
		}
		for _, l := range rows[i].lines {
			b.WriteString(l.text + nl)
		}
	}
	return b.String()
}

// ixeEOL is the line ending content uses: its first one.
func ixeEOL(content []byte) string {
	if i := bytes.IndexByte(content, '\n'); i > 0 && content[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// refTargetsAll counts the targets of every reference in ix.
func (ix *Index) refTargetsAll() map[string]int {
	m := map[string]int{}
	for _, l := range ix.Lines {
		for _, r := range l.Refs {
			m[r.Target]++
		}
	}
	return m
}

// tableHeader returns the row of the header of the table row i sits in
// and its header and delimiter lines, or -1 and a plain header with as
// many columns.
func (e *Editor) tableHeader(v *ixeView, i int) (int, []ixeLine) {
	rows := e.state().rows
	for k := i - 1; k >= 0; k-- {
		l := v.ix.Line(v.first[k])
		if l == nil {
			break
		}
		if l.Kind == LineTableHeader {
			return k, rows[k].lines
		}
		if en := v.entry(k); l.Kind != LineProse && (en == nil || en.Form != EntryTable) {
			break
		}
	}
	n := len(ixCells(rows[i].lines[0].text))
	return -1, []ixeLine{{text: "|" + strings.Repeat(" |", n)}, {text: "|" + strings.Repeat("---|", n)}}
}

// ---- history ----

// Undo steps back one edit.
func (e *Editor) Undo() error {
	if e.cur == 0 {
		return ErrNoHistory
	}
	e.cur--
	return nil
}

// Redo steps forward one undone edit.
func (e *Editor) Redo() error {
	if e.cur+1 >= len(e.hist) {
		return ErrNoHistory
	}
	e.cur++
	return nil
}

// CanUndo reports whether Undo has a step to take back.
func (e *Editor) CanUndo() bool { return e.cur > 0 }

// CanRedo reports whether Redo has a step to take.
func (e *Editor) CanRedo() bool { return e.cur+1 < len(e.hist) }

// ---- budget ----

// Budget is the simulated load of the current bytes with the rows where
// the cut, the 80% mark and the 70% mark fall.
func (e *Editor) Budget() Budget {
	st, v := e.state(), e.view()
	ld := v.load()
	b := Budget{Load: *ld, Lines: ld.LineCount, Units: ld.Units, Truncated: ld.Truncated(), CutRow: -1, NearRow: -1, TargetRow: -1}
	if ld.Truncated() {
		b.CutRow = slices.Index(v.cutRows(len(st.rows)), true)
	}
	lines, units, started := 0, 0, false
	for i, r := range st.rows {
		if r.fm && e.mode == model.LoadAuto {
			continue // stripped before the count (a subagent's index keeps it)
		}
		for _, l := range r.lines {
			if !started && strings.TrimSpace(l.text) == "" {
				continue
			}
			started = true
			lines++
			units += claude.UTF16Len(l.text) + 1
		}
		if b.TargetRow < 0 && (lines > model.IndexTargetLines || units > model.IndexTargetUnits) {
			b.TargetRow = i
		}
		if b.NearRow < 0 && (lines >= model.IndexNearLines || units >= model.IndexNearUnits) {
			b.NearRow = i
		}
	}
	return b
}

// IDs returns the rows' IDs in order: a cheaper Rows for a caller that
// only follows rows through edits.
func (e *Editor) IDs() []int {
	rows := e.state().rows
	out := make([]int, len(rows))
	for i, r := range rows {
		out[i] = r.id
	}
	return out
}

// RowAt returns the row holding line n (1-based) of Bytes, or -1.
func (e *Editor) RowAt(n int) int {
	v := e.view()
	if n < 1 || n > len(v.row) {
		return -1
	}
	return v.row[n-1]
}

// EntryText is the line AddEntries would write for a where a.After and
// a.Blank put it, for a caller that measures it before adding it.
func (e *Editor) EntryText(a NewEntry) string {
	return e.styleAfter(e.view(), a.After, a.Blank).line(path.Clean(strings.TrimSpace(a.Path)), a.Title, a.Hook, e.clip)
}

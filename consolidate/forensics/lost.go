package forensics

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
	"github.com/memtui/memtui/model/prose"
)

// This file finds lost updates: text a session wrote into a memory file
// that is no longer in it, with no later recorded write that removed it
// knowingly. Claude Code agents write memory files without locks, so two
// sessions that read the same version and then write it back one after the
// other lose the first one's change (the classic lost-update race). The
// transcripts record enough to see it: what each write left (Write's
// content, Edit's originalFile with its replacements) and what each session
// had seen (reads, recalls, index loads, its own writes).
//
// Precision comes first: a session rewriting a file it had read, a line an
// Edit re-worded or moved, memtui's own reviewed change and a deleted file
// are all deliberate, and none of them is reported.

// Lost is text one write put into a memory file that the file no longer
// holds, with the write that dropped it when the transcripts show one.
type Lost struct {
	// File is the memory-dir-relative slash path ("MEMORY.md" for the
	// index).
	File string
	// Lines are the lost text, one entry per line, in the order the writer
	// wrote them ('\r' and trailing spaces trimmed).
	Lines []string
	// Anchors say where each of Lines stood in the writer's text (parallel
	// to Lines), so it can be put back in the same place.
	Anchors []Anchor
	// Writer is the write that put the text in (the last one, when the
	// text was written more than once).
	Writer model.MemWrite
	// Culprit is the write that dropped it, or for a possible loss the
	// write of unknown content (a background fork, a shell command) that
	// may have; nil when no recorded write could have (the file changed
	// outside any recorded session).
	Culprit *model.MemWrite
	// Definite is true when the transcripts leave no doubt: Culprit
	// rewrote the file without having seen the text, and every change to
	// the file since is recorded and leads to what is on disk now.
	Definite bool
	// Why says in a plain sentence what dropped the text, or what may have.
	Why string

	// clause is Why as it reads inside a finding's message.
	clause string
}

// Anchor is where a lost line stood in the text its writer wrote.
type Anchor struct {
	// Prev and Next are the body lines just before and just after it in
	// the writer's text, nearest first (blank and structural lines left
	// out): the line goes back after the nearest Prev the file still has,
	// else before the nearest Next.
	Prev, Next []string
	// BlankBefore and BlankAfter are true when a blank line separated it
	// from the text before or after (a paragraph of its own).
	BlankBefore, BlankAfter bool
	// Fragment is true when only part of a line is known (an Edit inside
	// a line, recorded without the file around it): it can be reported,
	// but not put back as a line.
	Fragment bool
	// Replaces are the lines the same write took out where it put this
	// one: the older version of it (an Edit's "deadline 2026-06-01" for
	// "deadline 2026-06-15"). Set on lost lines only. When the file holds
	// that older version again (a stale copy written back), the line goes
	// back in its place rather than beside it, so the file never says
	// both versions.
	Replaces []string
}

// LostUpdates finds the text recorded writes put into d's files that the
// files no longer hold and that no later write removed knowingly. Only
// files that still exist are considered: a deleted memory is not a lost
// update. The result is sorted by file, then by when the text was written.
func LostUpdates(d *model.MemoryDir, log *model.TranscriptLog) []Lost {
	if d == nil || log == nil || len(log.Writes) == 0 {
		return nil
	}
	prov := Provenance(d, log)
	obs := map[string][]model.MemObservation{}
	indexLoads := map[string]bool{}
	for _, o := range log.Observations {
		if o.Kind == model.ObsIndexLoad {
			indexLoads[o.Session] = true
			for _, s := range o.AlsoIn {
				indexLoads[s] = true
			}
		}
		if rel, ok := relPath(d, o.Path); ok {
			obs[rel] = append(obs[rel], o)
		}
	}
	var out []Lost
	for _, f := range currentFiles(d) {
		ws := prov[f.Path]
		if len(ws) == 0 || f.Truncated {
			continue // no history, or only the start of the file to compare with
		}
		h := newHistory(d, log, f, ws, obs[f.Path], indexLoads)
		out = append(out, h.lost()...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Writer.Time.Before(b.Writer.Time)
	})
	return out
}

// currentFiles is d's files with the index first.
func currentFiles(d *model.MemoryDir) []*model.File {
	fs := make([]*model.File, 0, len(d.Files)+1)
	if d.Index != nil {
		fs = append(fs, d.Index)
	}
	return append(fs, d.Files...)
}

// unit is one line (or line fragment) a write added.
type unit struct {
	text string // as written, without '\r' and trailing spaces
	key  string // what is compared: the line trimmed
	// order is the unit's place in its writer's text, for keeping lost
	// lines in the writer's order.
	order int
	// fragment is true when only part of a line is known (Anchor.Fragment).
	fragment bool
	// src and at are the text the unit is line at of, for its Anchor.
	// The anchor is worked out only for a lost unit: nearly every unit is
	// still in its file, and building the anchors of all of them was a
	// third of a warm lint's lost-update cost.
	src *unitSrc
	at  int
}

// unitSrc is a written text as lines, shared by the units it added.
type unitSrc struct {
	keys, raw []string // each line trimmed, and as written
	fmEnd     int      // the frontmatter's last line, -1 for none
}

// anchor is where the unit stood in its writer's text.
func (u *unit) anchor() Anchor {
	a := anchorAt(u.src.keys, u.src.raw, u.at, u.src.fmEnd)
	a.Fragment = u.fragment
	return a
}

// has reports whether text holds the unit: as a whole line, or anywhere
// for a fragment.
func (h *history) has(u *unit, text string) bool {
	if u.fragment {
		return strings.Contains(stripCR(text), u.key)
	}
	return h.keysOf(text)[u.key]
}

// keysOf and looseOf are lineKeys and looseKey remembered per text: the
// walk asks about the same few versions of a file for every missing line.
func (h *history) keysOf(text string) map[string]bool {
	m, ok := h.keysMemo[text]
	if !ok {
		m = lineKeys(text)
		h.keysMemo[text] = m
	}
	return m
}

func (h *history) looseOf(text string) string {
	k, ok := h.looseMemo[text]
	if !ok {
		k = looseKey(text)
		h.looseMemo[text] = k
	}
	return k
}

// seenIn reports whether content an agent saw holds the unit. Lenient on
// purpose (a substring, any indentation): a session that may have seen the
// text is taken to have seen it, so a deliberate removal is not reported.
func (u *unit) seenIn(content string) bool {
	return content != "" && strings.Contains(stripCR(content), u.key)
}

// writeState is what the analysis knows about one recorded write.
type writeState struct {
	after string
	// exact is true when after is the file as the write left it: Write's
	// content, memtui's after, or an Edit's replacements applied to the
	// file it recorded (or, failing that, to the last known content).
	exact bool
	units []unit
	// after's lines and loose key are h.keysOf and h.looseOf, worked out
	// only when some unit is missing: most files have none.
}

// history is one existing file with its recorded writes and observations.
type history struct {
	d           *model.MemoryDir
	log         *model.TranscriptLog
	rel         string
	current     string
	curBody     []string        // the body's lines (after the frontmatter)
	curFlow     *string         // the body's words, for text said elsewhere (flowWords); built on first use
	curEntries  map[string]bool // MEMORY.md: link targets of the current entries
	curWords    [][]string      // body lines as words, for re-worded lines; built on first use
	wordsDone   bool
	curFMKeys   map[string]bool // frontmatter keys of the current file
	writes      []model.MemWrite
	states      []writeState
	obs         []model.MemObservation
	fullReads   []model.MemObservation
	indexLoads  map[string]bool
	keysMemo    map[string]map[string]bool
	looseMemo   map[string]string
	explainMemo map[int]bool
}

func newHistory(d *model.MemoryDir, log *model.TranscriptLog, f *model.File, ws []model.MemWrite, obs []model.MemObservation, indexLoads map[string]bool) *history {
	h := &history{d: d, log: log, rel: f.Path, current: string(f.Content), writes: ws, obs: obs, indexLoads: indexLoads,
		keysMemo: map[string]map[string]bool{}, looseMemo: map[string]string{}, explainMemo: map[int]bool{}}
	lines := splitKeys(h.current)
	fmEnd := frontmatterEnd(lines)
	h.curBody = lines[fmEnd+1:]
	h.curFMKeys = map[string]bool{}
	for _, l := range lines[:fmEnd+1] {
		if k := yamlKey(l); k != "" {
			h.curFMKeys[k] = true
		}
	}
	if h.isIndex() {
		h.curEntries = map[string]bool{}
		ix := memindex.ParseText(h.current)
		for i := range ix.Entries {
			if r, ok := ix.Entries[i].Primary(); ok && r.IsFile() {
				h.curEntries[r.Target] = true
			}
		}
	}
	for _, o := range obs {
		if o.Kind == model.ObsRead && o.Full {
			h.fullReads = append(h.fullReads, o)
		}
	}
	h.states = make([]writeState, len(ws))
	for i := range ws {
		h.computeState(i)
	}
	return h
}

func (h *history) isIndex() bool { return h.d.Index != nil && h.rel == h.d.Index.Path }

// writesText reports whether a write kind carries the text it wrote.
func writesText(w *model.MemWrite) bool {
	switch w.Kind {
	case model.WriteFull, model.WriteStore:
		return w.HasAfter
	case model.WriteEdit, model.WriteMulti:
		return len(w.Edits) > 0
	case model.WriteMemtui:
		// memtui's journal keeps what a file was before, and what it
		// became only when those bytes are still around: without them the
		// write is of unknown content, and text gone after it only possibly
		// lost (it may have been reviewed away, or an agent's stale write
		// after it may have dropped it).
		return w.HasAfter
	}
	return false
}

// computeState works out write i's after text and the units it added.
// Writes before i are computed already.
func (h *history) computeState(i int) {
	w := &h.writes[i]
	st := &h.states[i]
	if !writesText(w) {
		return
	}
	var before string
	hasBefore := w.HasBefore
	if hasBefore {
		before = w.Before
	}
	switch w.Kind {
	case model.WriteFull, model.WriteStore:
		st.after, st.exact = w.After, true
	case model.WriteMemtui:
		st.after, st.exact = w.After, true
	case model.WriteEdit, model.WriteMulti:
		if hasBefore {
			st.after, st.exact = ApplyEdits(before, w.Edits)
		}
		if !st.exact {
			// No originalFile (a subagent, a capped copy): replay the
			// replacements on the last content known, as Claude Code
			// would have applied them to it.
			if base, ok := h.knownBefore(i); ok {
				if after, ok := ApplyEdits(base, w.Edits); ok {
					st.after, st.exact = after, true
					before, hasBefore = base, true
				}
			}
		}
	}
	if st.exact {
		if !hasBefore && w.Kind != model.WriteMemtui {
			before, hasBefore = h.knownBefore(i)
		}
		st.units = addedLines(before, st.after)
		return
	}
	st.units = h.editUnits(w)
}

// knownBefore is the file's content just before write i as far as the
// record goes: the latest exact after of an earlier write, or a later full
// read of the file. ok is false when the latest event is a write whose
// content is unknown.
func (h *history) knownBefore(i int) (string, bool) {
	var text string
	var at time.Time
	ok := false
	if i > 0 {
		// The write just before decides: its after when known, else the
		// content is unknown from then on.
		k := i - 1
		text, ok, at = h.states[k].after, h.states[k].exact, h.writes[k].Time
	}
	for _, r := range h.fullReads {
		if r.Time.After(h.writes[i].Time) {
			break
		}
		if !r.Time.Before(at) {
			text, ok = r.Content, true
		}
	}
	return text, ok
}

// addedLines are the body lines of after that before does not have (a
// multiset difference: a line written twice counts twice), each with where
// it stood.
func addedLines(before, after string) []unit {
	have := map[string]int{}
	for _, k := range splitKeys(before) {
		if !trivialLine(k) {
			have[k]++
		}
	}
	raw := splitLines(after)
	keys := make([]string, len(raw))
	for i, l := range raw {
		keys[i] = strings.TrimSpace(l)
	}
	fmEnd := frontmatterEnd(keys)
	var units []unit
	src := &unitSrc{keys: keys, raw: raw, fmEnd: fmEnd}
	for i, k := range keys {
		if i <= fmEnd || trivialLine(k) {
			// Frontmatter is metadata every rewrite re-serialises and
			// stamps: only body text can be lost.
			continue
		}
		if have[k] > 0 {
			have[k]--
			continue
		}
		units = append(units, unit{text: strings.TrimRight(raw[i], " \t"), key: k, order: i, src: src, at: i})
	}
	return units
}

// anchorAt describes where line i of a text stands: the body lines around
// it, nearest first.
func anchorAt(keys, raw []string, i, fmEnd int) Anchor {
	var a Anchor
	for j := i - 1; j > fmEnd; j-- {
		if !trivialLine(keys[j]) {
			a.Prev = append(a.Prev, strings.TrimRight(raw[j], " \t"))
		}
	}
	for j := i + 1; j < len(keys); j++ {
		if !trivialLine(keys[j]) {
			a.Next = append(a.Next, strings.TrimRight(raw[j], " \t"))
		}
	}
	a.BlankBefore = i-1 > fmEnd && keys[i-1] == ""
	a.BlankAfter = i+1 < len(keys) && keys[i+1] == ""
	return a
}

// editUnits are the lines an Edit added when only its strings are known:
// the lines of each new string its old string did not have. A new string
// with no line break replaced text inside a line, so its unit is a
// fragment, matched as a substring and never put back as a line.
func (h *history) editUnits(w *model.MemWrite) []unit {
	var units []unit
	order := 0
	for _, e := range w.Edits {
		have := map[string]int{}
		for _, k := range splitKeys(e.Old) {
			have[k]++
		}
		raw := splitLines(stripCR(e.New))
		keys := make([]string, len(raw))
		for i, l := range raw {
			keys[i] = strings.TrimSpace(l)
		}
		frag := !strings.Contains(e.New, "\n")
		src := &unitSrc{keys: keys, raw: raw, fmEnd: -1}
		for i, k := range keys {
			order++
			if trivialLine(k) {
				continue
			}
			if have[k] > 0 {
				have[k]--
				continue
			}
			if key := yamlKey(k); key != "" && h.curFMKeys[key] {
				// Most likely a frontmatter field: metadata, not text.
				continue
			}
			units = append(units, unit{text: strings.TrimRight(raw[i], " \t"), key: k, order: order, fragment: frag, src: src, at: i})
		}
	}
	return units
}

// present reports whether the current file still carries the unit written
// by write w, or what it said: the line itself, an index entry to the same
// file, the same words anywhere in the body (moved, re-wrapped, re-listed:
// said), or the same line re-worded, unless the line that looks re-worded
// is the older version w itself replaced (then the newer text is what is
// missing).
func (h *history) present(w int, u *unit) bool {
	if h.has(u, h.current) {
		return true
	}
	if h.curEntries != nil {
		if t := entryTarget(u.text); t != "" {
			return h.curEntries[t]
		}
	}
	if says(h.flow(), u.key) {
		return true
	}
	return h.reworded(w, u)
}

// flow and words are the current body as words, built the first time a
// line is missing: most files with recorded writes have no missing line,
// and building them for every file was most of a warm lint's
// lost-update cost.
func (h *history) flow() string {
	if h.curFlow == nil {
		f := flowWords(h.curBody)
		h.curFlow = &f
	}
	return *h.curFlow
}

func (h *history) words() [][]string {
	if !h.wordsDone {
		h.wordsDone = true
		for _, l := range h.curBody {
			if w := prose.Words(strings.ToLower(l)); len(w) > 0 {
				h.curWords = append(h.curWords, w)
			}
		}
	}
	return h.curWords
}

// reworded reports whether the current file has a line that says nearly
// the same as u (most of the same words): someone edited the line, the
// fact is still there. The older version of u that its own write replaced
// does not count: it is what u superseded, not u re-worded.
func (h *history) reworded(w int, u *unit) bool {
	words := prose.Words(strings.ToLower(u.key))
	if len(words) < 4 {
		return false
	}
	var old map[string]bool // the superseded version's words, worked out when needed
	for _, c := range h.words() {
		if wordJaccard(words, c) < 0.75 {
			continue
		}
		if old == nil {
			old = map[string]bool{}
			for _, r := range h.replaced(w, u) {
				old[strings.Join(prose.Words(r), " ")] = true
			}
		}
		if !old[strings.Join(c, " ")] {
			return true
		}
	}
	return false
}

// flowWords is lines as one run of lower-case words, with "|" where a
// sentence or item ends: text compared this way is the same whatever its
// wrapping, list markers, emphasis, punctuation or case, and a line only
// matches whole sentences ("deploy on Fridays" is not said by "never
// deploy on Fridays"). A line break is no boundary (text re-wrapped reads
// the same); a blank line, a list item, a heading or a quote starts one,
// and so does '.', '!', '?', ';' or ':' that no letter or digit follows.
func flowWords(lines []string) string {
	toks := []string{"|"}
	mark := func() {
		if toks[len(toks)-1] != "|" {
			toks = append(toks, "|")
		}
	}
	var word []rune
	flush := func() {
		if len(word) > 0 {
			toks = append(toks, string(word))
			word = word[:0]
		}
	}
	for _, l := range lines {
		l = strings.TrimSpace(stripCR(l))
		if m := listMarkRe.FindString(l); l == "" || m != "" {
			mark()
			l = l[len(m):]
		}
		rs := []rune(strings.ToLower(l))
		for i, r := range rs {
			if prose.IsWordRune(r) {
				word = append(word, r)
				continue
			}
			flush()
			if strings.ContainsRune(".!?;:", r) && (i+1 == len(rs) || !prose.IsWordRune(rs[i+1])) {
				mark()
			}
		}
		flush()
	}
	mark()
	return strings.Join(toks, " ")
}

// listMarkRe is what starts a list item, a heading or a quote.
var listMarkRe = regexp.MustCompile(`^(?:[-*+]\s+|\d+[.)]\s+|#+\s+|>\s*)`)

// saidMinWords is the fewest words a line needs for says to find it inside
// other text: shorter ones ("Notes", "make ship") turn up by chance, and
// only count when the file has them as a whole line.
const saidMinWords = 3

// says reports whether flow (flowWords of a text) already says line: its
// sentences, whole and in order, anywhere in the text, across line breaks.
// A line the file says is not lost, and a restore never puts it in again.
// Case does not count (a sentence moved into a list loses its capital).
func says(flow, line string) bool {
	if len(prose.Words(line)) < saidMinWords {
		return false
	}
	return strings.Contains(" "+flow+" ", " "+flowWords([]string{line})+" ")
}

// replaced are the body lines write w took out where it put u, knowingly:
// the lines removed in the same changed run of a line diff from the file
// before it to what it left (for an Edit known only by its strings, the
// lines of the old string whose new string holds u that the new string
// dropped), of which its session had seen (sawLine). A stale copy written
// back puts an old line where a newer one stood without having seen the
// newer one: that old line supersedes nothing. Worked out only for lines
// that are missing, so the diff costs nothing on the usual path.
func (h *history) replaced(w int, u *unit) []string {
	var out []string
	for _, r := range h.removedFor(w, u) {
		if h.sawLine(w, strings.TrimSpace(r)) {
			out = append(out, r)
		}
	}
	return out
}

// sawLine reports whether the session (and subagent) of write x had the
// line in front of it when it wrote: in this write's old strings, its own
// earlier writes, or what it read, recalled or was shown.
func (h *history) sawLine(x int, key string) bool {
	xw := &h.writes[x]
	u := &unit{key: key}
	for _, e := range xw.Edits {
		if u.seenIn(e.Old) {
			return true
		}
	}
	for k := 0; k < x; k++ {
		kw := &h.writes[k]
		if !same(kw, xw) {
			continue
		}
		if kw.HasAfter && u.seenIn(kw.After) || h.states[k].exact && u.seenIn(h.states[k].after) {
			return true
		}
		for _, e := range kw.Edits {
			if u.seenIn(e.New) {
				return true
			}
		}
	}
	for _, o := range h.obs {
		if o.Time.After(xw.Time) {
			break
		}
		if o.SessionIs(xw.Session) && o.Agent == xw.Agent && (o.ID == "" || o.ID != xw.ToolUseID) && u.seenIn(o.Content) {
			return true
		}
	}
	return false
}

// removedFor is replaced before the check that the session had seen the
// lines.
func (h *history) removedFor(w int, u *unit) []string {
	ww := &h.writes[w]
	st := &h.states[w]
	if !st.exact && (ww.Kind == model.WriteEdit || ww.Kind == model.WriteMulti) {
		for _, e := range ww.Edits {
			if !strings.Contains(stripCR(e.New), u.key) {
				continue
			}
			keep := map[string]bool{}
			for _, k := range splitKeys(e.New) {
				keep[k] = true
			}
			var out []string
			for _, l := range splitLines(e.Old) {
				if k := strings.TrimSpace(l); !trivialLine(k) && !keep[k] {
					out = append(out, strings.TrimRight(l, " \t"))
				}
			}
			return out
		}
		return nil
	}
	before, ok := "", false
	if ww.HasBefore {
		before, ok = ww.Before, true
	} else if ww.Kind != model.WriteMemtui {
		before, ok = h.knownBefore(w)
	}
	if !ok || !st.exact || before == "" {
		return nil
	}
	lines := diff.Lines(stripCR(before), stripCR(st.after))
	for i := 0; i < len(lines); {
		if lines[i].Op == diff.Same {
			i++
			continue
		}
		j := i
		var dels []string
		hit := false
		for ; j < len(lines) && lines[j].Op != diff.Same; j++ {
			k := strings.TrimSpace(lines[j].Text)
			switch {
			case lines[j].Op == diff.Del && !trivialLine(k):
				dels = append(dels, strings.TrimRight(lines[j].Text, " \t"))
			case lines[j].Op == diff.Add && k == u.key:
				hit = true
			}
		}
		if hit {
			return dels
		}
		i = j
	}
	return nil
}

func wordJaccard(a, b []string) float64 {
	set := map[string]int{}
	for _, w := range a {
		set[w] |= 1
	}
	for _, w := range b {
		set[w] |= 2
	}
	both := 0
	for _, v := range set {
		if v == 3 {
			both++
		}
	}
	return float64(both) / float64(len(set))
}

// entryTarget is the memory file an index line links to, "" when it is
// not an index entry.
func entryTarget(line string) string {
	ix := memindex.ParseText(line)
	if len(ix.Entries) == 0 {
		return ""
	}
	if r, ok := ix.Entries[0].Primary(); ok && r.IsFile() {
		return r.Target
	}
	return ""
}

// outcome is what the walk found for one missing unit.
type outcome struct {
	lost     bool
	culprit  int // index into writes, -1 for none
	definite bool
	clause   string // as it reads in a finding: "overwritten by …" or "possibly: …"
	why      string
}

// lost walks every missing unit from the write that last added it.
func (h *history) lost() []Lost {
	type origin struct{ w, u int }
	last := map[string]origin{}
	for i := range h.states {
		for j := range h.states[i].units {
			last[h.states[i].units[j].key] = origin{i, j}
		}
	}
	type group struct {
		w, culprit int
		clause     string
	}
	groups := map[group]*Lost{}
	var order []group
	units := map[group][]origin{}
	for _, o := range last {
		u := &h.states[o.w].units[o.u]
		if h.present(o.w, u) {
			continue
		}
		oc := h.walk(o.w, u)
		if !oc.lost {
			continue
		}
		g := group{o.w, oc.culprit, oc.clause}
		l := groups[g]
		if l == nil {
			l = &Lost{File: h.rel, Writer: h.writes[o.w], Definite: oc.definite, Why: oc.why, clause: oc.clause}
			if oc.culprit >= 0 {
				c := h.writes[oc.culprit]
				l.Culprit = &c
			}
			groups[g] = l
			order = append(order, g)
		}
		units[g] = append(units[g], o)
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.w != b.w {
			return a.w < b.w
		}
		if a.culprit != b.culprit {
			return a.culprit < b.culprit
		}
		return a.clause < b.clause
	})
	out := make([]Lost, 0, len(order))
	for _, g := range order {
		l := groups[g]
		us := units[g]
		unitOf := func(o origin) *unit { return &h.states[o.w].units[o.u] }
		sort.Slice(us, func(i, j int) bool { return unitOf(us[i]).order < unitOf(us[j]).order })
		for _, o := range us {
			u := unitOf(o)
			a := u.anchor()
			a.Replaces = h.replaced(o.w, u)
			l.Lines = append(l.Lines, u.text)
			l.Anchors = append(l.Anchors, a)
		}
		out = append(out, *l)
	}
	return out
}

// walk follows the writes after w (which added u) to find what dropped u.
func (h *history) walk(w int, u *unit) outcome {
	lastSeen := h.writes[w].Time // the last time u is known to have been in the file
	unknown := -1                // the first write of unknown content since then
	reads := h.fullReads
	for len(reads) > 0 && !reads[0].Time.After(lastSeen) {
		reads = reads[1:]
	}
	for x := w + 1; x < len(h.writes); x++ {
		xw := &h.writes[x]
		// Full reads in between show what the file held.
		for len(reads) > 0 && reads[0].Time.Before(xw.Time) {
			r := reads[0]
			reads = reads[1:]
			if h.has(u, r.Content) {
				lastSeen, unknown = r.Time, -1
				continue
			}
			return h.vanished(unknown, lastSeen, r.Time)
		}
		if !writesText(xw) {
			if unknown < 0 {
				unknown = x
			}
			continue
		}
		st := &h.states[x]
		stale := false
		if xw.HasBefore && !h.has(u, xw.Before) {
			// The file x started from did not have u. Either x worked from
			// a copy older than w (the race), or u was gone before x.
			if xw.Kind == model.WriteMemtui || !h.predates(xw.Before, w) {
				if h.mayHaveSeenUnkept(xw) {
					// Its copy may be one from the history the reader did
					// not keep: which of the two cannot be told.
					return outcome{culprit: -1}
				}
				return h.vanished(unknown, lastSeen, xw.Time)
			}
			stale = true
		}
		switch xw.Kind {
		case model.WriteMemtui:
			// memtui writes only what a person reviewed: text it removes
			// was removed on purpose.
			if !h.hasAfter(st, u) {
				return outcome{culprit: -1}
			}
		case model.WriteEdit, model.WriteMulti:
			if st.exact {
				if h.hasAfter(st, u) {
					break
				}
				if !stale {
					// The file had u and the edit's replacement took it out:
					// the session named that text, so it was deliberate.
					return outcome{culprit: -1}
				}
				return h.overwritten(w, x, u, unknown)
			}
			if touches(xw.Edits, u) && !newKeeps(xw.Edits, u) {
				return outcome{culprit: -1}
			}
			// An edit elsewhere leaves u alone, but says nothing of
			// whether it was still there: keep any doubt.
			continue
		default: // a whole-file write
			if !h.hasAfter(st, u) {
				return h.overwritten(w, x, u, unknown)
			}
		}
		lastSeen, unknown = xw.Time, -1
	}
	for _, r := range reads {
		if h.has(u, r.Content) {
			lastSeen, unknown = r.Time, -1
			continue
		}
		return h.vanished(unknown, lastSeen, r.Time)
	}
	return h.vanished(unknown, lastSeen, time.Time{})
}

// has reports whether a write's after holds the unit.
func (h *history) hasAfter(st *writeState, u *unit) bool { return h.has(u, st.after) }

// predates reports whether text is the file as it was at or before write
// w: a write that started from it had not seen w's change.
func (h *history) predates(text string, w int) bool {
	k := h.looseOf(text)
	for i := 0; i <= w; i++ {
		if h.writes[i].HasBefore && h.looseOf(h.writes[i].Before) == k {
			return true
		}
		if i < w && h.states[i].exact && h.looseOf(h.states[i].after) == k {
			return true
		}
	}
	for _, r := range h.fullReads {
		if r.Time.After(h.writes[w].Time) {
			break
		}
		if h.looseOf(r.Content) == k {
			return true
		}
	}
	return false
}

// overwritten judges write x, which left the file without u: deliberate
// when its writer had seen u, else the lost update.
func (h *history) overwritten(w, x int, u *unit, unknown int) outcome {
	if h.knew(w, x, u) {
		return outcome{culprit: -1}
	}
	xw := &h.writes[x]
	at := fmtTime(xw.Time)
	who := h.who(xw)
	definite := unknown < 0 && h.explained(x)
	if definite {
		return outcome{lost: true, culprit: x, definite: true,
			clause: fmt.Sprintf("overwritten by %s at %s, which had not read it", who, at),
			why:    fmt.Sprintf("%s rewrote the file at %s without having read this text, and every later change to the file is recorded.", capitalize(who), at)}
	}
	extra := "the file changed again afterwards in ways the transcripts do not show"
	if unknown >= 0 {
		extra = h.unknownWhat(&h.writes[unknown]) + " before that"
	}
	return outcome{lost: true, culprit: x,
		clause: fmt.Sprintf("possibly: overwritten by %s at %s, which had not read it, but %s", who, at, extra),
		why:    fmt.Sprintf("%s rewrote the file at %s without having read this text, but %s, so this is not certain.", capitalize(who), at, extra)}
}

// vanished is u gone between from and to with no recorded write that
// dropped it: a write of unknown content in between may have, else
// something outside any recorded session did.
func (h *history) vanished(unknown int, from, to time.Time) outcome {
	if unknown >= 0 {
		uw := &h.writes[unknown]
		what := h.unknownWhat(uw)
		tail := "it may have dropped this"
		if uw.Kind == model.WriteFork && uw.Verb != "" {
			tail = "it may have dropped this on purpose"
		}
		return outcome{lost: true, culprit: unknown,
			clause: "possibly: " + what + "; " + tail,
			why:    capitalize(what) + "; " + tail + "."}
	}
	what := "the file was changed outside any recorded session (an editor, a script or a sync) after " + fmtTime(from)
	if f := h.extractionBetween(from, to); f != nil {
		// Extraction leaves MEMORY.md out of the paths it reports, so
		// its index edits are invisible; when one ran then, say so.
		what = "the file was changed after " + fmtTime(from) + " by no recorded session: Claude Code's background memory extraction ran at " +
			fmtTime(f.Time) + " (it does not report its MEMORY.md edits), or an editor, a script or a sync"
	}
	if !to.IsZero() {
		what += " and before " + fmtTime(to)
	}
	return outcome{lost: true, culprit: -1, clause: "possibly: " + what, why: capitalize(what) + "."}
}

// extractionBetween is the first background extraction that wrote to the
// directory after from (and before to, when set), when the file is the
// index; nil otherwise.
func (h *history) extractionBetween(from, to time.Time) *model.MemWrite {
	if !h.isIndex() {
		return nil
	}
	for i := range h.log.Writes {
		w := &h.log.Writes[i]
		if w.Kind != model.WriteFork || w.Verb != "" || !w.Time.After(from) || !to.IsZero() && !w.Time.Before(to) {
			continue
		}
		if _, ok := relPath(h.d, w.Path); ok {
			return w
		}
	}
	return nil
}

// unknownWhat says what a write of unknown content did, for a reason.
func (h *history) unknownWhat(w *model.MemWrite) string {
	at := fmtTime(w.Time)
	switch w.Kind {
	case model.WriteFork:
		if w.Verb != "" {
			return "Claude Code's background consolidation (autoDream) rewrote the file at " + at
		}
		return "Claude Code's background memory extraction wrote to the file at " + at
	case model.WriteMemtui:
		return "memtui applied a reviewed change to the file at " + at + " (its journal no longer holds the result to compare)"
	case model.WriteShell:
		s := h.who(w) + " ran a shell command on the file at " + at
		if c := strings.TrimSpace(w.Command); c != "" {
			s += " (" + shorten(c, 60) + ")"
		}
		return s
	}
	if w.TextDropped {
		return h.who(w) + " wrote the file at " + at + " and memtui did not keep what (too large, or older than the history it keeps)"
	}
	return h.who(w) + " wrote the file at " + at + " and the transcript does not say what"
}

// knew reports whether the session (and subagent) of write x had seen u
// before writing: its own writing of it, a read, recall, index load or
// changed-file notice that showed it, or its own earlier write naming it.
func (h *history) knew(w, x int, u *unit) bool {
	xw := &h.writes[x]
	if same(&h.writes[w], xw) {
		return true // the session that wrote the text knows it
	}
	if h.mayHaveSeenUnkept(xw) {
		return true
	}
	for k := 0; k < x; k++ {
		kw := &h.writes[k]
		if !same(kw, xw) {
			continue
		}
		if kw.TextDropped {
			return true // what it wrote is not kept: it may have held u
		}
		if kw.HasAfter && u.seenIn(kw.After) {
			return true
		}
		for _, e := range kw.Edits {
			if u.seenIn(e.Old) || u.seenIn(e.New) {
				return true
			}
		}
	}
	for _, o := range h.obs {
		if o.Time.After(xw.Time) {
			break
		}
		if !o.SessionIs(xw.Session) || o.Agent != xw.Agent || o.ID != "" && o.ID == xw.ToolUseID {
			continue
		}
		if o.ContentDropped || u.seenIn(o.Content) {
			// (A content not kept may have held u.)
			return true
		}
		// "Unchanged since last read" after the text was written means
		// the session's last read came after it too, whatever the record
		// holds of that read.
		if o.Kind == model.ObsUnchanged && o.Time.After(h.writes[w].Time) {
			return true
		}
	}
	// Before Claude Code recorded index loads, MEMORY.md went into the
	// system prompt unrecorded: a session that started after the text was
	// written had it in front of it.
	if h.isIndex() && xw.Agent == "" && !h.indexLoads[xw.Session] {
		if s := h.log.Sessions[xw.Session]; s != nil && s.Start.After(h.writes[w].Time) && s.Start.Before(xw.Time) {
			return true
		}
	}
	return false
}

// mayHaveSeenUnkept reports whether the session of write x may have seen
// the file in events the log does not hold: the reader keeps only the
// newest events of a project (log.Since), and a session that was already
// running before them may have read anything then. Taking it to have
// seen the text says less, never something false.
func (h *history) mayHaveSeenUnkept(xw *model.MemWrite) bool {
	if h.log.Since.IsZero() || xw.Kind == model.WriteMemtui {
		return false
	}
	s := h.log.Sessions[xw.Session]
	return s == nil || s.Start.IsZero() || !s.Start.After(h.log.Since)
}

// same reports whether two writes came from the same agent: one session's
// main thread, or one subagent of it.
func same(a, b *model.MemWrite) bool {
	if a.Kind == model.WriteMemtui || b.Kind == model.WriteMemtui || a.Agent != b.Agent {
		return false
	}
	// A fork repeats its parent's writes: either session may have made one.
	if a.SessionIs(b.Session) || b.SessionIs(a.Session) {
		return true
	}
	for _, s := range a.AlsoIn {
		if b.SessionIs(s) {
			return true
		}
	}
	return false
}

// explained reports whether the file on disk is what write x left, or what
// the recorded writes after it made of that: then nothing unrecorded could
// have put the text back or dropped it instead.
func (h *history) explained(x int) bool {
	if v, ok := h.explainMemo[x]; ok {
		return v
	}
	v := h.explain(x)
	h.explainMemo[x] = v
	return v
}

func (h *history) explain(x int) bool {
	st := &h.states[x]
	if !st.exact {
		return false
	}
	state := st.after
	for k := x + 1; k < len(h.writes); k++ {
		kw := &h.writes[k]
		if !writesText(kw) {
			return false
		}
		if kw.HasBefore && h.looseOf(kw.Before) != looseKey(state) {
			return false
		}
		switch {
		case h.states[k].exact && (kw.HasBefore || kw.Kind != model.WriteEdit && kw.Kind != model.WriteMulti):
			state = h.states[k].after
		default:
			after, ok := ApplyEdits(state, kw.Edits)
			if !ok {
				return false
			}
			state = after
		}
	}
	return h.looseOf(state) == h.looseOf(h.current)
}

// touches reports whether an edit named the unit's text: its old string
// holds the unit, or a line of it sits inside the unit.
func touches(edits []model.TextEdit, u *unit) bool {
	for _, e := range edits {
		old := stripCR(e.Old)
		if strings.Contains(old, u.key) {
			return true
		}
		for _, l := range strings.Split(old, "\n") {
			if k := strings.TrimSpace(l); len(k) >= 4 && strings.Contains(u.key, k) {
				return true
			}
		}
	}
	return false
}

// newKeeps reports whether an edit's new strings still hold the unit.
func newKeeps(edits []model.TextEdit, u *unit) bool {
	for _, e := range edits {
		if strings.Contains(stripCR(e.New), u.key) {
			return true
		}
	}
	return false
}

// ApplyEdits applies an Edit's replacements in order, as Claude Code
// does: the first occurrence, or every one with All (an empty old string
// creates the file). ok is false when an old string is not in the text. A file Claude Code edited with its line
// endings normalised is retried without '\r'.
func ApplyEdits(text string, edits []model.TextEdit) (string, bool) {
	if after, ok := replaceAll(text, edits, false); ok {
		return after, true
	}
	if strings.Contains(text, "\r") {
		return replaceAll(stripCR(text), edits, true)
	}
	return "", false
}

func replaceAll(text string, edits []model.TextEdit, noCR bool) (string, bool) {
	for _, e := range edits {
		old, nw := e.Old, e.New
		if noCR {
			old, nw = stripCR(old), stripCR(nw)
		}
		switch {
		case old == "":
			// An Edit with an empty old string creates the file.
			if text != "" {
				return "", false
			}
			text = nw
		case !strings.Contains(text, old):
			return "", false
		case e.All:
			text = strings.ReplaceAll(text, old, nw)
		default:
			text = strings.Replace(text, old, nw, 1)
		}
	}
	return text, true
}

// who names a write's author for a person.
func (h *history) who(w *model.MemWrite) string {
	return WriterName(h.log, w)
}

// WriterName names who made write w, for a message: a session (with its
// title when log has one), a subagent of one, a Claude Code fork or memtui.
func WriterName(log *model.TranscriptLog, w *model.MemWrite) string {
	switch w.Kind {
	case model.WriteMemtui:
		return "memtui (a reviewed proposal)"
	case model.WriteFork:
		if w.Verb != "" {
			return "Claude Code's background consolidation (autoDream)"
		}
		return "Claude Code's background memory extraction"
	}
	if w.Session == "" {
		return "an unknown session"
	}
	s := "session " + ShortSession(w.Session)
	if log != nil {
		if sess := log.Sessions[w.Session]; sess != nil && sess.Title != "" {
			s += fmt.Sprintf(" (\"%s\")", shorten(sess.Title, 60))
		}
	}
	if w.Agent != "" {
		s = "subagent " + ShortSession(w.Agent) + " of " + s
	}
	return s
}

// branchOf is the git branch a write was made on, "" when unknown.
func branchOf(log *model.TranscriptLog, w *model.MemWrite) string {
	if w.Branch != "" {
		return w.Branch
	}
	if log != nil {
		if s := log.Sessions[w.Session]; s != nil {
			return s.Branch
		}
	}
	return ""
}

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") + " UTC" }

// shorten cuts s to about n characters, at a rune boundary, with "…", for
// a message. Secrets are masked before the cut (as clip does).
func shorten(s string, n int) string {
	s = secrets.Default().MaskSecrets(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// capitalize starts a sentence with s (memtui keeps its lower case).
func capitalize(s string) string {
	if strings.HasPrefix(s, "memtui") {
		return s
	}
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

func stripCR(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(s, "\r", "")
}

// splitLines splits text into lines without their endings ('\r' kept off
// too); a final line ending adds no empty line.
func splitLines(text string) []string {
	text = strings.TrimSuffix(stripCR(text), "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// splitKeys is splitLines with each line trimmed: the form lines are
// compared in (indentation and trailing spaces change when a file is
// re-serialised; the text does not).
func splitKeys(text string) []string {
	lines := splitLines(text)
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	if len(lines) > 0 {
		lines[0] = strings.TrimPrefix(lines[0], "\ufeff")
	}
	return lines
}

func lineKeys(text string) map[string]bool {
	m := map[string]bool{}
	for _, k := range splitKeys(text) {
		m[k] = true
	}
	return m
}

// looseKey is text reduced to what comparisons of whole files look at:
// its non-trivial lines, trimmed, in order. Stamping (modified,
// originSessionId) and re-serialised whitespace do not make two versions
// differ.
func looseKey(text string) string {
	var b strings.Builder
	for _, k := range splitKeys(text) {
		if !trivialLine(k) {
			b.WriteString(k)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// trivialLine reports whether a trimmed line is no text of its own: blank,
// a fence or rule, punctuation only, or one of the frontmatter lines Claude
// Code stamps on every write.
func trivialLine(k string) bool {
	if k == "" || k == "metadata:" {
		return true
	}
	for _, p := range []string{"modified:", "originSessionId:", "node_type:"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	for _, r := range k {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// frontmatterEnd is the index of the closing fence of a leading
// frontmatter block in trimmed lines, -1 when there is none.
func frontmatterEnd(keys []string) int {
	if len(keys) == 0 || strings.TrimPrefix(keys[0], "\ufeff") != "---" {
		return -1
	}
	for i := 1; i < len(keys) && i < model.FrontmatterMaxLines; i++ {
		if keys[i] == "---" {
			return i
		}
	}
	return -1
}

var yamlKeyRe = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*):(\s|$)`)

// yamlKey is the key of a line that reads like a YAML field, else "".
func yamlKey(k string) string {
	if m := yamlKeyRe.FindStringSubmatch(k); m != nil {
		return m[1]
	}
	return ""
}

package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// keyedWrite carries a write's dedupe key: the tool_use id, else the
// line's uuid (transcripts §5.3). MemWrite has no field for a line uuid
// (an observation's ID is its key).
type keyedWrite struct {
	Key string
	// Seq is the event's place in its file and Text the bytes of text it
	// was found with (before any trim): see bound.go.
	Seq  int64
	Text int64
	W    model.MemWrite
}

// keyedObs is an observation with its place and text size.
type keyedObs struct {
	Seq  int64
	Text int64
	O    model.MemObservation
}

// pendingUse is a tool call on a memory file waiting for its result: only
// a successful result makes it a write or a read (§3.2).
type pendingUse struct {
	ID     string
	Name   string
	Paths  []string // memory files it names (a Bash command may name several)
	Input  toolInput
	Offset int64 // file offset of the call's line
	// Dropped is set when the input's text was over what is kept (a text
	// over maxMemText, or the file's pending calls over maxPendingText):
	// the call is still paired with its result, without that text.
	Dropped bool
}

// text is how many bytes of text a call's input holds.
func (in *toolInput) text() int {
	n := len(in.OldString) + len(in.NewString) + len(in.Command)
	if in.Content != nil {
		n += len(*in.Content)
	}
	for _, e := range in.Edits {
		n += len(e.OldString) + len(e.NewString) + len(e.OldCamel) + len(e.NewCamel)
	}
	return n
}

// dropText empties the input's texts (the path and numbers stay).
func (in *toolInput) dropText() {
	in.Content, in.OldString, in.NewString, in.Edits = nil, "", "", nil
}

// maxPending bounds the calls kept waiting in one file: a result comes
// within a few lines, so only aborted calls stay, and few of them.
const maxPending = 256

// lineRec is the part of a transcript line the reader uses (§1.3). Every
// field is optional; a field of an unexpected type is left empty.
type lineRec struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	UUID        string `json:"uuid"`
	Timestamp   string `json:"timestamp"`
	SessionID   string `json:"sessionId"`
	SessionIDSn string `json:"session_id"` // newer background files (§1.3)
	AgentID     string `json:"agentId"`
	IsSidechain bool   `json:"isSidechain"`
	Cwd         string `json:"cwd"`
	GitBranch   string `json:"gitBranch"`
	Version     string `json:"version"`
	Message     struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	ToolUseResult  json.RawMessage `json:"toolUseResult"`
	Attachment     json.RawMessage `json:"attachment"`
	WrittenPaths   []string        `json:"writtenPaths"`
	WrittenPathsSn []string        `json:"written_paths"`
	Verb           string          `json:"verb"`
	CustomTitle    string          `json:"customTitle"`
	AITitle        string          `json:"aiTitle"`
	Summary        json.RawMessage `json:"summary"`
}

// block is one item of message.content.
type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   semBool         `json:"is_error"`
	Text      string          `json:"text"`
}

// toolInput holds the inputs of the tools that touch memory files (§2).
type toolInput struct {
	FilePath   string     `json:"file_path"`
	Content    *string    `json:"content"`
	OldString  string     `json:"old_string"`
	NewString  string     `json:"new_string"`
	ReplaceAll semBool    `json:"replace_all"`
	Edits      []editSpec `json:"edits"`
	Command    string     `json:"command"`
	Store      *string    `json:"store"`
	Path       string     `json:"path"`
	Offset     semInt     `json:"offset"`
	Limit      semInt     `json:"limit"`
}

// editSpec is one edit of MultiEdit, in the input's snake_case or the
// result's camelCase.
type editSpec struct {
	OldString  string  `json:"old_string"`
	NewString  string  `json:"new_string"`
	ReplaceAll semBool `json:"replace_all"`
	OldCamel   string  `json:"oldString"`
	NewCamel   string  `json:"newString"`
	AllCamel   semBool `json:"replaceAll"`
}

func (e editSpec) edit() model.TextEdit {
	return model.TextEdit{Old: e.OldString + e.OldCamel, New: e.NewString + e.NewCamel, All: bool(e.ReplaceAll || e.AllCamel)}
}

// semBool accepts true, "true" and anything else as false: the model
// sends "semantic booleans" as strings (§2).
type semBool bool

func (b *semBool) UnmarshalJSON(d []byte) error {
	s := strings.Trim(string(d), `"`)
	*b = semBool(s == "true")
	return nil
}

// semInt accepts a number or a numeric string.
type semInt int

func (n *semInt) UnmarshalJSON(d []byte) error {
	v, _ := strconv.ParseFloat(strings.Trim(string(d), `"`), 64)
	*n = semInt(v)
	return nil
}

// extractor turns the decoded lines of one transcript into events.
type extractor struct {
	mem     *memMatcher
	file    transcriptFile
	st      *fileState
	run     *scanRun
	pending map[string]*pendingUse
	intern  map[string]string
	// lineOff and lineLen place the line being handled in the file, for
	// orphan; only is set while an orphan line is handled again for the
	// call just seen, and names that call.
	lineOff int64
	lineLen int
	only    string
}

func newExtractor(mem *memMatcher, tf transcriptFile, st *fileState, r *scanRun) *extractor {
	x := &extractor{mem: mem, file: tf, st: st, run: r, pending: make(map[string]*pendingUse), intern: make(map[string]string)}
	for _, p := range st.Pending {
		x.pending[p.ID] = p
	}
	return x
}

// decodeLine decodes a line; a value of the wrong type for a field only
// empties that field, a line that is not JSON is skipped.
func decodeLine(line []byte, v any) bool {
	err := json.Unmarshal(line, v)
	var te *json.UnmarshalTypeError
	return err == nil || errors.As(err, &te)
}

// handleMeta reads the session fields of the first message line.
func (x *extractor) handleMeta(line []byte) {
	var rec struct {
		Timestamp   string `json:"timestamp"`
		SessionID   string `json:"sessionId"`
		SessionIDSn string `json:"session_id"`
		Cwd         string `json:"cwd"`
		GitBranch   string `json:"gitBranch"`
		Version     string `json:"version"`
	}
	if !decodeLine(line, &rec) {
		return
	}
	x.meta(rec.Cwd, rec.GitBranch, rec.Version, firstNonEmpty(rec.SessionID, rec.SessionIDSn), rec.Timestamp)
}

func (x *extractor) meta(cwd, branch, version, session, ts string) {
	m := &x.st.Meta
	t, ok := parseTime(ts)
	if ok {
		if m.First.IsZero() || t.Before(m.First) {
			m.First = t
		}
		if t.After(m.Last) {
			m.Last = t
		}
	}
	if !m.HasFirst && cwd != "" {
		m.HasFirst = true
		m.Cwd, m.Branch, m.Version, m.SessionID, m.Start = cwd, branch, version, session, t
		x.run.maybeRelative(cwd)
	}
}

// handle decodes a line that can matter and records what it says.
func (x *extractor) handle(line []byte, lineNo int) {
	var rec lineRec
	if !decodeLine(bytes.TrimSuffix(line, []byte("\r")), &rec) {
		// Only a line that can name a memory event gets here: one that
		// is not JSON may be a write or read lost, so it is said.
		x.st.addProblem("line %d is not JSON and was skipped", lineNo)
		return
	}
	x.meta(rec.Cwd, rec.GitBranch, rec.Version, firstNonEmpty(rec.SessionID, rec.SessionIDSn), rec.Timestamp)
	if rec.Type == "progress" {
		return // nests copies of subagent messages (§1.4): never counted
	}
	switch rec.Type {
	case "custom-title":
		x.st.Meta.CustomTitle = firstNonEmpty(rec.CustomTitle, x.st.Meta.CustomTitle)
	case "ai-title":
		x.st.Meta.AITitle = firstNonEmpty(rec.AITitle, x.st.Meta.AITitle)
	case "summary":
		var s string
		if json.Unmarshal(rec.Summary, &s) == nil && s != "" {
			x.st.Meta.Summary = s
		}
	case "assistant":
		for _, b := range contentBlocks(rec.Message.Content) {
			if b.Type == "tool_use" {
				x.toolUse(&rec, &b)
			}
		}
	case "user":
		x.toolResults(&rec, contentBlocks(rec.Message.Content), lineNo)
	case "system":
		if rec.Subtype == "memory_saved" {
			x.forkWrites(&rec, lineNo)
		}
	case "attachment":
		x.attachment(&rec, lineNo)
	}
}

func contentBlocks(raw json.RawMessage) []block {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var bs []block
	var te *json.UnmarshalTypeError
	if err := json.Unmarshal(raw, &bs); err != nil && !errors.As(err, &te) {
		return nil
	}
	return bs
}

// toolUse records a call on a memory file as pending.
func (x *extractor) toolUse(rec *lineRec, b *block) {
	if b.ID == "" {
		return
	}
	var in toolInput
	if !decodeLine(b.Input, &in) {
		return
	}
	pu := &pendingUse{ID: b.ID, Name: b.Name, Input: in, Offset: x.run.base + int64(x.run.pos)}
	if len(in.Command) > maxMemText {
		pu.Input.Command = in.Command[:maxMemText] // only the paths it names are used
	}
	switch {
	case b.Name == storeRead && in.Store != nil:
		if p, ok := x.mem.storePath(*in.Store, in.Path); ok {
			pu.Paths = []string{p}
		}
	case in.Store != nil && in.Path != "" && in.Content != nil:
		if p, ok := x.mem.storePath(*in.Store, in.Path); ok {
			pu.Name, pu.Paths = storeTool, []string{p}
		}
	case b.Name == "Write" || b.Name == "Edit" || b.Name == "MultiEdit" || b.Name == "Read":
		if p, ok := x.mem.path(in.FilePath, rec.Cwd); ok {
			pu.Paths = []string{p}
		}
	case b.Name == "Bash":
		pu.Paths = shellWrites(in.Command, func(p string) (string, bool) { return x.mem.path(p, rec.Cwd) })
	}
	if len(pu.Paths) > 0 {
		x.boundInput(pu)
		x.addPending(pu)
		x.pairOrphan(pu.ID)
	}
}

// boundInput drops a pending call's input text when it is over what a
// memory file can hold, or when the file's waiting calls already hold
// maxPendingText: a call whose result never comes must not keep its input
// whole (40 pending 25 MB Writes once took 6 GB).
func (x *extractor) boundInput(pu *pendingUse) {
	in := &pu.Input
	big := in.Content != nil && len(*in.Content) > maxMemText || len(in.OldString) > maxMemText || len(in.NewString) > maxMemText
	for _, e := range in.Edits {
		big = big || len(e.OldString)+len(e.OldCamel) > maxMemText || len(e.NewString)+len(e.NewCamel) > maxMemText
	}
	if !big {
		held := 0
		for _, p := range x.pending {
			held += p.Input.text()
		}
		big = held+in.text() > maxPendingText
	}
	if big {
		cmd := in.Command
		in.dropText()
		in.Command = cmd
		pu.Dropped = true
	}
}

// storeTool names a memory-store write: memory_write (claude-memory-format
// §12.3), or any other call with store, path and content (§2). storeRead
// is the store's read tool. memory_list is not a use of any memory: it
// shows names and sizes, never a memory's text.
const (
	storeTool = "memory-store"
	storeRead = "memory_read"
)

func (x *extractor) isPending(id []byte) bool {
	_, ok := x.pending[string(id)]
	return ok
}

func (x *extractor) addPending(pu *pendingUse) {
	if _, ok := x.pending[pu.ID]; !ok && len(x.pending) >= maxPending {
		x.dropOldestPending()
	}
	x.pending[pu.ID] = pu
	x.run.watch(pu.ID, pu.Offset)
}

func (x *extractor) dropOldestPending() {
	var old *pendingUse
	for _, p := range x.pending {
		if old == nil || p.Offset < old.Offset {
			old = p
		}
	}
	delete(x.pending, old.ID)
	x.run.unwatch(old.ID)
}

// savePending keeps the calls still waiting in the state, in file order,
// for the next call to go on with (a live session's result may not be
// written yet).
func (x *extractor) savePending() {
	x.st.Pending = x.st.Pending[:0]
	for _, p := range x.pending {
		x.st.Pending = append(x.st.Pending, p)
	}
	sort.Slice(x.st.Pending, func(i, j int) bool { return x.st.Pending[i].Offset < x.st.Pending[j].Offset })
}

// toolResults pairs the line's tool_result blocks with pending calls.
func (x *extractor) toolResults(rec *lineRec, blocks []block, lineNo int) {
	n := 0
	for i := range blocks {
		if blocks[i].Type == "tool_result" {
			n++
		}
	}
	for i := range blocks {
		b := &blocks[i]
		if b.Type != "tool_result" {
			continue
		}
		// The top-level toolUseResult belongs to the block only when the
		// line has exactly one (§1.4).
		var tur json.RawMessage
		if n == 1 {
			tur = bytes.TrimSpace(rec.ToolUseResult)
		}
		x.result(rec, b, tur, lineNo)
	}
}

func (x *extractor) result(rec *lineRec, b *block, tur json.RawMessage, lineNo int) {
	if x.only != "" && b.ToolUseID != x.only {
		return // a re-read orphan line: only the block its call was waiting for
	}
	pu := x.pending[b.ToolUseID]
	if pu == nil && x.only == "" && b.ToolUseID != "" {
		x.orphan([]byte(b.ToolUseID), x.lineOff, x.lineLen, lineNo)
	}
	if pu != nil {
		delete(x.pending, b.ToolUseID)
		x.run.unwatch(b.ToolUseID)
	}
	text := blockText(b.Content)
	if bool(b.IsError) || strings.HasPrefix(text, "<tool_use_error>") {
		return
	}
	// On the main thread a failed call's toolUseResult is the error
	// string; subagents have none at all (§3.2).
	if len(tur) > 0 && tur[0] == '"' {
		return
	}
	if bytes.Contains(tur, []byte(`"bashEditDiff"`)) {
		x.bashEditDiff(rec, b.ToolUseID, pu, tur, lineNo)
	}
	if pu == nil {
		return
	}
	ev := x.event(rec, pu.ID, lineNo)
	paths := pu.Paths
	if len(paths) == 1 {
		paths = []string{x.resultPath(pu, paths[0], tur, rec.Cwd)}
	}
	for _, p := range paths {
		x.applied(ev, pu, p, tur, text)
	}
}

// resultPath is the file a Write, Edit, MultiEdit or Read call acted on:
// the result's filePath (file.filePath for Read) when it lands in a memory
// dir, else the input's path p. Claude Code echoes the input string there
// (transcripts §2), but the study of real transcripts once reported a
// result path with a drive letter its input lacked (§9.2, UNCONFIRMED):
// the result names the file the tool really opened, so it wins.
func (x *extractor) resultPath(pu *pendingUse, p string, tur json.RawMessage, cwd string) string {
	switch pu.Name {
	case "Write", "Edit", "MultiEdit", "Read":
	default:
		return p
	}
	if len(tur) == 0 || tur[0] != '{' {
		return p
	}
	var r struct {
		FilePath string `json:"filePath"`
		File     struct {
			FilePath string `json:"filePath"`
		} `json:"file"`
	}
	if !decodeLine(tur, &r) {
		return p
	}
	if q, ok := x.mem.path(firstNonEmpty(r.FilePath, r.File.FilePath), firstNonEmpty(cwd, x.st.Meta.Cwd)); ok {
		return x.in(q)
	}
	return p
}

// event is the provenance every event of a line shares (§7 rule 2).
type event struct {
	id, session, agent   string
	t                    time.Time
	cwd, branch, version string
	line                 int
}

func (x *extractor) event(rec *lineRec, id string, lineNo int) event {
	t, _ := parseTime(rec.Timestamp)
	ev := event{id: firstNonEmpty(id, rec.UUID), t: t, agent: rec.AgentID, cwd: rec.Cwd, branch: rec.GitBranch, version: rec.Version, line: lineNo}
	if x.file.main {
		ev.session = x.file.session // forks re-stamp sessionId; the file is the session
	} else {
		ev.session = firstNonEmpty(rec.SessionID, rec.SessionIDSn, x.file.session)
		ev.agent = firstNonEmpty(rec.AgentID, x.file.agent)
	}
	ev.session, ev.agent, ev.cwd, ev.branch, ev.version = x.in(ev.session), x.in(ev.agent), x.in(ev.cwd), x.in(ev.branch), x.in(ev.version)
	return ev
}

// maxIntern bounds the strings one file's extractor shares.
const maxIntern = 1024

// in returns one shared copy of a string events repeat (the session, the
// cwd, a memory file's path): every event holding its own copy made a
// write-dense transcript's events twice as large.
func (x *extractor) in(s string) string {
	if s == "" {
		return s
	}
	if v, ok := x.intern[s]; ok {
		return v
	}
	if len(x.intern) < maxIntern {
		x.intern[s] = s
	}
	return s
}

func (x *extractor) write(ev event, key string, w model.MemWrite) {
	w.Session, w.Agent, w.Time = ev.session, ev.agent, ev.t
	w.Cwd, w.Branch, w.Version = ev.cwd, ev.branch, ev.version
	w.Transcript, w.Line, w.Path = x.file.path, ev.line, x.in(w.Path)
	boundWrite(&w)
	kw := keyedWrite{Key: key, Seq: x.st.Seq, Text: writeText(&w), W: w}
	x.st.Seq++
	x.st.Writes = append(x.st.Writes, kw)
	x.kept(kw.key(x.file.path), kw.Text)
}

func (x *extractor) observe(ev event, o model.MemObservation) {
	o.Session, o.Agent, o.Time, o.ID = ev.session, ev.agent, ev.t, ev.id
	o.Transcript, o.Line, o.Path = x.file.path, ev.line, x.in(o.Path)
	if c, ok := capText(o.Content); !ok {
		o.Content, o.Full, o.ContentDropped = c, false, true
	}
	ko := keyedObs{Seq: x.st.Seq, Text: int64(len(o.Content)), O: o}
	x.st.Seq++
	x.st.Obs = append(x.st.Obs, ko)
	x.kept(ko.key(x.file.path), ko.Text)
}

// kept tells the project's keeper of an event, and trims the file's
// events every trimEvery of them, so a file dense with memory events
// holds no more than the keeper lets through.
func (x *extractor) kept(k evKey, text int64) {
	keep := x.run.sc.keep
	keep.add(k, text)
	if x.st.Seq%trimEvery == 0 {
		x.st.trim(keep.cuts())
	}
}

// boundWrite drops a write's text when any part of it is over
// maxMemText: the write happened, what it left is not kept.
func boundWrite(w *model.MemWrite) {
	big := len(w.Before) > maxMemText || len(w.After) > maxMemText
	for _, e := range w.Edits {
		big = big || len(e.Old) > maxMemText || len(e.New) > maxMemText
	}
	if big {
		dropWriteText(w)
	}
}

// applied records a successful call on path p.
func (x *extractor) applied(ev event, pu *pendingUse, p string, tur json.RawMessage, text string) {
	switch pu.Name {
	case "Write":
		x.fullWrite(ev, pu, p, tur, text)
	case "Edit":
		x.editWrite(ev, pu, p, tur)
	case "MultiEdit":
		x.multiWrite(ev, pu, p, tur)
	case storeTool:
		w := model.MemWrite{Path: p, Kind: model.WriteStore, ToolUseID: pu.ID, TextDropped: pu.Dropped}
		var r storeResult
		if len(tur) > 0 && decodeLine(tur, &r) && r.Outcome != "" && r.Outcome != "ok" {
			return // a conflict or refusal wrote nothing (§12.3)
		}
		if r.Content != nil {
			// What the store saved, after its own clean-up of the text.
			w.After, w.HasAfter, w.TextDropped = *r.Content, true, false
		} else if c := pu.Input.Content; c != nil {
			w.After, w.HasAfter = *c, true
		}
		x.write(ev, pu.ID, w)
		if w.HasAfter {
			x.observe(ev, model.MemObservation{Path: p, Kind: model.ObsWrote, Content: w.After, Full: true})
		}
	case "Bash":
		// Whether the command removed the file is decided here, where
		// its words are placed as the paths were (by the memory dir's
		// tail, relative to the cwd, either slash): a comparison of the
		// words with the file's path on this disk fails for a config dir
		// seen from elsewhere (a copied tree, WSL, Windows transcripts).
		cwd := firstNonEmpty(ev.cwd, x.st.Meta.Cwd)
		del := ShellDeletes(pu.Input.Command, func(word string) bool {
			q, ok := x.mem.path(word, cwd)
			return ok && q == p
		})
		x.write(ev, pu.ID, model.MemWrite{Path: p, Kind: model.WriteShell, ToolUseID: pu.ID, Command: pu.Input.Command, Deleted: del})
	case "Read":
		x.read(ev, pu, p, tur, text)
	case storeRead:
		x.storeRead(ev, p, tur, text)
	}
}

// storeResult is memory_write's and memory_read's toolUseResult
// (claude-memory-format §12.3).
type storeResult struct {
	Outcome string  `json:"outcome"`
	Content *string `json:"content"`
}

// storeRead records a memory_read of the personal store: what it showed is
// the result's content, else the text after the "[updated: …]" line.
func (x *extractor) storeRead(ev event, p string, tur json.RawMessage, text string) {
	o := model.MemObservation{Path: p, Kind: model.ObsRead, Full: true}
	var r storeResult
	switch {
	case len(tur) > 0 && decodeLine(tur, &r) && r.Outcome != "":
		if r.Outcome != "ok" || r.Content == nil {
			return // not_found, refused, failed: nothing was shown
		}
		o.Content = *r.Content
	default:
		i := strings.Index(text, "\n[updated: ")
		if i < 0 {
			return
		}
		rest := text[i+1:]
		j := strings.IndexByte(rest, '\n')
		if j < 0 {
			return
		}
		o.Content = rest[j+1:]
	}
	x.observe(ev, o)
}

// writeResult is Write's toolUseResult (§3.2).
type writeResult struct {
	Type         string  `json:"type"`
	Content      *string `json:"content"`
	OriginalFile *string `json:"originalFile"`
	UserModified bool    `json:"userModified"`
}

func (x *extractor) fullWrite(ev event, pu *pendingUse, p string, tur json.RawMessage, text string) {
	w := model.MemWrite{Path: p, Kind: model.WriteFull, ToolUseID: pu.ID}
	var r writeResult
	if len(tur) > 0 && decodeLine(tur, &r) && r.Content != nil {
		w.After, w.HasAfter = *r.Content, true
		w.Created, w.UserModified = r.Type == "create", r.UserModified
		if r.OriginalFile != nil {
			w.Before, w.HasBefore = *r.OriginalFile, true
		}
	} else if pu.Input.Content != nil {
		w.After, w.HasAfter = *pu.Input.Content, true
		w.Created = strings.HasPrefix(text, "File created successfully")
	} else if pu.Dropped {
		w.TextDropped = true
		w.Created = strings.HasPrefix(text, "File created successfully")
	}
	if w.Created {
		w.Before, w.HasBefore = "", true
	}
	x.write(ev, pu.ID, w)
	if w.HasAfter {
		x.observe(ev, model.MemObservation{Path: p, Kind: model.ObsWrote, Content: w.After, Full: true})
	}
}

// editResult is Edit's toolUseResult; originalFile may be null (§3.2).
type editResult struct {
	OldString    *string `json:"oldString"`
	NewString    string  `json:"newString"`
	OriginalFile *string `json:"originalFile"`
	ReplaceAll   semBool `json:"replaceAll"`
	UserModified bool    `json:"userModified"`
}

func (x *extractor) editWrite(ev event, pu *pendingUse, p string, tur json.RawMessage) {
	w := model.MemWrite{Path: p, Kind: model.WriteEdit, ToolUseID: pu.ID}
	var r editResult
	if len(tur) > 0 && decodeLine(tur, &r) && r.OldString != nil {
		w.Edits = []model.TextEdit{{Old: *r.OldString, New: r.NewString, All: bool(r.ReplaceAll)}}
		w.UserModified = r.UserModified
		if r.OriginalFile != nil {
			w.Before, w.HasBefore = *r.OriginalFile, true
		}
	} else if pu.Dropped {
		w.TextDropped = true
	} else {
		in := &pu.Input
		w.Edits = []model.TextEdit{{Old: in.OldString, New: in.NewString, All: bool(in.ReplaceAll)}}
	}
	x.write(ev, pu.ID, w)
	if len(w.Edits) > 0 {
		x.observe(ev, model.MemObservation{Path: p, Kind: model.ObsWrote, Content: w.Edits[0].New})
	}
}

// multiResult is the legacy MultiEdit's toolUseResult (§3.2, unconfirmed).
type multiResult struct {
	Edits                []editSpec `json:"edits"`
	OriginalFileContents *string    `json:"originalFileContents"`
	UserModified         bool       `json:"userModified"`
}

func (x *extractor) multiWrite(ev event, pu *pendingUse, p string, tur json.RawMessage) {
	w := model.MemWrite{Path: p, Kind: model.WriteMulti, ToolUseID: pu.ID}
	var r multiResult
	edits := pu.Input.Edits
	if len(tur) > 0 && decodeLine(tur, &r) {
		if len(r.Edits) > 0 {
			edits = r.Edits
		}
		if r.OriginalFileContents != nil {
			w.Before, w.HasBefore = *r.OriginalFileContents, true
		}
		w.UserModified = r.UserModified
	}
	var news []string
	for _, e := range edits {
		te := e.edit()
		w.Edits = append(w.Edits, te)
		news = append(news, te.New)
	}
	if len(edits) == 0 && pu.Dropped {
		w.TextDropped, w.Before, w.HasBefore = true, "", false
	}
	x.write(ev, pu.ID, w)
	if len(w.Edits) > 0 {
		x.observe(ev, model.MemObservation{Path: p, Kind: model.ObsWrote, Content: strings.Join(news, "\n")})
	}
}

// readResult is Read's toolUseResult (§3.2).
type readResult struct {
	Type string `json:"type"`
	File struct {
		Content    *string `json:"content"`
		NumLines   int     `json:"numLines"`
		StartLine  int     `json:"startLine"`
		TotalLines int     `json:"totalLines"`
		// TruncatedByTokenCap marks a read Claude Code cut to its token
		// cap: its line counts may still read as whole (transcripts §6).
		TruncatedByTokenCap bool `json:"truncatedByTokenCap"`
	} `json:"file"`
}

// unchangedStub begins the text of a re-read answered from context (§3.1).
const unchangedStub = "File unchanged since last read"

// readDefaultLimit is Read's default line limit: a subagent read without
// offset or limit that returned fewer lines saw the whole file.
const readDefaultLimit = 2000

func (x *extractor) read(ev event, pu *pendingUse, p string, tur json.RawMessage, text string) {
	o := model.MemObservation{Path: p, Kind: model.ObsRead}
	var r readResult
	switch {
	case len(tur) > 0 && decodeLine(tur, &r) && r.Type != "":
		switch {
		case r.Type == "file_unchanged":
			o.Kind = model.ObsUnchanged
		case r.Type == "text" && r.File.Content != nil:
			o.Content = *r.File.Content
			o.Full = r.File.StartLine == 1 && r.File.NumLines == r.File.TotalLines && !r.File.TruncatedByTokenCap
		default:
			return // an image, a PDF: not memory text
		}
	case strings.HasPrefix(text, unchangedStub):
		o.Kind = model.ObsUnchanged
	default:
		// A subagent's read: only the numbered text (§3.1).
		o.Content = stripReadText(text)
		o.Full = pu.Input.Offset <= 1 && pu.Input.Limit == 0 && strings.Count(o.Content, "\n") < readDefaultLimit
	}
	x.observe(ev, o)
}

// bashEditDiff records the files a Bash command's result says it changed
// (2.1.269+, §2), whether or not the command named them.
func (x *extractor) bashEditDiff(rec *lineRec, id string, pu *pendingUse, tur json.RawMessage, lineNo int) {
	var r struct {
		BashEditDiff struct {
			Files []struct {
				FilePath string `json:"filePath"`
				Created  bool   `json:"created"`
				Deleted  bool   `json:"deleted"`
			} `json:"files"`
		} `json:"bashEditDiff"`
	}
	if !decodeLine(tur, &r) {
		return
	}
	ev := x.event(rec, id, lineNo)
	for _, f := range r.BashEditDiff.Files {
		p, ok := x.mem.path(f.FilePath, rec.Cwd)
		if !ok {
			continue
		}
		// The result says what the command did to each file (§2: created?,
		// deleted?), which its words may not.
		w := model.MemWrite{Path: p, Kind: model.WriteShell, ToolUseID: id, Created: f.Created && !f.Deleted, Deleted: f.Deleted}
		if pu != nil {
			w.Command = pu.Input.Command
		}
		x.write(ev, firstNonEmpty(id, rec.UUID), w)
	}
}

// forkWrites records a background fork's memory_saved line: which files
// it wrote, not what (§4.4).
func (x *extractor) forkWrites(rec *lineRec, lineNo int) {
	ev := x.event(rec, "", lineNo)
	key := rec.UUID
	if key == "" {
		key = x.file.path + ":" + strconv.Itoa(lineNo)
	}
	for _, wp := range append(rec.WrittenPaths, rec.WrittenPathsSn...) {
		if p, ok := x.mem.path(wp, rec.Cwd); ok {
			x.write(ev, key, model.MemWrite{Path: p, Kind: model.WriteFork, Verb: rec.Verb})
		}
	}
}

// attachmentRec holds the attachment types that show memory content (§4).
type attachmentRec struct {
	Type     string `json:"type"`
	Memories []struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	} `json:"memories"`
	Files []struct {
		Path    string `json:"path"`
		Type    string `json:"type"`
		Content string `json:"content"`
	} `json:"files"`
	Filename string `json:"filename"`
	Snippet  string `json:"snippet"`
}

func (x *extractor) attachment(rec *lineRec, lineNo int) {
	var a attachmentRec
	if len(rec.Attachment) == 0 || !decodeLine(rec.Attachment, &a) {
		return
	}
	ev := x.event(rec, "", lineNo)
	switch a.Type {
	case "relevant_memories":
		for _, m := range a.Memories {
			if strings.HasPrefix(m.Path, "<synthesis:") {
				continue
			}
			if p, ok := x.mem.path(m.Path, rec.Cwd); ok {
				x.observe(ev, model.MemObservation{Path: p, Kind: model.ObsRecall, Content: m.Content})
			}
		}
	case "instructions":
		for _, f := range a.Files {
			if f.Type != "AutoMem" {
				continue
			}
			if p, ok := x.mem.path(f.Path, rec.Cwd); ok {
				x.observe(ev, model.MemObservation{Path: p, Kind: model.ObsIndexLoad, Content: f.Content, Full: true})
			}
		}
	case "edited_text_file":
		if p, ok := x.mem.path(a.Filename, rec.Cwd); ok {
			x.observe(ev, model.MemObservation{Path: p, Kind: model.ObsChanged, Content: stripLineNumbers(a.Snippet)})
		}
	}
}

// blockText is a tool_result's content as text: a string, or its text
// blocks joined.
func blockText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

const (
	reminderOpen  = "<system-reminder>"
	reminderClose = "</system-reminder>"
)

// stripReadText turns a Read tool_result's text back into the file's
// content: system reminders around it go, then the line-number prefixes.
func stripReadText(s string) string {
	for strings.HasPrefix(strings.TrimLeft(s, " \n"), reminderOpen) {
		s = strings.TrimLeft(s, " \n")
		end := strings.Index(s, reminderClose)
		if end < 0 {
			return ""
		}
		s = strings.TrimLeft(s[end+len(reminderClose):], "\n")
	}
	if i := strings.LastIndex(s, reminderOpen); i >= 0 && strings.HasSuffix(strings.TrimRight(s, " \n"), reminderClose) {
		s = strings.TrimRight(s[:i], "\n")
	}
	return stripLineNumbers(s)
}

// stripLineNumbers removes Read's line-number prefixes: "N\t" (newer) or
// "%6d→" (older) (§3.1). A line without one is kept as it is.
func stripLineNumbers(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		j := 0
		for j < len(l) && l[j] == ' ' {
			j++
		}
		k := j
		for k < len(l) && l[k] >= '0' && l[k] <= '9' {
			k++
		}
		if k == j {
			continue
		}
		switch {
		case strings.HasPrefix(l[k:], "\t"):
			lines[i] = l[k+1:]
		case strings.HasPrefix(l[k:], "→"):
			lines[i] = l[k+len("→"):]
		}
	}
	return strings.Join(lines, "\n")
}

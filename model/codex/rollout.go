package codex

// A Codex session rollout, read for what it says about the memory store
// (codex facts §6.1): which memory files the session read, which notes it
// wrote, what its replies cited, and whether the summary was injected.
// The rollout is JSONL, one {"timestamp","type","payload"} object a line;
// the kinds that matter are session_meta, turn_context, response_item and
// event_msg (compacted and any other kind are passed over).
//
// Most lines of a rollout never mention memory: a line is decoded only
// when its bytes name memory ("memor": memories/, memory_citation, the
// memory section) or a raw citation, or when it is the session's meta or
// a turn's context (small, and needed for the working directory). Tool
// results are never decoded: only their call id and exit status are
// looked for, near each end of the line.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// Bounds of what one rollout keeps, whatever it holds: a session makes a
// few memory reads and at most a few notes; past these, the rollout was
// not written by a session working normally and the rest is left out
// (with a problem saying so).
const (
	// MaxRolloutEvents bounds the reads, writes and citations kept.
	MaxRolloutEvents = 10000
	// MaxNoteText bounds the text of a note kept: no more than a note may
	// hold (NoteMaxBytes; Codex's notes are "one small file" each, codex
	// facts §1.3.6).
	MaxNoteText = NoteMaxBytes
	// maxSummaryText bounds the injected summary kept: the cap is 10,000
	// bytes plus the cut's marker (codex facts §2).
	maxSummaryText = 16 << 10
	// maxFailedCalls bounds the ids of failed tool calls remembered while
	// waiting to pair them with their calls.
	maxFailedCalls = 1 << 16
	// headBytes is how far into a line its kind is looked for.
	headBytes = 512
	// exitScan is how far from each end of a tool result its exit status
	// is looked for.
	exitScan = 8 << 10
)

// Rollout is what one session rollout says about the memory store.
type Rollout struct {
	// Path is the rollout file, as the reader named it.
	Path string
	// ThreadID, Cwd, Source, CLIVersion and MemoryMode are the session's
	// (session_meta). Source is "cli", "exec", "vscode"... or, for a
	// structured source (a subagent), its first key.
	ThreadID, Cwd, Source, CLIVersion, MemoryMode string
	// Start is when the session began (session_meta), End the last
	// timestamp in the file.
	Start, End time.Time
	// Lines counts the lines read; Decoded those decoded as JSON.
	Lines, Decoded int
	// Reads are the memory files the session read or searched.
	Reads []Read
	// NoteWrites are the ad-hoc notes it wrote (the one write Codex's
	// read prompt allows, codex facts §1.3.6); Edits its writes to any
	// other file of the store, which the prompt forbids.
	NoteWrites, Edits []Write
	// Citations are the memory citations of its replies, each once
	// however many forms it was recorded in.
	Citations []Citation
	// Injected is the memory section of its initial context, nil when
	// none was recorded.
	Injected *Injection
	// Problems are what could not be read, in words, with line numbers.
	Problems []string
}

// Read is one read or search of the store.
type Read struct {
	// Path is relative to the memory root, slash-separated: a file
	// (MEMORY.md), a folder (rollout_summaries), or "" for the whole store
	// (a memories.list or memories.search without a path).
	Path string
	// Tool is the call's tool: exec_command, shell, memories.read...
	Tool   string
	CallID string
	Time   time.Time
	Line   int
	// Failed says the call's result reported a failure (an exit status
	// other than 0; 1 from a search tool only means "no match").
	Failed bool
	// cmd is the shell command's word (rg, cat), for Failed.
	cmd string
}

// Write is one write into the store.
type Write struct {
	// Path is relative to the memory root, slash-separated.
	Path string
	// Op is "create", "modify", "delete" or "write" (a shell write that
	// may have made the file or changed it).
	Op     string
	Tool   string
	CallID string
	Time   time.Time
	Line   int
	// Text is what was written when the call carries it (a note's text,
	// a patch's added lines, a heredoc), at most MaxNoteText bytes.
	Text   string
	Failed bool
}

// Citation is one reply's memory citation (codex facts §2): the entries
// it cites and the threads whose memories it used.
type Citation struct {
	Entries []CitationEntry
	// RolloutIDs are thread ids: Codex bumps their memories' usage.
	RolloutIDs []string
	Time       time.Time
	Line       int
	// Raw and Parsed say how it was recorded: the <oai-mem-citation>
	// block in the reply's text, the parsed memory_citation of its event.
	Raw, Parsed bool
}

// CitationEntry is one cited place: a file relative to the memory root
// and a line range.
type CitationEntry struct {
	Path               string
	LineStart, LineEnd int
	Note               string
}

// Injection is the memory section a session's initial context carried.
type Injection struct {
	Time time.Time
	Line int
	// Summary is the summary as injected (Codex's cut included), at most
	// 16 KiB; Cut says it carried the cut's marker.
	Summary string
	Cut     bool
}

// RolloutParser reads one rollout a line at a time, so that a reader can
// stream a file of any size through it. Feed each line (without its
// newline) to Line, the head of a line too long to hold to LongLine, a
// last line without a newline to Tail; Finish says what it found.
type RolloutParser struct {
	r     *Rollout
	paths pathMatcher
	line  int
	// cwd is the working directory of the current turn (turn_context),
	// else the session's; inRoot says it is in the store.
	cwd    string
	inRoot bool
	// firstTS and lastTS are the first and last lines' timestamp bytes,
	// parsed at Finish.
	firstTS, lastTS []byte
	// failed are the ids of tool calls whose results reported failure;
	// exit1 those that exited 1 (no match, for a search).
	failed, exit1 map[string]bool
	bad           int
	firstBad      int
	long          int
	events        int
	full          bool
	cites         citationSet
	metaSeen      bool
}

// NewRolloutParser starts a parse of the rollout at path. homes are the
// Codex homes whose memories/ count as the store besides any
// ".codex/memories" (a rollout read on another machine, or copied, names
// the home it ran under).
func NewRolloutParser(path string, homes []string) *RolloutParser {
	return &RolloutParser{r: &Rollout{Path: path}, paths: newPathMatcher(homes), failed: map[string]bool{}, exit1: map[string]bool{}}
}

// ParseRollout parses a whole rollout held in memory (tests, small
// files): its lines, a last one without a newline as Tail.
func ParseRollout(path string, data []byte, homes []string) *Rollout {
	p := NewRolloutParser(path, homes)
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			p.Tail(data)
			break
		}
		p.Line(data[:i])
		data = data[i+1:]
	}
	return p.Finish()
}

// Mentions reports whether b names memory the way a line the parser
// decodes must (memories/, memory_citation, the memory section, a raw
// citation, Windows's Memories\, MEMORY.md named bare): a reader may
// skip a file (or a chunk) that does not. It is one pass for "mem" (a
// lead byte rarer than "emor"'s e) and two for capitals, which are rare
// and so quick to scan for.
func Mentions(b []byte) bool {
	if bytes.Contains(b, []byte("MEMOR")) || bytes.Contains(b, []byte("Memor")) {
		return true
	}
	for {
		i := bytes.Index(b, []byte("mem"))
		if i < 0 {
			return false
		}
		b = b[i+3:]
		if bytes.HasPrefix(b, []byte("or")) || bytes.HasPrefix(b, []byte("-citation")) {
			return true
		}
	}
}

// Line reads one complete line.
func (p *RolloutParser) Line(line []byte) {
	p.line++
	p.r.Lines++
	p.take(line, true)
}

// Tail reads a last line that has no newline yet: a session still being
// written. It counts as a line when it decodes; otherwise it is dropped
// without a problem, as the rest of it is still to come.
func (p *RolloutParser) Tail(line []byte) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	p.line++
	p.r.Lines++
	p.take(line, false)
}

// LongLine notes a line of size bytes too long to decode, of which head
// is the start: it is left out, with a problem naming it.
func (p *RolloutParser) LongLine(head []byte, size int64) {
	p.line++
	p.r.Lines++
	p.long++
	if p.long <= 3 {
		what := ""
		if Mentions(head) {
			what = " (it mentions memory: a read, note or citation on it is not counted)"
		}
		p.r.Problems = append(p.r.Problems, fmt.Sprintf("line %d is %s, more than memtui decodes of a line; left out%s", p.line, byteSize(size), what))
	}
	p.stamp(head)
}

func (p *RolloutParser) take(line []byte, complete bool) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	p.stamp(line)
	// Codex writes the envelope's type before the payload; a line whose
	// keys come in another order has it at the end.
	head, tail := line[:min(len(line), headBytes)], line[max(0, len(line)-headBytes):]
	kind := func(k string) bool { return bytes.Contains(head, []byte(k)) || bytes.Contains(tail, []byte(k)) }
	switch {
	case !p.metaSeen && kind(`"session_meta"`):
		p.decode(line, complete)
	case kind(`"turn_context"`):
		// One a turn: its cwd is read without decoding the line when it
		// holds no escape, and only a change is taken.
		if cwd := rawString(line, "cwd"); cwd != "" {
			if cwd != p.cwd {
				p.setCwd(cwd)
			}
		} else {
			p.decode(line, complete)
		}
	case bytes.Contains(head, []byte(`_call_output"`)):
		// A result's own type comes first in its payload.
		p.result(line)
	case Mentions(line):
		p.decode(line, complete)
	case p.inRoot && bytes.Contains(head, []byte(`_call"`)):
		// Working in the store, a call names its files bare
		// (ls rollout_summaries).
		p.decode(line, complete)
	}
}

// stamp keeps the line's timestamp for End, unparsed (only the last one
// matters).
func (p *RolloutParser) stamp(line []byte) {
	key := []byte(`"timestamp":"`)
	v := line
	if i := bytes.Index(line[:min(len(line), 128)], key); i >= 0 {
		v = line[i+len(key):]
	} else if i := bytes.LastIndex(line[max(0, len(line)-128):], key); i >= 0 {
		v = line[max(0, len(line)-128)+i+len(key):]
	} else {
		return
	}
	j := bytes.IndexByte(v[:min(len(v), 64)], '"')
	if j <= 0 {
		return
	}
	p.lastTS = append(p.lastTS[:0], v[:j]...)
	if p.firstTS == nil {
		p.firstTS = append([]byte{}, v[:j]...)
	}
}

// result notes a tool result's failure by its call id, without decoding
// the output.
func (p *RolloutParser) result(line []byte) {
	id := rawString(line[:min(len(line), headBytes)], "call_id")
	if id == "" {
		id = rawString(line, "call_id")
	}
	if id == "" {
		return
	}
	code, ok := exitCode(line[:min(len(line), exitScan)])
	if !ok && len(line) > exitScan {
		code, ok = exitCode(line[len(line)-exitScan:])
	}
	failed := ok && code != 0 || bytes.Contains(line, []byte(`"success":false`))
	if !failed || len(p.failed) >= maxFailedCalls {
		return
	}
	p.failed[id] = true
	if ok && code == 1 {
		p.exit1[id] = true
	}
}

// rawString is the value of "key":"..." in b when it holds no escape:
// call ids never do.
func rawString(b []byte, key string) string {
	pat := []byte(`"` + key + `":"`)
	i := bytes.Index(b, pat)
	if i < 0 {
		return ""
	}
	v := b[i+len(pat):]
	j := bytes.IndexByte(v[:min(len(v), 256)], '"')
	if j <= 0 || bytes.IndexByte(v[:j], '\\') >= 0 {
		return ""
	}
	return string(v[:j])
}

// exitCode finds the exit status a tool result reports, in the shapes
// Codex's tools print it: "Process exited with code N", "Exit code: N",
// or an "exit_code" field (in JSON, or in JSON inside a string).
func exitCode(b []byte) (int, bool) {
	for _, pat := range [][]byte{[]byte("Process exited with code "), []byte("Exit code: "), []byte("exit_code")} {
		i := bytes.Index(b, pat)
		if i < 0 {
			continue
		}
		v := b[i+len(pat):]
		for len(v) > 0 && (v[0] == '"' || v[0] == '\\' || v[0] == ':' || v[0] == ' ') {
			v = v[1:]
		}
		n := 0
		for n < len(v) && n < 6 && v[n] >= '0' && v[n] <= '9' {
			n++
		}
		if n == 0 {
			continue
		}
		code, _ := strconv.Atoi(string(v[:n]))
		return code, true
	}
	return 0, false
}

// rolloutLine is a line's envelope.
type rolloutLine struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// payload holds the fields of every payload kind the parser reads.
type payload struct {
	Type string `json:"type"`
	// session_meta and turn_context
	ID         string          `json:"id"`
	Timestamp  string          `json:"timestamp"`
	Cwd        string          `json:"cwd"`
	Source     json.RawMessage `json:"source"`
	CLIVersion string          `json:"cli_version"`
	MemoryMode string          `json:"memory_mode"`
	// response_item: a message
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	// response_item: a call
	Name      string          `json:"name"`
	Namespace string          `json:"namespace"`
	Arguments json.RawMessage `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Action    *struct {
		Command          []string `json:"command"`
		WorkingDirectory string   `json:"working_directory"`
	} `json:"action"`
	// event_msg
	MemoryCitation *citationJSON `json:"memory_citation"`
	Item           *struct {
		MemoryCitation *citationJSON `json:"memory_citation"`
	} `json:"item"`
}

// citationJSON is the parsed citation Codex records on a reply's event.
type citationJSON struct {
	Entries []struct {
		Path       string `json:"path"`
		LineStart  int    `json:"lineStart"`
		LineEnd    int    `json:"lineEnd"`
		LineStart2 int    `json:"line_start"`
		LineEnd2   int    `json:"line_end"`
		Note       string `json:"note"`
	} `json:"entries"`
	RolloutIDs  []string `json:"rolloutIds"`
	RolloutIDs2 []string `json:"rollout_ids"`
}

func (p *RolloutParser) decode(line []byte, complete bool) {
	var l rolloutLine
	if err := json.Unmarshal(line, &l); err != nil {
		if complete {
			p.bad++
			if p.firstBad == 0 {
				p.firstBad = p.line
			}
		}
		return
	}
	p.r.Decoded++
	var pl payload
	if len(l.Payload) > 0 && l.Payload[0] == '{' {
		if err := json.Unmarshal(l.Payload, &pl); err != nil {
			p.bad++
			if p.firstBad == 0 {
				p.firstBad = p.line
			}
			return
		}
	}
	at := parseTime(l.Timestamp)
	switch l.Type {
	case "session_meta":
		p.meta(&pl, at)
	case "turn_context":
		if pl.Cwd != "" {
			p.setCwd(pl.Cwd)
		}
	case "response_item":
		p.item(&pl, at)
	case "event_msg":
		c := pl.MemoryCitation
		if c == nil && pl.Item != nil {
			c = pl.Item.MemoryCitation
		}
		if c != nil {
			p.parsedCitation(c, at)
		}
	}
	// compacted (a summary of turns already recorded) and kinds memtui
	// does not know are passed over.
}

func (p *RolloutParser) meta(pl *payload, at time.Time) {
	p.metaSeen = true
	r := p.r
	r.ThreadID, r.Cwd, r.CLIVersion, r.MemoryMode = pl.ID, pl.Cwd, pl.CLIVersion, pl.MemoryMode
	r.Source = sourceName(pl.Source)
	if t := parseTime(pl.Timestamp); !t.IsZero() {
		at = t
	}
	r.Start = at
	if p.cwd == "" {
		p.setCwd(pl.Cwd)
	}
}

func (p *RolloutParser) setCwd(cwd string) {
	p.cwd = cwd
	_, p.inRoot = p.paths.rel(cwd, "")
}

// sourceName is session_meta's source: a string, or an object's first
// key ({"subagent": ...}).
func sourceName(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) > 0 {
			return keys[0]
		}
	}
	return ""
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// callArgs are the arguments of every call the parser reads.
type callArgs struct {
	Cmd      json.RawMessage `json:"cmd"`
	Command  json.RawMessage `json:"command"`
	Workdir  string          `json:"workdir"`
	Workdir2 string          `json:"working_directory"`
	Path     string          `json:"path"`
	Filename string          `json:"filename"`
	Note     string          `json:"note"`
	Input    string          `json:"input"`
	Patch    string          `json:"patch"`
}

func (p *RolloutParser) item(pl *payload, at time.Time) {
	switch pl.Type {
	case "message":
		text := contentText(pl.Content)
		switch pl.Role {
		case "assistant":
			p.rawCitations(text, at)
		case "developer", "system":
			p.injection(text, at)
		}
	case "function_call", "custom_tool_call":
		p.call(pl, at)
	case "local_shell_call":
		if pl.Action != nil {
			p.shell("local_shell", pl.CallID, shellScript(pl.Action.Command), pl.Action.WorkingDirectory, at)
		}
	}
}

// contentText joins a message's text parts (content is an array of
// {"type","text"} parts, or a plain string).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for i, pt := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(pt.Text)
	}
	return b.String()
}

// dedicated is the tool name of a call of the memories namespace
// (codex facts §2, "Dedicated tools"): the namespace field, or the name
// qualified by it.
func dedicated(pl *payload) string {
	if pl.Namespace == "memories" {
		return pl.Name
	}
	for _, sep := range []string{".", "__", "/", ":"} {
		if rest, ok := strings.CutPrefix(pl.Name, "memories"+sep); ok {
			return rest
		}
	}
	if pl.Name == "add_ad_hoc_note" {
		return pl.Name
	}
	return ""
}

func (p *RolloutParser) call(pl *payload, at time.Time) {
	var a callArgs
	if pl.Type == "custom_tool_call" {
		a.Input = pl.Input
	} else {
		args := []byte(pl.Arguments)
		var s string
		if json.Unmarshal(pl.Arguments, &s) == nil {
			args = []byte(s)
		}
		if json.Unmarshal(args, &a) != nil && pl.Name == "apply_patch" {
			a.Input = string(args) // a raw patch for arguments
		}
	}
	if tool := dedicated(pl); tool != "" {
		p.dedicated(tool, pl.CallID, &a, at)
		return
	}
	wd := firstOf(a.Workdir, a.Workdir2)
	switch pl.Name {
	case "apply_patch":
		p.shell(pl.Name, pl.CallID, firstOf(a.Input, a.Patch), wd, at)
	default:
		// exec_command's cmd, shell's and shell_command's command: a
		// string or an argv. A call of any other tool that names the store
		// in one of these is read the same way.
		script := argvOrString(a.Cmd)
		if script == "" {
			script = argvOrString(a.Command)
		}
		if script == "" && strings.Contains(a.Input, "*** Begin Patch") {
			script = a.Input // a patch, whatever the tool is called
		}
		if script != "" {
			p.shell(pl.Name, pl.CallID, script, wd, at)
		}
	}
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// argvOrString is a command given as a string, or as an argv (a shell's
// -c script taken whole).
func argvOrString(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) == nil {
		return shellScript(argv)
	}
	return ""
}

// shellScript is an argv as one script: the script of `bash -lc SCRIPT`
// (and the like), else the words joined.
func shellScript(argv []string) string {
	if n := len(argv); n >= 3 && (argv[n-2] == "-c" || argv[n-2] == "-lc" || strings.EqualFold(argv[n-2], "-Command") || strings.EqualFold(argv[n-2], "/c")) {
		return argv[n-1]
	}
	return strings.Join(argv, " ")
}

// dedicated reads a call of the memories namespace: list, read and
// search read the store (their path is relative to the root);
// add_ad_hoc_note writes a note.
func (p *RolloutParser) dedicated(tool, id string, a *callArgs, at time.Time) {
	switch tool {
	case "add_ad_hoc_note":
		name := strings.TrimSpace(a.Filename)
		if name == "" || strings.ContainsAny(name, `/\`) {
			// Codex refuses a name with a folder in it; nothing written.
			return
		}
		p.write(Write{Path: NotesDir + name, Op: "create", Tool: "memories.add_ad_hoc_note", CallID: id, Time: at, Text: clip(a.Note, MaxNoteText)})
	case "list", "read", "search":
		rel, ok := p.toolPath(a.Path)
		if !ok {
			return
		}
		p.read(Read{Path: rel, Tool: "memories." + tool, CallID: id, Time: at})
	}
}

// toolPath is a dedicated tool's path relative to the root ("" or "."
// for the root); an absolute path is accepted when it is in the store.
// Codex refuses ".." and dot-paths, and so does memtui.
func (p *RolloutParser) toolPath(s string) (string, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), `\`, "/")
	if s == "" || s == "." || s == "/" {
		return "", true
	}
	if rel, ok := p.paths.rel(s, ""); ok {
		return rel, true
	}
	if strings.HasPrefix(s, "/") || isWinAbs(s) || strings.HasPrefix(s, "~") {
		return "", false
	}
	c := path.Clean(s)
	for _, part := range strings.Split(c, "/") {
		if part == ".." || strings.HasPrefix(part, ".") {
			return "", false
		}
	}
	return c, true
}

func (p *RolloutParser) event() bool {
	if p.events >= MaxRolloutEvents {
		if !p.full {
			p.full = true
			p.r.Problems = append(p.r.Problems, fmt.Sprintf("more than %d memory reads, writes and citations from line %d on; the rest are left out", MaxRolloutEvents, p.line))
		}
		return false
	}
	p.events++
	return true
}

func (p *RolloutParser) read(r Read) {
	if p.event() {
		r.Line = p.line
		p.r.Reads = append(p.r.Reads, r)
	}
}

func (p *RolloutParser) write(w Write) {
	if !p.event() {
		return
	}
	w.Line = p.line
	if IsNoteFile(w.Path) {
		p.r.NoteWrites = append(p.r.NoteWrites, w)
	} else {
		p.r.Edits = append(p.r.Edits, w)
	}
}

// IsNoteFile says rel (relative to the memory root) is an ad-hoc note:
// a .md file directly in extensions/ad_hoc/notes/.
func IsNoteFile(rel string) bool {
	name, ok := strings.CutPrefix(rel, NotesDir)
	return ok && strings.HasSuffix(name, ".md") && !strings.Contains(name, "/")
}

// countsAsRead says a shell read of rel counts as a memory read, as
// Codex's own classifier counts them (codex facts §6.1): MEMORY.md, the
// summary, raw_memories.md, and anything under rollout_summaries/ or
// skills/ (the folders themselves included: a search of them reads
// their files).
func countsAsRead(rel string) bool {
	switch {
	case rel == HandbookFile, rel == SummaryFile, rel == RawFile,
		rel == strings.TrimSuffix(RolloutDir, "/"), strings.HasPrefix(rel, RolloutDir),
		rel == strings.TrimSuffix(SkillsDir, "/"), strings.HasPrefix(rel, SkillsDir):
		return true
	}
	return false
}

// searchTools exit 1 for "no match": the file was read all the same.
var searchTools = map[string]bool{"rg": true, "grep": true, "egrep": true, "fgrep": true, "findstr": true, "select-string": true, "ag": true, "ack": true}

// shell reads a shell command (or a patch) for the store's paths it
// reads and writes.
func (p *RolloutParser) shell(tool, id, script, workdir string, at time.Time) {
	cwd := p.cwd
	if workdir != "" {
		if isAbsAny(workdir) || cwd == "" {
			cwd = workdir
		} else {
			cwd = strings.TrimSuffix(cwd, "/") + "/" + workdir
		}
	}
	seen := map[string]bool{}
	for _, ref := range p.paths.shellRefs(script, cwd) {
		key := ref.op + "\x00" + ref.rel
		if seen[key] {
			continue
		}
		seen[key] = true
		switch {
		case ref.op == "read":
			if countsAsRead(ref.rel) {
				p.read(Read{Path: ref.rel, Tool: tool, CallID: id, Time: at, cmd: ref.cmd})
			}
		case IsNoteFile(ref.rel) || ref.rel != "" && !strings.HasPrefix(ref.rel, ".git"):
			p.write(Write{Path: ref.rel, Op: ref.op, Tool: tool, CallID: id, Time: at, Text: clip(ref.text, MaxNoteText)})
		}
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut on a character boundary.
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// The memory section's markers (codex facts §2).
const (
	summaryBegins = "MEMORY_SUMMARY BEGINS"
	summaryEnds   = "MEMORY_SUMMARY ENDS"
)

func (p *RolloutParser) injection(text string, at time.Time) {
	i := strings.Index(text, summaryBegins)
	if i < 0 || p.r.Injected != nil {
		return
	}
	body := text[i+len(summaryBegins):]
	if j := strings.IndexByte(body, '\n'); j >= 0 {
		body = body[j+1:]
	} else {
		body = ""
	}
	if j := strings.Index(body, summaryEnds); j >= 0 {
		body = body[:j]
		if k := strings.LastIndexByte(body, '\n'); k >= 0 {
			body = body[:k]
		}
	}
	body = strings.TrimSpace(body)
	p.r.Injected = &Injection{Time: at, Line: p.line, Summary: clip(body, maxSummaryText), Cut: strings.Contains(body, "tokens truncated")}
}

// Finish ends the parse: results are paired with their calls (wherever
// each came in the file), citations seen in both forms counted once.
func (p *RolloutParser) Finish() *Rollout {
	r := p.r
	if t := parseTime(string(p.lastTS)); !t.IsZero() {
		r.End = t
	}
	if r.Start.IsZero() {
		// No session_meta: the first timestamp in the file.
		r.Start = parseTime(string(p.firstTS))
	}
	for i := range r.Reads {
		rd := &r.Reads[i]
		rd.Failed = p.failed[rd.CallID] && !(p.exit1[rd.CallID] && searchTools[strings.ToLower(rd.cmd)])
	}
	for _, ws := range [][]Write{r.NoteWrites, r.Edits} {
		for i := range ws {
			ws[i].Failed = p.failed[ws[i].CallID]
		}
	}
	r.Citations = p.cites.list()
	if p.bad > 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("%d %s not JSON (the first at line %d); left out", p.bad, model.Plural(p.bad, "line is", "lines are"), p.firstBad))
	}
	if p.long > 3 {
		r.Problems = append(r.Problems, fmt.Sprintf("%d more lines too long to decode; left out", p.long-3))
	}
	return r
}

// byteSize is a size as a person reads it.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

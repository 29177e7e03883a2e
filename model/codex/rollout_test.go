package codex

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Rollout fixtures, written by hand in the shapes codex facts §6.1
// describes: one {"timestamp","type","payload"} object a line.

const (
	fxThread = "0199a1b2-c3d4-7e5f-8a6b-1c2d3e4f5a6b"
	fxCited  = "0194f5a6-89ab-7cde-8123-456789abcdef"
	fxHome   = "/home/dev/.codex"
)

// rl is one rollout line at second sec of 2026-11-20 09:00 UTC.
func rl(sec int, typ string, payload any) string {
	ts := time.Date(2026, 11, 20, 9, 0, sec, 0, time.UTC).Format("2006-01-02T15:04:05.000Z")
	b, err := json.Marshal(envelope{ts, typ, payload})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func meta(id, cwd string) map[string]any {
	return map[string]any{"id": id, "timestamp": "2026-11-20T09:00:00.000Z", "cwd": cwd, "originator": "codex_cli_rs",
		"cli_version": "0.132.0", "source": "cli", "memory_mode": "enabled", "history_mode": "legacy"}
}

// call is a function_call response item; args are encoded as the JSON
// string Codex records.
func call(name, namespace, id string, args any) map[string]any {
	b, _ := json.Marshal(args)
	p := map[string]any{"type": "function_call", "name": name, "arguments": string(b), "call_id": id}
	if namespace != "" {
		p["namespace"] = namespace
	}
	return p
}

func output(id, text string) map[string]any {
	return map[string]any{"type": "function_call_output", "call_id": id, "output": text}
}

func message(role, text string) map[string]any {
	kind := "output_text"
	if role != "assistant" {
		kind = "input_text"
	}
	return map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": kind, "text": text}}}
}

const rawCitation = "Deploys go out on Tuesdays.\n\n<oai-mem-citation>\n<citation_entries>\nMEMORY.md:12-20|note=[deploy days]\nrollout_summaries/2025-02-11T15-35-19-jqmb.md:5-9|note=[the release run]\n</citation_entries>\n<rollout_ids>\n" + fxCited + "\n</rollout_ids>\n</oai-mem-citation>"

func parsedCitation() map[string]any {
	return map[string]any{"entries": []any{
		map[string]any{"path": "MEMORY.md", "lineStart": 12, "lineEnd": 20, "note": "deploy days"},
		map[string]any{"path": "rollout_summaries/2025-02-11T15-35-19-jqmb.md", "lineStart": 5, "lineEnd": 9, "note": "the release run"},
	}, "rolloutIds": []any{fxCited}}
}

const injected = "## Memory\n\nYou have access to a memory folder at /home/dev/.codex/memories.\n\n========= MEMORY_SUMMARY BEGINS =========\nv1\n\n## User Profile\nA backend engineer.\n========= MEMORY_SUMMARY ENDS =========\n"

// linuxRollout covers every kind and every way a session meets memory.
func linuxRollout() string {
	lines := []string{
		rl(0, "session_meta", meta(fxThread, "/home/dev/shop")),
		rl(1, "turn_context", map[string]any{"cwd": "/home/dev/shop", "approval_policy": "on-request", "model": "gpt-5"}),
		rl(1, "response_item", message("developer", injected)),
		rl(2, "response_item", message("user", "when do we deploy?")),
		// The result of call_b is recorded before its call.
		rl(3, "response_item", output("call_b", "Chunk ID: 1\nProcess exited with code 2\nOutput:\nsed: can't read: No such file\n")),
		rl(3, "response_item", call("exec_command", "", "call_a", map[string]any{"cmd": `rg -n "deploy" ~/.codex/memories/MEMORY.md`, "workdir": "/home/dev/shop"})),
		rl(4, "response_item", call("exec_command", "", "call_b", map[string]any{"cmd": []string{"bash", "-lc", "sed -n '1,40p' /home/dev/.codex/memories/rollout_summaries/2025-02-11T15-35-19-jqmb.md"}})),
		rl(5, "response_item", call("read", "memories", "call_c", map[string]any{"path": "skills/release-notes/SKILL.md", "line_offset": 1, "max_lines": 80})),
		// Not Codex's store: a project's MEMORY.md, Claude Code's memory,
		// a project folder that happens to be called memories.
		rl(6, "response_item", call("exec_command", "", "call_d", map[string]any{"cmd": "cat MEMORY.md /home/dev/.claude/projects/-home-dev-shop/memory/MEMORY.md /home/dev/shop/memories/MEMORY.md"})),
		rl(7, "response_item", call("add_ad_hoc_note", "memories", "call_e", map[string]any{"filename": "2026-11-20T09-00-07-deploy-days.md", "note": "Deploys are on Tuesdays only."})),
		rl(8, "response_item", map[string]any{"type": "custom_tool_call", "name": "apply_patch", "call_id": "call_00_SynthPatchAbCdEfGhIjKl",
			"input": "*** Begin Patch\n*** Add File: /home/dev/.codex/memories/extensions/ad_hoc/notes/2026-11-20T09-00-08-tabs.md\n+Use tabs in Go files.\n*** End Patch\n"}),
		rl(9, "response_item", message("assistant", rawCitation)),
		rl(9, "event_msg", map[string]any{"type": "agent_message", "message": "Deploys go out on Tuesdays.", "memory_citation": parsedCitation()}),
		// A second reply, recorded only parsed (paginated history).
		rl(10, "event_msg", map[string]any{"type": "item_completed", "item": map[string]any{"type": "AgentMessage", "id": "msg_2",
			"memory_citation": map[string]any{"entries": []any{map[string]any{"path": "memory_summary.md", "lineStart": 1, "lineEnd": 4, "note": "profile"}}, "rolloutIds": []any{}}}}),
		// A compacted summary repeats an old reply's text: not a new citation.
		rl(11, "compacted", map[string]any{"message": rawCitation}),
		rl(12, "future_kind", map[string]any{"memories": "something new"}),
		`{"timestamp":"2026-11-20T09:00:13.000Z","type":"response_item","payload":{"type":"message","memories`,
		rl(14, "event_msg", map[string]any{"type": "token_count"}),
	}
	return strings.Join(lines, "\n") + "\n"
}

func TestRolloutReadsWritesAndCitations(t *testing.T) {
	r := ParseRollout("rollout.jsonl", []byte(linuxRollout()), []string{fxHome})
	if r.ThreadID != fxThread || r.Cwd != "/home/dev/shop" || r.Source != "cli" || r.CLIVersion != "0.132.0" || r.MemoryMode != "enabled" {
		t.Errorf("meta: %+v", r)
	}
	if want := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC); !r.Start.Equal(want) {
		t.Errorf("start %v", r.Start)
	}
	if want := time.Date(2026, 11, 20, 9, 0, 14, 0, time.UTC); !r.End.Equal(want) {
		t.Errorf("end %v, want the last line's", r.End)
	}
	type rd struct {
		path, tool string
		failed     bool
	}
	var reads []rd
	for _, x := range r.Reads {
		reads = append(reads, rd{x.Path, x.Tool, x.Failed})
	}
	want := []rd{
		{"MEMORY.md", "exec_command", false},
		{"rollout_summaries/2025-02-11T15-35-19-jqmb.md", "exec_command", true}, // its result, met first, says exit 2
		{"skills/release-notes/SKILL.md", "memories.read", false},
	}
	if !slices.Equal(reads, want) {
		t.Errorf("reads:\n got %+v\nwant %+v", reads, want)
	}
	if len(r.NoteWrites) != 2 {
		t.Fatalf("note writes: %+v", r.NoteWrites)
	}
	n0, n1 := r.NoteWrites[0], r.NoteWrites[1]
	if n0.Path != "extensions/ad_hoc/notes/2026-11-20T09-00-07-deploy-days.md" || n0.Tool != "memories.add_ad_hoc_note" || n0.Text != "Deploys are on Tuesdays only." || n0.Op != "create" || n0.CallID != "call_e" {
		t.Errorf("add_ad_hoc_note: %+v", n0)
	}
	if n1.Path != "extensions/ad_hoc/notes/2026-11-20T09-00-08-tabs.md" || n1.Tool != "apply_patch" || n1.Text != "Use tabs in Go files.\n" || n1.CallID != "call_00_SynthPatchAbCdEfGhIjKl" {
		t.Errorf("apply_patch: %+v", n1)
	}
	if len(r.Edits) != 0 {
		t.Errorf("edits: %+v", r.Edits)
	}
	if len(r.Citations) != 2 {
		t.Fatalf("citations: %d, want 2 (the first seen both ways counts once): %+v", len(r.Citations), r.Citations)
	}
	c := r.Citations[0]
	if !c.Raw || !c.Parsed || len(c.Entries) != 2 || c.Entries[0] != (CitationEntry{"MEMORY.md", 12, 20, "deploy days"}) || !slices.Equal(c.RolloutIDs, []string{fxCited}) {
		t.Errorf("first citation: %+v", c)
	}
	if c2 := r.Citations[1]; c2.Raw || !c2.Parsed || c2.Entries[0].Path != SummaryFile {
		t.Errorf("second citation: %+v", c2)
	}
	if r.Injected == nil || r.Injected.Summary != "v1\n\n## User Profile\nA backend engineer." || r.Injected.Cut {
		t.Errorf("injection: %+v", r.Injected)
	}
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "1 line is not JSON (the first at line 17)") {
		t.Errorf("problems: %q", r.Problems)
	}
}

// TestRolloutRawCitationAlone: a reply recorded only in its raw form
// (no event) is a citation; the older <thread_ids> tag is read.
func TestRolloutRawCitationAlone(t *testing.T) {
	text := "<oai-mem-citation>\n<citation_entries>\n/home/dev/.codex/memories/MEMORY.md:3-4|note=[x]\n</citation_entries>\n<thread_ids>\n" + fxCited + "\n</thread_ids>\n</oai-mem-citation>"
	r := ParseRollout("r", []byte(rl(0, "session_meta", meta(fxThread, "/w"))+"\n"+rl(1, "response_item", message("assistant", text))+"\n"), nil)
	if len(r.Citations) != 1 || !r.Citations[0].Raw || r.Citations[0].Parsed || r.Citations[0].Entries[0].Path != "MEMORY.md" || r.Citations[0].RolloutIDs[0] != fxCited {
		t.Errorf("%+v", r.Citations)
	}
	// The same citation in two replies is two citations.
	two := rl(1, "response_item", message("assistant", text)) + "\n" + rl(2, "response_item", message("assistant", text)) + "\n"
	if r := ParseRollout("r", []byte(two), nil); len(r.Citations) != 2 {
		t.Errorf("two replies: %d citations", len(r.Citations))
	}
}

// TestRolloutWindowsPaths: a Windows session's paths (backslashes,
// either drive-letter case, a relative path from the home, a name in
// another case) are the store's; a Windows path elsewhere is not.
func TestRolloutWindowsPaths(t *testing.T) {
	lines := []string{
		rl(0, "session_meta", meta(fxThread, `d:\work\shop`)),
		rl(1, "response_item", call("shell_command", "", "call_1", map[string]any{"command": `Get-Content C:\Users\dana\.codex\memories\MEMORY.md`})),
		rl(2, "response_item", call("shell_command", "", "call_2", map[string]any{"command": `type memories\memory_summary.md`, "workdir": `C:\Users\dana\.codex`})),
		rl(3, "response_item", call("shell", "", "call_3", map[string]any{"command": []string{"powershell", "-Command", `Select-String -Path c:\users\dana\.codex\Memories\rollout_summaries\x.md -Pattern deploy`}})),
		rl(4, "response_item", call("shell_command", "", "call_4", map[string]any{"command": `Get-Content d:\work\shop\MEMORY.md`})),
		rl(5, "response_item", call("exec_command", "", "call_5", map[string]any{"cmd": `cat C:/Users/dana/.codex/memories/memory.md`})),
	}
	r := ParseRollout("r", []byte(strings.Join(lines, "\n")+"\n"), nil)
	var got []string
	for _, x := range r.Reads {
		got = append(got, x.Path)
	}
	want := []string{"MEMORY.md", "memory_summary.md", "rollout_summaries/x.md", "MEMORY.md"}
	if !slices.Equal(got, want) {
		t.Errorf("reads %q, want %q", got, want)
	}
}

// TestRolloutHomes: a store whose home is not called .codex is matched
// by the home memtui reads, or by $CODEX_HOME; relative to a cwd in the
// store, bare names count.
func TestRolloutHomes(t *testing.T) {
	lines := []string{
		rl(0, "session_meta", meta(fxThread, "/srv/codex-home/memories")),
		rl(1, "response_item", call("exec_command", "", "c1", map[string]any{"cmd": "cat /srv/codex-home/memories/raw_memories.md"})),
		rl(2, "response_item", call("exec_command", "", "c2", map[string]any{"cmd": `grep -rn deploy "$CODEX_HOME/memories/skills"`})),
		rl(3, "response_item", call("exec_command", "", "c3", map[string]any{"cmd": "head -n 5 MEMORY.md && ls rollout_summaries"})),
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	r := ParseRollout("r", data, []string{"/srv/codex-home"})
	var got []string
	for _, x := range r.Reads {
		got = append(got, x.Path)
	}
	if want := []string{"raw_memories.md", "skills", "MEMORY.md", "rollout_summaries"}; !slices.Equal(got, want) {
		t.Errorf("reads %q, want %q", got, want)
	}
	// Without the home, only $CODEX_HOME's path is known.
	r = ParseRollout("r", data, nil)
	if len(r.Reads) != 1 || r.Reads[0].Path != "skills" {
		t.Errorf("no home given: %+v", r.Reads)
	}
}

// TestRolloutShellWrites: writes by shell are told from reads: a
// redirection, tee and a heredoc write a note; sed -i edits MEMORY.md;
// rm deletes a note; cat of a note only reads it (not counted).
func TestRolloutShellWrites(t *testing.T) {
	notes := "~/.codex/memories/extensions/ad_hoc/notes/"
	lines := []string{
		rl(0, "session_meta", meta(fxThread, "/w")),
		rl(1, "response_item", call("exec_command", "", "c1", map[string]any{"cmd": "cat > " + notes + "2026-11-20T09-00-01-a.md <<'EOF'\nRemember the staging URL.\nEOF"})),
		rl(2, "response_item", call("exec_command", "", "c2", map[string]any{"cmd": "echo hi | tee " + notes + "2026-11-20T09-00-02-b.md"})),
		rl(3, "response_item", call("exec_command", "", "c3", map[string]any{"cmd": "sed -i 's/a/b/' ~/.codex/memories/MEMORY.md"})),
		rl(4, "response_item", call("exec_command", "", "c4", map[string]any{"cmd": "cat " + notes + "2026-11-20T09-00-01-a.md"})),
		rl(5, "response_item", call("exec_command", "", "c5", map[string]any{"cmd": "rm " + notes + "2026-11-20T09-00-02-b.md"})),
		rl(6, "response_item", call("exec_command", "", "c6", map[string]any{"cmd": "python3 -c \"open('" + notes + "2026-11-20T09-00-06-c.md','w').write('x')\""})),
	}
	r := ParseRollout("r", []byte(strings.Join(lines, "\n")+"\n"), nil)
	var got []string
	for _, w := range append(r.NoteWrites, r.Edits...) {
		got = append(got, strings.TrimSpace(w.Op+" "+w.Path+" "+w.Text))
	}
	want := []string{
		"write extensions/ad_hoc/notes/2026-11-20T09-00-01-a.md Remember the staging URL.",
		"write extensions/ad_hoc/notes/2026-11-20T09-00-02-b.md",
		"delete extensions/ad_hoc/notes/2026-11-20T09-00-02-b.md",
		"write extensions/ad_hoc/notes/2026-11-20T09-00-06-c.md",
		"write MEMORY.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("writes:\n got %q\nwant %q", got, want)
	}
	if len(r.Reads) != 0 {
		t.Errorf("reads: %+v (a note read does not count; sed -i writes)", r.Reads)
	}
}

// TestRolloutGitSubcommands: Codex's store keeps a git baseline, so an
// agent may run git in it. What git does to a path is its subcommand's:
// git rm deletes, git mv moves (its source deleted, its target written),
// git checkout and git restore overwrite, git diff reads. Paths are
// relative to the folder -C names, and that folder is not a file read.
func TestRolloutGitSubcommands(t *testing.T) {
	notes := "extensions/ad_hoc/notes/"
	cmds := []string{
		"git -C ~/.codex/memories rm -q " + notes + "2026-11-20T09-00-01-a.md",
		"git -C ~/.codex/memories mv MEMORY.md memory_summary.md",
		"git -c core.pager=cat -C ~/.codex/memories checkout -- raw_memories.md",
		"cd /w && git -C $CODEX_HOME restore memories/" + notes + "2026-11-20T09-00-04-d.md",
		"git -C ~/.codex/memories diff MEMORY.md",
	}
	lines := []string{rl(0, "session_meta", meta(fxThread, "/w"))}
	for i, c := range cmds {
		lines = append(lines, rl(i+1, "response_item", call("exec_command", "", "c"+strconv.Itoa(i+1), map[string]any{"cmd": c})))
	}
	// Run in the store itself, the command's own word is no path: rm
	// deletes the note and nothing named "rm".
	lines = append(lines, rl(9, "response_item", call("exec_command", "", "c9", map[string]any{"cmd": "rm " + notes + "2026-11-20T09-00-05-e.md", "workdir": "/home/dev/.codex/memories"})))
	r := ParseRollout("r", []byte(strings.Join(lines, "\n")+"\n"), nil)
	var got []string
	for _, w := range append(r.NoteWrites, r.Edits...) {
		got = append(got, w.Op+" "+w.Path)
	}
	want := []string{
		"delete extensions/ad_hoc/notes/2026-11-20T09-00-01-a.md",
		"write extensions/ad_hoc/notes/2026-11-20T09-00-04-d.md",
		"delete extensions/ad_hoc/notes/2026-11-20T09-00-05-e.md",
		"delete MEMORY.md",
		"write memory_summary.md",
		"write raw_memories.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("writes:\n got %q\nwant %q", got, want)
	}
	var reads []string
	for _, rd := range r.Reads {
		reads = append(reads, rd.Path)
	}
	if !slices.Equal(reads, []string{"MEMORY.md"}) {
		t.Errorf("reads: %q, want MEMORY.md alone (the -C folder is not a read)", reads)
	}
}

// TestRolloutQuotedCommands: quoted text is one word. A search for
// "deploy|staging" in a note reads it (a pipe in the pattern made
// "staging" the command, and the read a note write); a shell's quoted
// script (bash -lc '...') is commands all the same, its own quotes one
// word again.
func TestRolloutQuotedCommands(t *testing.T) {
	notes := "~/.codex/memories/extensions/ad_hoc/notes/"
	cmds := []string{
		`rg -n "deploy|staging" ` + notes + "2026-11-20T09-00-01-a.md",
		`grep -E 'a;b' ` + notes + "2026-11-20T09-00-01-a.md",
		`bash -lc 'rg "x|y" ` + notes + `2026-11-20T09-00-01-a.md; cat ~/.codex/memories/MEMORY.md; rm ` + notes + `2026-11-20T09-00-02-b.md'`,
		`echo "a; b" > ` + notes + "2026-11-20T09-00-03-c.md",
	}
	lines := []string{rl(0, "session_meta", meta(fxThread, "/w"))}
	for i, c := range cmds {
		lines = append(lines, rl(i+1, "response_item", call("exec_command", "", "c"+strconv.Itoa(i+1), map[string]any{"cmd": c})))
	}
	r := ParseRollout("r", []byte(strings.Join(lines, "\n")+"\n"), nil)
	var got []string
	for _, w := range append(r.NoteWrites, r.Edits...) {
		got = append(got, w.Op+" "+w.Path)
	}
	want := []string{
		"delete extensions/ad_hoc/notes/2026-11-20T09-00-02-b.md",
		"write extensions/ad_hoc/notes/2026-11-20T09-00-03-c.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("writes:\n got %q\nwant %q", got, want)
	}
	if len(r.Reads) != 1 || r.Reads[0].Path != "MEMORY.md" {
		t.Errorf("reads: %+v, want MEMORY.md (by the script's cat)", r.Reads)
	}
}

// TestRolloutFailures: a search that finds nothing (exit 1) still read
// the file; a cat that exits 1 did not; a note whose call failed is
// marked so.
func TestRolloutFailures(t *testing.T) {
	lines := []string{
		rl(0, "session_meta", meta(fxThread, "/w")),
		rl(1, "response_item", call("exec_command", "", "c1", map[string]any{"cmd": "rg zzz ~/.codex/memories/MEMORY.md"})),
		rl(1, "response_item", output("c1", "Process exited with code 1\nOutput:\n")),
		rl(2, "response_item", call("exec_command", "", "c2", map[string]any{"cmd": "cat ~/.codex/memories/raw_memories.md"})),
		rl(2, "response_item", output("c2", `{"output":"cat: no such file","metadata":{"exit_code":1,"duration_seconds":0.0}}`)),
		rl(3, "response_item", call("add_ad_hoc_note", "memories", "c3", map[string]any{"filename": "2026-11-20T09-00-03-x.md", "note": "n"})),
		rl(3, "response_item", map[string]any{"type": "function_call_output", "call_id": "c3", "output": map[string]any{"content": "note exists", "success": false}}),
	}
	r := ParseRollout("r", []byte(strings.Join(lines, "\n")+"\n"), nil)
	if len(r.Reads) != 2 || r.Reads[0].Failed || !r.Reads[1].Failed {
		t.Errorf("reads: %+v", r.Reads)
	}
	if len(r.NoteWrites) != 1 || !r.NoteWrites[0].Failed {
		t.Errorf("note: %+v", r.NoteWrites)
	}
}

// TestRolloutBounds: a line too long to hold is a problem; a last line
// still being written is dropped quietly; a rollout with no memory in it
// keeps its session.
func TestRolloutBounds(t *testing.T) {
	p := NewRolloutParser("r", nil)
	p.Line([]byte(rl(0, "session_meta", meta(fxThread, "/w"))))
	p.LongLine([]byte(`{"timestamp":"2026-11-20T09:00:05.000Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"cat ~/.codex/memories/MEMORY.md`), 300<<20)
	p.Tail([]byte(`{"timestamp":"2026-11-20T09:00:06.000Z","type":"event_msg","payload":{"type":"agent_message","memory_cit`))
	r := p.Finish()
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "line 2 is 300.0 MiB") || !strings.Contains(r.Problems[0], "mentions memory") {
		t.Errorf("problems: %q", r.Problems)
	}
	if r.ThreadID != fxThread || r.Lines != 3 || len(r.Reads) != 0 {
		t.Errorf("%+v", r)
	}
	// An older build's meta (no memory_mode): nothing in the rollout
	// names memory, and its session is known all the same.
	old := rl(0, "session_meta", map[string]any{"id": fxThread, "cwd": "/w", "cli_version": "0.98.0", "source": "exec"})
	quiet := old + "\n" + rl(1, "response_item", message("user", "hello")) + "\n"
	if r := ParseRollout("r", []byte(quiet), nil); r.ThreadID != fxThread || r.Source != "exec" || r.Decoded != 1 {
		t.Errorf("a rollout without memory: %q, decoded %d lines, want only its meta", r.ThreadID, r.Decoded)
	}
}

// envelope is a rollout line's fields in the order Codex writes them.
type envelope struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   any    `json:"payload"`
}

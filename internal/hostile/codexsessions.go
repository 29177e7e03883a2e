package hostile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// CodexThread is the hostile Codex session's thread id.
const CodexThread = "0199a1b2-c3d4-7e5f-8a6b-00000000e511"

// codexHugeLine is past the longest line memtui decodes of a rollout
// (16 MiB): the reader must skip it, holding no more than its head.
const codexHugeLine = 16<<20 + 4096

// buildCodexSessions writes the Codex home's session rollouts the way an
// attacker would leave them (codex-memory-format.md §6.1 for their
// shapes): escape sequences and a newline before a forged line in the
// session's cwd, version and source, in the paths it reads and the notes
// it writes, in a citation's file, note and rollout id; a token in a
// note's text and in a patch's; a line past memtui's line cap that
// mentions the store; a compressed rollout and one whose name holds
// escapes. memtui's sessions and history show this session; every output
// is checked for what it must not show.
func (t *Tree) buildCodexSessions() error {
	noteTok, patchTok := token("codex-note"), token("codex-patch")
	t.Secrets["the GitHub token in a Codex session's add_ad_hoc_note text"] = []string{noteTok}
	t.Secrets["the GitHub token in a Codex session's apply_patch note"] = []string{patchTok}
	esc := OSC0 + "\n" + Forged
	line := func(ts, typ string, payload any) string {
		b, err := json.Marshal(struct {
			Timestamp string `json:"timestamp"`
			Type      string `json:"type"`
			Payload   any    `json:"payload"`
		}{"2026-11-20T09:00:" + ts + ".000Z", typ, payload})
		if err != nil {
			panic(err)
		}
		return string(b) + "\n"
	}
	call := func(ts, name, ns, id string, args any) string {
		b, _ := json.Marshal(args)
		p := map[string]any{"type": "function_call", "name": name, "arguments": string(b), "call_id": id}
		if ns != "" {
			p["namespace"] = ns
		}
		return line(ts, "response_item", p)
	}
	notes := "~/.codex/memories/extensions/ad_hoc/notes/"
	citation := "Done " + Clear + ".\n<oai-mem-citation>\n<citation_entries>\nMEMORY.md" + OSC8 + ":1-2|note=[" + All + "]\n</citation_entries>\n<rollout_ids>\n" + CodexThread + OSC52 + "\n</rollout_ids>\n</oai-mem-citation>"
	var b strings.Builder
	b.WriteString(line("00", "session_meta", map[string]any{"id": CodexThread, "timestamp": "2026-11-20T09:00:00.000Z", "cwd": "/work/" + esc,
		"cli_version": "0.132.0" + C1CSI, "source": "cli" + Clear, "memory_mode": "enabled" + Bidi}))
	b.WriteString(line("01", "response_item", map[string]any{"type": "message", "role": "developer", "content": []any{map[string]any{"type": "input_text",
		"text": "## Memory\n========= MEMORY_SUMMARY BEGINS =========\nv1 " + All + "\n========= MEMORY_SUMMARY ENDS =========\n"}}}))
	b.WriteString(call("02", "exec_command", "", "call_"+OSC0, map[string]any{"cmd": "cat ~/.codex/memories/MEMORY.md ~/.codex/memories/skills/esc" + Erase + "/SKILL.md"}))
	b.WriteString(call("03", "read", "memories", "call_r"+Clear, map[string]any{"path": "rollout_summaries/" + esc + ".md"}))
	b.WriteString(call("04", "add_ad_hoc_note", "memories", "call_n", map[string]any{"filename": "2026-11-20T09-00-04-n" + esc + ".md", "note": "Deploy with " + noteTok + " " + All}))
	b.WriteString(line("05", "response_item", map[string]any{"type": "custom_tool_call", "name": "apply_patch" + OSC0, "call_id": "call_p",
		"input": "*** Begin Patch\n*** Add File: " + notes + "2026-11-20T09-00-05-p" + OSC52 + ".md\n+token " + patchTok + " " + Clear + "\n*** End Patch\n"}))
	b.WriteString(line("06", "response_item", map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": citation}}}))
	b.WriteString(line("06", "event_msg", map[string]any{"type": "agent_message", "message": "Done.", "memory_citation": map[string]any{
		"entries": []any{map[string]any{"path": "MEMORY.md" + OSC8, "lineStart": 1, "lineEnd": 2, "note": All}}, "rolloutIds": []any{CodexThread + OSC52}}}))
	// The huge line: a tool result that names the store, past the cap.
	b.WriteString(`{"timestamp":"2026-11-20T09:00:07.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_h","output":"~/.codex/memories/MEMORY.md `)
	b.WriteString(strings.Repeat("A", codexHugeLine))
	b.WriteString("\"}}\n")
	b.WriteString(call("08", "exec_command", "", "call_after", map[string]any{"cmd": "rg -n deploy ~/.codex/memories/raw_memories.md"}))
	b.WriteString("not json " + esc + " memories\n")
	sessions := filepath.Join(t.CodexHome, "sessions", "2026", "11", "20")
	if err := os.MkdirAll(sessions, 0o755); err != nil {
		return err
	}
	files := map[string]string{
		"rollout-2026-11-20T09-00-00-" + CodexThread + ".jsonl":          b.String(),
		"rollout-2026-11-20T08-00-00-" + OSC0 + "\n" + Forged + ".jsonl": line("00", "session_meta", map[string]any{"id": "x" + OSC52}),
		"rollout-2026-11-20T07-00-00-" + Clear + ".jsonl.zst":            "\x28\xb5\x2f\xfd",
	}
	for name, c := range files {
		if err := os.WriteFile(filepath.Join(sessions, name), []byte(c), 0o644); err != nil {
			return err
		}
	}
	return nil
}

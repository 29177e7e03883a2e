package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A Codex home whose rollouts (codex facts §6.1, written by hand) record
// a session in /home/dev/shop that had the summary loaded, read
// MEMORY.md with rg, read a skill through memories.read, cited MEMORY.md
// and a rollout summary's thread (raw and parsed: one citation), and
// wrote a note with add_ad_hoc_note; one in /home/dev/blog that read
// raw_memories.md; and one that only had the summary loaded.

const (
	cxShop  = "0199a1b2-c3d4-7e5f-8a6b-1c2d3e4f5a6b"
	cxBlog  = "0199a1b2-c3d4-7e5f-8a6b-00000000b10c"
	cxIdle  = "0199a1b2-c3d4-7e5f-8a6b-0000000001d1"
	cxCited = "0194f5a6-89ab-7cde-8123-456789abcdef"
	cxStem  = "2025-02-11T15-35-19-jqmb"
	cxNote  = "2026-11-20T09-00-07-deploy-days.md"
)

func cxLine(sec int, typ string, payload any) string {
	ts := time.Date(2026, 11, 20, 9, 0, sec, 0, time.UTC).Format("2006-01-02T15:04:05.000Z")
	b, _ := json.Marshal(envelope{ts, typ, payload})
	return string(b) + "\n"
}

func cxMeta(id, cwd string) string {
	return cxLine(0, "session_meta", map[string]any{"id": id, "timestamp": "2026-11-20T09:00:00.000Z", "cwd": cwd, "cli_version": "0.132.0", "source": "cli", "memory_mode": "enabled"})
}

func cxCall(sec int, name, ns, id string, args any) string {
	b, _ := json.Marshal(args)
	p := map[string]any{"type": "function_call", "name": name, "arguments": string(b), "call_id": id}
	if ns != "" {
		p["namespace"] = ns
	}
	return cxLine(sec, "response_item", p)
}

func cxMessage(sec int, role, text string) string {
	return cxLine(sec, "response_item", map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": "output_text", "text": text}}})
}

const cxInjected = "## Memory\n\n========= MEMORY_SUMMARY BEGINS =========\nv1\n\n## User Profile\nA backend engineer.\n========= MEMORY_SUMMARY ENDS =========\n"

// codexProvenanceHome writes the home (with a Claude Code project
// beside it) and returns HOME.
func codexProvenanceHome(t *testing.T) string {
	home := t.TempDir()
	cx := filepath.Join(home, ".codex")
	writeFile(t, filepath.Join(cx, "memories", "memory_summary.md"), "v1\n\n## User Profile\nA backend engineer.\n")
	writeFile(t, filepath.Join(cx, "memories", "MEMORY.md"), "# Task Group: shop deploys\nscope: deploys\napplies_to: cwd=/home/dev/shop; reuse_rule=always\n")
	writeFile(t, filepath.Join(cx, "memories", "rollout_summaries", cxStem+".md"), "thread_id: "+cxCited+"\nupdated_at: 2025-02-11T15:40:00+00:00\nrollout_path: /r.jsonl\ncwd: /home/dev/shop\n\n# Cut release 2.3\n")
	writeFile(t, filepath.Join(cx, "memories", "raw_memories.md"), "# Raw Memories\n\nNo raw memories yet.\n")
	citation := "Tuesdays.\n\n<oai-mem-citation>\n<citation_entries>\nMEMORY.md:12-20|note=[deploy days]\n</citation_entries>\n<rollout_ids>\n" + cxCited + "\n</rollout_ids>\n</oai-mem-citation>"
	shop := cxMeta(cxShop, "/home/dev/shop") +
		cxMessage(1, "developer", cxInjected) +
		cxCall(2, "exec_command", "", "call_a", map[string]any{"cmd": `rg -n "deploy" ~/.codex/memories/MEMORY.md`}) +
		cxCall(3, "read", "memories", "call_b", map[string]any{"path": "skills/release-notes/SKILL.md"}) +
		cxCall(4, "exec_command", "", "call_c", map[string]any{"cmd": "cat /home/dev/shop/MEMORY.md"}) +
		cxMessage(5, "assistant", citation) +
		cxLine(5, "event_msg", map[string]any{"type": "agent_message", "message": "Tuesdays.", "memory_citation": map[string]any{
			"entries": []any{map[string]any{"path": "MEMORY.md", "lineStart": 12, "lineEnd": 20, "note": "deploy days"}}, "rolloutIds": []any{cxCited}}}) +
		cxCall(7, "add_ad_hoc_note", "memories", "call_d", map[string]any{"filename": cxNote, "note": "Deploys are on Tuesdays only."})
	writeFile(t, filepath.Join(cx, "sessions", "2026", "11", "20", "rollout-2026-11-20T09-00-00-"+cxShop+".jsonl"), shop)
	writeFile(t, filepath.Join(cx, "sessions", "2026", "11", "19", "rollout-2026-11-19T09-00-00-"+cxBlog+".jsonl"),
		strings.ReplaceAll(cxMeta(cxBlog, "/home/dev/blog")+cxCall(1, "exec_command", "", "call_x", map[string]any{"cmd": "cat ~/.codex/memories/raw_memories.md"}), "2026-11-20T", "2026-11-19T"))
	writeFile(t, filepath.Join(cx, "archived_sessions", "rollout-2026-11-18T09-00-00-"+cxIdle+".jsonl"), cxMeta(cxIdle, "/home/dev/shop")+cxMessage(1, "developer", cxInjected))
	writeFile(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory", "MEMORY.md"), "- [A](a.md) — a\n")
	writeFile(t, filepath.Join(home, ".claude", "projects", "-work-api", "memory", "a.md"), "---\nname: a\ndescription: A\ntype: project\n---\n\nA.\n")
	return home
}

type cxSessionsOut struct {
	Sessions []struct {
		ID          string   `json:"id"`
		Kind        string   `json:"kind"`
		Key         string   `json:"key"`
		Project     string   `json:"project"`
		MemoryDir   string   `json:"memory_dir"`
		Cwd         string   `json:"cwd"`
		Read        []string `json:"read"`
		CodingAgent string   `json:"coding_agent"`
		Store       string   `json:"store"`
		Written     []struct{ File, Op, Tool string }
		Codex       *struct {
			ThreadID       string   `json:"thread_id"`
			SummaryLoaded  bool     `json:"summary_loaded"`
			CitedSummaries []string `json:"cited_summaries"`
			Citations      []struct {
				Entries []struct {
					File      string `json:"file"`
					LineStart int    `json:"line_start"`
					LineEnd   int    `json:"line_end"`
				} `json:"entries"`
				RolloutIDs  []string `json:"rollout_ids"`
				Raw, Parsed bool
			} `json:"citations"`
			Notes []struct{ File, Text string } `json:"notes"`
		} `json:"codex"`
	} `json:"sessions"`
}

// TestSessionsCodex: sessions lists Codex's sessions that read, cited or
// wrote memory, labelled with the agent and the store (text and JSON);
// --agent claude leaves them out, --agent codex keeps only them;
// --since and --project narrow them.
func TestSessionsCodex(t *testing.T) {
	home := codexProvenanceHome(t)
	e := env("HOME", home, "XDG_STATE_HOME", filepath.Join(t.TempDir(), "state"))
	run := func(args ...string) cxSessionsOut {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, append([]string{"--now", "2026-11-21"}, args...)...)
		var got cxSessionsOut
		if code != exitOK || json.Unmarshal([]byte(stdout), &got) != nil {
			t.Fatalf("%q: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
		return got
	}
	got := run("sessions", "--json")
	if len(got.Sessions) != 2 {
		t.Fatalf("%d sessions, want the shop and blog ones (the idle one only had the summary loaded): %+v", len(got.Sessions), got.Sessions)
	}
	s := got.Sessions[0]
	root := filepath.Join(home, ".codex", "memories")
	if s.ID != cxShop || s.CodingAgent != "codex" || s.Store != "codex" || s.MemoryDir != root || s.Project != "/home/dev/shop" || s.Kind != "main" || s.Key != "codex/"+cxShop {
		t.Errorf("the shop session: %+v", s)
	}
	if !slices.Equal(s.Read, []string{"MEMORY.md", "skills/release-notes/SKILL.md"}) {
		t.Errorf("read %q (a project's own MEMORY.md is not Codex's)", s.Read)
	}
	if len(s.Written) != 1 || s.Written[0].File != "extensions/ad_hoc/notes/"+cxNote || s.Written[0].Op != "create" {
		t.Errorf("written %+v", s.Written)
	}
	c := s.Codex
	if c == nil || !c.SummaryLoaded || len(c.Citations) != 1 || !c.Citations[0].Raw || !c.Citations[0].Parsed ||
		c.Citations[0].Entries[0].File != "MEMORY.md" || c.Citations[0].Entries[0].LineEnd != 20 ||
		!slices.Equal(c.CitedSummaries, []string{"rollout_summaries/" + cxStem + ".md"}) || len(c.Notes) != 1 || c.Notes[0].Text != "Deploys are on Tuesdays only." {
		t.Errorf("the Codex part: %+v", c)
	}
	if b := got.Sessions[1]; b.ID != cxBlog || !slices.Equal(b.Read, []string{"raw_memories.md"}) {
		t.Errorf("the blog session: %+v", b)
	}
	if got := run("--agent", "claude", "sessions", "--json"); len(got.Sessions) != 0 {
		t.Errorf("--agent claude lists %d sessions", len(got.Sessions))
	}
	if got := run("--agent", "codex", "sessions", "--json", "--since", "2026-11-20"); len(got.Sessions) != 1 || got.Sessions[0].ID != cxShop {
		t.Errorf("--since 2026-11-20: %+v", got.Sessions)
	}
	if got := run("--project", "blog", "sessions", "--json"); len(got.Sessions) != 1 || got.Sessions[0].ID != cxBlog {
		t.Errorf("--project blog: %+v", got.Sessions)
	}

	code, stdout, stderr := runCLI(t, e, "--now", "2026-11-21", "--agent", "codex", "sessions")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"Codex  ~/.codex\n  ~/.codex/memories\n",
		"0199a1b2  codex cli 0.132.0, 2026-11-20 09:00 UTC\n      in /home/dev/shop\n      loaded    memory_summary.md",
		"read      MEMORY.md, skills/release-notes/SKILL.md\n",
		"cited     MEMORY.md:12-20; the memories of 1 thread (09:00 UTC)\n",
		"its citations name the threads of rollout_summaries/" + cxStem + ".md\n",
		"note      extensions/ad_hoc/notes/" + cxNote + " (create, memories.add_ad_hoc_note, 2026-11-20 09:00 UTC): “Deploys are on Tuesdays only.”\n",
		"1 more session had the summary loaded and used no memory otherwise\n",
		"2 sessions.",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the text lacks %q:\n%s", want, stdout)
		}
	}
}

type cxHistoryOut struct {
	Memories []struct {
		MemoryDir   string `json:"memory_dir"`
		File        string `json:"file"`
		Exists      bool   `json:"exists"`
		Reads       int    `json:"reads"`
		IndexLoads  int    `json:"index_loads"`
		CodingAgent string `json:"coding_agent"`
		Writes      []struct {
			SessionID  string `json:"session_id"`
			Op         string `json:"op"`
			Tool       string `json:"tool"`
			ToolUseID  string `json:"tool_use_id"`
			Transcript string `json:"transcript"`
		} `json:"writes"`
		Codex *struct {
			Kind            string                     `json:"kind"`
			Citations       int                        `json:"citations"`
			ThreadCitations int                        `json:"thread_citations"`
			CitedLines      []struct{ Start, End int } `json:"cited_lines"`
			Sessions        []struct {
				ThreadID                 string `json:"thread_id"`
				Reads, Citations, Writes int
				ThreadCitations          int `json:"thread_citations"`
			} `json:"sessions"`
		} `json:"codex"`
	} `json:"memories"`
}

// TestHistoryCodex: history of a Codex file (by its absolute path, or
// relative to memories/) lists the sessions that read, cited or wrote
// it; a rollout summary shows its thread's citations; a note its writer;
// --agent claude does not know Codex's files.
func TestHistoryCodex(t *testing.T) {
	home := codexProvenanceHome(t)
	root := filepath.Join(home, ".codex", "memories")
	e := env("HOME", home, "XDG_STATE_HOME", filepath.Join(t.TempDir(), "state"))
	run := func(args ...string) cxHistoryOut {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, append([]string{"--now", "2026-11-21", "history", "--json"}, args...)...)
		var got cxHistoryOut
		if code != exitOK || json.Unmarshal([]byte(stdout), &got) != nil {
			t.Fatalf("%q: exit %d\n%s\n%s", args, code, stdout, stderr)
		}
		return got
	}
	got := run(filepath.Join(root, "MEMORY.md"))
	if len(got.Memories) != 1 {
		t.Fatalf("%+v", got.Memories)
	}
	m := got.Memories[0]
	if m.CodingAgent != "codex" || m.MemoryDir != root || m.File != "MEMORY.md" || !m.Exists || m.Reads != 1 || m.Codex == nil ||
		m.Codex.Kind != "handbook" || m.Codex.Citations != 1 || len(m.Codex.CitedLines) != 1 || m.Codex.CitedLines[0].End != 20 {
		t.Errorf("MEMORY.md: %+v %+v", m, m.Codex)
	}
	if m.Codex == nil || len(m.Codex.Sessions) != 1 || m.Codex.Sessions[0].ThreadID != cxShop || m.Codex.Sessions[0].Reads != 1 || m.Codex.Sessions[0].Citations != 1 {
		t.Errorf("MEMORY.md's sessions: %+v", m.Codex)
	}
	got = run("rollout_summaries/"+cxStem+".md", "memory_summary.md", "extensions/ad_hoc/notes/"+cxNote)
	if len(got.Memories) != 3 {
		t.Fatalf("%+v", got.Memories)
	}
	byFile := map[string]int{}
	for i, x := range got.Memories {
		byFile[x.File] = i
	}
	rs := got.Memories[byFile["rollout_summaries/"+cxStem+".md"]]
	if rs.Codex.ThreadCitations != 1 || len(rs.Codex.Sessions) != 1 || rs.Codex.Sessions[0].ThreadCitations != 1 {
		t.Errorf("the cited thread's summary: %+v", rs.Codex)
	}
	if sum := got.Memories[byFile["memory_summary.md"]]; sum.IndexLoads != 2 {
		t.Errorf("the summary was loaded into %d sessions, want 2", sum.IndexLoads)
	}
	note := got.Memories[byFile["extensions/ad_hoc/notes/"+cxNote]]
	if note.Exists || len(note.Writes) != 1 || note.Writes[0].SessionID != cxShop || note.Writes[0].Tool != "memories.add_ad_hoc_note" || note.Writes[0].ToolUseID != "call_d" ||
		!strings.HasSuffix(note.Writes[0].Transcript, cxShop+".jsonl") {
		t.Errorf("the note: %+v", note)
	}

	code, stdout, _ := runCLI(t, e, "--now", "2026-11-21", "history", "MEMORY.md", filepath.Join(root, "rollout_summaries", cxStem+".md"), "extensions/ad_hoc/notes/"+cxNote)
	for _, want := range []string{
		"Codex  ~/.codex\n  ~/.codex/memories  (rollouts since 2026-11-19)\n",
		"    MEMORY.md\n      read 1 time in 1 session, last 2026-11-20 09:00 UTC; cited 1 time (lines 12-20) in 1 session\n      0199a1b2  read, cited  2026-11-20 09:00 UTC  in /home/dev/shop\n",
		"rollout_summaries/" + cxStem + ".md\n      its thread's memories cited 1 time in 1 session\n      0199a1b2  used its thread's memories",
		"    extensions/ad_hoc/notes/" + cxNote + "  (not on disk)\n      create  0199a1b2 memories.add_ad_hoc_note, 2026-11-20 09:00 UTC: “Deploys are on Tuesdays only.”\n              in /home/dev/shop · call_d\n",
		"4 files (1 deleted), 1 write recorded.",
	} {
		if code != exitOK || !strings.Contains(stdout, want) {
			t.Errorf("exit %d; the text lacks %q:\n%s", code, want, stdout)
		}
	}
	if code, _, stderr := runCLI(t, e, "--now", "2026-11-21", "--agent", "claude", "history", filepath.Join(root, "MEMORY.md")); code == exitOK || !strings.Contains(strings.ToLower(stderr), "no memory directory knows") {
		t.Errorf("--agent claude knows Codex's MEMORY.md: exit %d\n%s", code, stderr)
	}
}

// envelope is a rollout line's fields in the order Codex writes them.
type envelope struct {
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Payload   any    `json:"payload"`
}

package main

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// historyJSONOut is `history --json`, with exactly the documented names.
type historyJSONOut struct {
	Version  int `json:"version"`
	Memories []struct {
		MemoryDir string `json:"memory_dir"`
		File      string `json:"file"`
		Exists    bool   `json:"exists"`
		Writes    []struct {
			SessionID string `json:"session_id"`
			Title     string `json:"title"`
			Cwd       string `json:"cwd"`
			Branch    string `json:"branch"`
			Tool      string `json:"tool"`
			Op        string `json:"op"`
			Time      string `json:"time"`
			ToolUseID string `json:"tool_use_id"`
		} `json:"writes"`
		Reads      int `json:"reads"`
		ReReads    int `json:"re_reads"`
		Recalls    int `json:"recalls"`
		IndexLoads int `json:"index_loads"`
	} `json:"memories"`
	Problems []struct {
		Transcript string `json:"transcript"`
		Message    string `json:"message"`
	} `json:"problems"`
}

const (
	histA = "aaaa1111-1d7b-4c3e-9a46-0b8e2f1d7c90"
	histB = "bbbb2222-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
)

// historyTree is a project whose two sessions create, edit and delete
// memories with Write, Edit and shell commands, and read, re-read, recall
// and load them. Lines are as Claude Code 2.1.2xx writes them
// (transcript-format.md §6); every path is filled in for the temp dir.
// Session A ("Tidy memories", on main):
//
//	09:00 Write creates feedback_tabs.md     09:01 Edit changes it
//	09:02 Write creates old_note.md          09:04 echo >> feedback_tabs.md
//	09:05 rm old_note.md                     09:06 Read feedback_tabs.md
//	09:10 echo > scratch.md   09:11 rm scratch.md   09:12 echo > scratch.md
//	09:13 mv scratch.md archive/scratch.md
//	09:14 Write to old_note.md that failed (is_error): no write
//
// Session B ("Deploy notes", on feat/deploy, cwd /work/shop/api):
//
//	09:03 Read old_note.md   09:07 MEMORY.md loaded (instructions)
//	09:08 Read feedback_tabs.md   09:09 unchanged re-read of it
//	09:09:30 feedback_tabs.md recalled (relevant_memories)
//	09:15 cat feedback_tabs.md > /tmp/tabs.md: neither read nor write
//
// On disk at the end: MEMORY.md, feedback_tabs.md, archive/scratch.md and
// untouched.md; old_note.md and scratch.md are gone. A second project,
// -work-blog, has one memory and no transcript.
func historyTree(t *testing.T) (cfg, mem string) {
	t.Helper()
	cfg = t.TempDir()
	proj := filepath.Join(cfg, "projects", "-work-shop")
	mem = filepath.Join(proj, "memory")
	p := func(rel string) string { return filepath.Join(mem, filepath.FromSlash(rel)) }
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	tabs0 := "---\nname: tabs\ndescription: Indentation\ntype: feedback\n---\n\nUse tabs.\n"
	tabs1 := strings.Replace(tabs0, "Use tabs.", "Use tabs in Go files only.", 1)
	note := "---\nname: note\ndescription: A passing note\ntype: project\n---\n\nShort-lived.\n"

	envA := `"cwd":"/work/shop","sessionId":"` + histA + `","version":"2.1.226","gitBranch":"main","userType":"external","entrypoint":"cli"`
	envB := `"cwd":"/work/shop/api","sessionId":"` + histB + `","version":"2.1.280","gitBranch":"feat/deploy","userType":"external","entrypoint":"cli"`
	use := func(env, uuid, ts, id, name, input string) string {
		return `{"parentUuid":null,"isSidechain":false,"type":"assistant","uuid":"` + uuid + `","timestamp":"2026-11-20T` + ts + `Z",` + env +
			`,"message":{"role":"assistant","type":"message","content":[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `}]}}`
	}
	result := func(env, uuid, ts, id, text, tur string, isErr bool) string {
		errField := ""
		if isErr {
			errField = `,"is_error":true`
		}
		l := `{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"` + uuid + `","timestamp":"2026-11-20T` + ts + `Z",` + env +
			`,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":` + js(text) + errField + `}]}`
		if tur != "" {
			l += `,"toolUseResult":` + tur
		}
		return l + "}"
	}
	bash := func(env, n, ts, id, cmd string) []string {
		return []string{
			use(env, "u-"+n+"a", ts+":00.000", id, "Bash", `{"command":`+js(cmd)+`}`),
			result(env, "u-"+n+"b", ts+":00.400", id, "", `{"stdout":"","stderr":"","interrupted":false,"isImage":false}`, false),
		}
	}
	a := []string{
		`{"type":"ai-title","aiTitle":"Tidy memories","sessionId":"` + histA + `"}`,
		`{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"u-00","timestamp":"2026-11-20T08:59:00.000Z",` + envA + `,"message":{"role":"user","content":"tidy the memories"}}`,
		use(envA, "u-01", "09:00:00.000", "toolu_01HistWriteTabs", "Write", `{"file_path":`+js(p("feedback_tabs.md"))+`,"content":`+js(tabs0)+`}`),
		result(envA, "u-02", "09:00:00.500", "toolu_01HistWriteTabs", "File created successfully at: "+p("feedback_tabs.md"),
			`{"type":"create","filePath":`+js(p("feedback_tabs.md"))+`,"content":`+js(tabs0)+`,"structuredPatch":[],"originalFile":null}`, false),
		use(envA, "u-03", "09:01:00.000", "toolu_01HistEditTabs", "Edit", `{"file_path":`+js(p("feedback_tabs.md"))+`,"old_string":"Use tabs.","new_string":"Use tabs in Go files only."}`),
		result(envA, "u-04", "09:01:00.500", "toolu_01HistEditTabs", "The file "+p("feedback_tabs.md")+" has been updated successfully.",
			`{"filePath":`+js(p("feedback_tabs.md"))+`,"oldString":"Use tabs.","newString":"Use tabs in Go files only.","originalFile":`+js(tabs0)+`,"userModified":false,"replaceAll":false}`, false),
		use(envA, "u-05", "09:02:00.000", "toolu_01HistWriteNote", "Write", `{"file_path":`+js(p("old_note.md"))+`,"content":`+js(note)+`}`),
		result(envA, "u-06", "09:02:00.500", "toolu_01HistWriteNote", "File created successfully at: "+p("old_note.md"),
			`{"type":"create","filePath":`+js(p("old_note.md"))+`,"content":`+js(note)+`,"structuredPatch":[],"originalFile":null}`, false),
	}
	a = append(a, bash(envA, "07", "09:04", "toolu_01HistAppendTabs", "echo 'Spaces in YAML.' >> "+p("feedback_tabs.md"))...)
	a = append(a, bash(envA, "08", "09:05", "toolu_01HistRmNote", "rm "+p("old_note.md"))...)
	a = append(a,
		use(envA, "u-09", "09:06:00.000", "toolu_01HistReadTabsA", "Read", `{"file_path":`+js(p("feedback_tabs.md"))+`}`),
		result(envA, "u-10", "09:06:00.300", "toolu_01HistReadTabsA", "1\t---\n2\tname: tabs\n", `{"type":"text","file":{"filePath":`+js(p("feedback_tabs.md"))+`,"content":`+js(tabs1)+`,"numLines":7,"startLine":1,"totalLines":7}}`, false))
	a = append(a, bash(envA, "11", "09:10", "toolu_01HistScratch1", "cd /work/shop && echo draft > "+p("scratch.md"))...)
	a = append(a, bash(envA, "12", "09:11", "toolu_01HistScratch2", "rm -f "+p("scratch.md"))...)
	a = append(a, bash(envA, "13", "09:12", "toolu_01HistScratch3", "echo again > "+p("scratch.md"))...)
	a = append(a, bash(envA, "14", "09:13", "toolu_01HistScratch4", "mkdir -p "+p("archive")+" && mv "+p("scratch.md")+" "+p("archive/scratch.md"))...)
	a = append(a,
		use(envA, "u-15", "09:14:00.000", "toolu_01HistFailedWrite", "Write", `{"file_path":`+js(p("old_note.md"))+`,"content":"x"}`),
		result(envA, "u-16", "09:14:00.200", "toolu_01HistFailedWrite", "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>",
			`"Error: File has not been read yet. Read it first before writing to it."`, true))

	b := []string{
		`{"type":"custom-title","customTitle":"Deploy notes","sessionId":"` + histB + `"}`,
		use(envB, "v-01", "09:03:00.000", "call_00_HistReadNoteB", "Read", `{"file_path":`+js(p("old_note.md"))+`}`),
		result(envB, "v-02", "09:03:00.300", "call_00_HistReadNoteB", "1\t---\n", `{"type":"text","file":{"filePath":`+js(p("old_note.md"))+`,"content":`+js(note)+`,"numLines":7,"startLine":1,"totalLines":7}}`, false),
		`{"parentUuid":null,"isSidechain":false,"attachment":{"type":"instructions","files":[{"path":` + js(p("MEMORY.md")) + `,"type":"AutoMem","content":"# Memory\n"}]},"type":"attachment","uuid":"v-03","timestamp":"2026-11-20T09:07:00.000Z",` + envB + `}`,
		use(envB, "v-04", "09:08:00.000", "toolu_01HistReadTabsB", "Read", `{"file_path":`+js(p("feedback_tabs.md"))+`}`),
		result(envB, "v-05", "09:08:00.300", "toolu_01HistReadTabsB", "1\t---\n", `{"type":"text","file":{"filePath":`+js(p("feedback_tabs.md"))+`,"content":`+js(tabs1)+`,"numLines":7,"startLine":1,"totalLines":7}}`, false),
		use(envB, "v-06", "09:09:00.000", "toolu_01HistReReadTabsB", "Read", `{"file_path":`+js(p("feedback_tabs.md"))+`}`),
		result(envB, "v-07", "09:09:00.300", "toolu_01HistReReadTabsB", "File unchanged since last read. The content from the earlier Read tool_result in this conversation is still current — refer to that instead of re-reading.",
			`{"type":"file_unchanged","file":{"filePath":`+js(p("feedback_tabs.md"))+`}}`, false),
		`{"parentUuid":null,"isSidechain":false,"attachment":{"type":"relevant_memories","memories":[{"path":` + js(p("feedback_tabs.md")) + `,"content":` + js(tabs1) + `,"mtimeMs":1795000000000.5,"header":"Memory: ` + p("feedback_tabs.md") + `:"}]},"type":"attachment","uuid":"v-08","timestamp":"2026-11-20T09:09:30.000Z",` + envB + `}`,
	}
	b = append(b, bash(envB, "v9", "09:15", "toolu_01HistCatTabs", "cat "+p("feedback_tabs.md")+" > /tmp/tabs.md")...)

	writeFile(t, filepath.Join(proj, histA+".jsonl"), strings.Join(a, "\n")+"\n")
	writeFile(t, filepath.Join(proj, histB+".jsonl"), strings.Join(b, "\n")+"\n")
	writeFile(t, p("MEMORY.md"), "# Memory\n\n- [Tabs](feedback_tabs.md) — tabs in Go only\n")
	writeFile(t, p("feedback_tabs.md"), tabs1+"Spaces in YAML.\n")
	writeFile(t, p("archive/scratch.md"), "again\n")
	writeFile(t, p("untouched.md"), "---\nname: untouched\ndescription: Nobody wrote it here\ntype: user\n---\n\nHello.\n")
	writeFile(t, filepath.Join(cfg, "projects", "-work-blog", "memory", "user_blog.md"), "---\nname: blog\ndescription: Blog\ntype: user\n---\n\nWrites a blog.\n")
	return cfg, mem
}

func historyEnv(t *testing.T) func(string) string {
	return env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
}

func decodeHistory(t *testing.T, s string) historyJSONOut {
	t.Helper()
	var out historyJSONOut
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		t.Fatalf("history --json is not JSON: %v\n%s", err, s)
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatalf("history --json does not decode: %v\n%s", err, s)
	}
	if out.Version != 1 {
		t.Fatalf("version %d, want 1", out.Version)
	}
	return out
}

func TestHistoryJSON(t *testing.T) {
	cfg, mem := historyTree(t)
	code, stdout, stderr := runCLI(t, historyEnv(t), "--config-dir", cfg, "history", "--json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got := decodeHistory(t, stdout)

	type w struct{ sess, title, cwd, branch, tool, op, time, id string }
	type m struct {
		dir, file                          string
		exists                             bool
		writes                             []w
		reads, reReads, recalls, indexLoad int
	}
	blog := filepath.Join(cfg, "projects", "-work-blog", "memory")
	a := func(tool, op, ts, id string) w {
		return w{histA, "Tidy memories", "/work/shop", "main", tool, op, "2026-11-20T" + ts + "Z", id}
	}
	want := []m{
		{dir: blog, file: "user_blog.md", exists: true},
		{dir: mem, file: "MEMORY.md", exists: true, indexLoad: 1},
		{dir: mem, file: "archive/scratch.md", exists: true, writes: []w{a("shell", "modify", "09:13:00.4", "toolu_01HistScratch4")}},
		{dir: mem, file: "feedback_tabs.md", exists: true, reads: 2, reReads: 1, recalls: 1, writes: []w{
			a("Write", "create", "09:00:00.5", "toolu_01HistWriteTabs"),
			a("Edit", "modify", "09:01:00.5", "toolu_01HistEditTabs"),
			a("shell", "modify", "09:04:00.4", "toolu_01HistAppendTabs"),
		}},
		{dir: mem, file: "old_note.md", exists: false, reads: 1, writes: []w{
			a("Write", "create", "09:02:00.5", "toolu_01HistWriteNote"),
			a("shell", "delete", "09:05:00.4", "toolu_01HistRmNote"),
		}},
		{dir: mem, file: "scratch.md", exists: false, writes: []w{
			a("shell", "modify", "09:10:00.4", "toolu_01HistScratch1"),
			a("shell", "delete", "09:11:00.4", "toolu_01HistScratch2"),
			a("shell", "create", "09:12:00.4", "toolu_01HistScratch3"),
			a("shell", "delete", "09:13:00.4", "toolu_01HistScratch4"),
		}},
		{dir: mem, file: "untouched.md", exists: true},
	}
	var have []m
	for _, g := range got.Memories {
		x := m{dir: g.MemoryDir, file: g.File, exists: g.Exists, reads: g.Reads, reReads: g.ReReads, recalls: g.Recalls, indexLoad: g.IndexLoads}
		for _, gw := range g.Writes {
			x.writes = append(x.writes, w{gw.SessionID, gw.Title, gw.Cwd, gw.Branch, gw.Tool, gw.Op, gw.Time, gw.ToolUseID})
		}
		have = append(have, x)
	}
	sort.SliceStable(have, func(i, j int) bool {
		if have[i].dir != have[j].dir {
			return have[i].dir == blog
		}
		return false
	})
	if !reflect.DeepEqual(have, want) {
		t.Errorf("history --json:\n got %+v\nwant %+v", have, want)
	}
	if len(got.Problems) != 0 {
		t.Errorf("problems on clean transcripts: %+v", got.Problems)
	}

	// The raw keys, exactly: arrays are [] never null.
	var raw struct {
		Version  json.RawMessage  `json:"version"`
		Memories []map[string]any `json:"memories"`
		Problems json.RawMessage  `json:"problems"`
	}
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw.Problems) != "[]" {
		t.Errorf("problems = %s, want []", raw.Problems)
	}
	for _, mem := range raw.Memories {
		for _, k := range []string{"memory_dir", "file", "exists", "writes", "reads", "re_reads", "recalls", "index_loads"} {
			if _, ok := mem[k]; !ok {
				t.Errorf("memory %v has no key %q", mem["file"], k)
			}
		}
		ws, ok := mem["writes"].([]any)
		if !ok {
			t.Errorf("memory %v: writes = %#v, want an array", mem["file"], mem["writes"])
			continue
		}
		for _, x := range ws {
			wm := x.(map[string]any)
			for _, k := range []string{"session_id", "title", "cwd", "branch", "tool", "op", "time", "tool_use_id"} {
				if _, ok := wm[k]; !ok {
					t.Errorf("a write of %v has no key %q: %v", mem["file"], k, wm)
				}
			}
		}
	}
}

func TestHistoryText(t *testing.T) {
	cfg, _ := historyTree(t)
	code, stdout, stderr := runCLI(t, historyEnv(t), "--config-dir", cfg, "history")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"old_note.md  (deleted: no longer on disk)",
		"scratch.md  (deleted: no longer on disk)",
		`create  session aaaa1111 ("Tidy memories") on main, 2026-11-20 09:00 UTC, Write (created)`,
		"delete  session aaaa1111",
		"in /work/shop · toolu_01HistRmNote",
		"2 reads, 1 re-read, 1 recall in 2 sessions, last 2026-11-20 09:09 UTC",
		"1 index load in 1 session",
		"untouched.md: no write or use recorded in the transcripts",
		"7 files (2 deleted), 10 writes recorded.",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in:\n%s", want, stdout)
		}
	}
	// Oldest first within a file.
	if i, j := strings.Index(stdout, "toolu_01HistWriteTabs"), strings.Index(stdout, "toolu_01HistAppendTabs"); i < 0 || j < i {
		t.Errorf("feedback_tabs.md's writes are not oldest first:\n%s", stdout)
	}
	// Grouped by project: the project without transcripts says so.
	if !strings.Contains(stdout, "-work-blog\n") || !strings.Contains(stdout, "(no session transcripts)") {
		t.Errorf("the project without transcripts is not shown as such:\n%s", stdout)
	}
}

func TestHistoryFiltersAndProject(t *testing.T) {
	cfg, mem := historyTree(t)
	e := historyEnv(t)
	files := func(args ...string) []string {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, append([]string{"--config-dir", cfg}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d\n%s", args, code, stderr)
		}
		var out []string
		for _, m := range decodeHistory(t, stdout).Memories {
			out = append(out, m.File)
		}
		return out
	}
	// FILE relative to the memory dir, or absolute; a deleted file too.
	if got := files("history", "--json", "old_note.md", filepath.Join(mem, "archive", "scratch.md")); !reflect.DeepEqual(got, []string{"archive/scratch.md", "old_note.md"}) {
		t.Errorf("FILE filter: %v", got)
	}
	if got := files("--project", "blog", "history", "--json"); !reflect.DeepEqual(got, []string{"user_blog.md"}) {
		t.Errorf("--project blog: %v", got)
	}
	if got := files("history", "--json", "--project", "shop", "MEMORY.md"); !reflect.DeepEqual(got, []string{"MEMORY.md"}) {
		t.Errorf("--project shop MEMORY.md: %v", got)
	}
	// A FILE nobody knows is a usage error, named.
	code, _, stderr := runCLI(t, e, "--config-dir", cfg, "history", "nothing_here.md")
	if code != exitUsage || !strings.Contains(stderr, "nothing_here.md") {
		t.Errorf("unknown FILE: exit %d\n%s", code, stderr)
	}
	// Without transcripts there is no history, and it says so.
	code, _, stderr = runCLI(t, e, "--config-dir", cfg, "--no-transcripts", "history")
	if code != exitUsage || !strings.Contains(flat(stderr), "needs the session transcripts") {
		t.Errorf("--no-transcripts: exit %d\n%s", code, stderr)
	}
}

// TestHistoryShowsMemtuisOwnWrites applies a prune through memtui's write
// path: the history then shows the delete, made by memtui, from its
// journal, and the file as deleted.
func TestHistoryShowsMemtuisOwnWrites(t *testing.T) {
	cfg, mem := historyTree(t)
	writeFile(t, filepath.Join(mem, "empty.md"), "")
	e := historyEnv(t)
	if code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "--project", "shop", "dream", "--kind", "prune", "--apply", "--yes"); code != exitOK || !strings.Contains(stdout, "applied") {
		t.Fatalf("prune: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "history", "--json", "empty.md")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got := decodeHistory(t, stdout)
	if len(got.Memories) != 1 || got.Memories[0].Exists || len(got.Memories[0].Writes) != 1 {
		t.Fatalf("empty.md after the prune: %+v", got.Memories)
	}
	if w := got.Memories[0].Writes[0]; w.Tool != "memtui" || w.Op != "delete" || w.SessionID != "" {
		t.Errorf("memtui's prune shows as %+v, want tool memtui, op delete, no session", w)
	}
	_, text, _ := runCLI(t, e, "--config-dir", cfg, "history", "empty.md")
	if !strings.Contains(text, "empty.md  (deleted: no longer on disk)") || !strings.Contains(text, "delete  memtui (a reviewed proposal)") {
		t.Errorf("text:\n%s", text)
	}
}

// BenchmarkHistory is `memtui history --json` on the lint benchmarks'
// generated tree, transcripts cached (warm), output discarded. Compare
// with BenchmarkLint: history reads the same files and transcripts.
func BenchmarkHistory(b *testing.B) {
	dir := benchCorpus(b)
	e := env("HOME", dir, "XDG_STATE_HOME", b.TempDir(), "XDG_CACHE_HOME", b.TempDir())
	args := []string{"--config-dir", dir, "--now", "2026-11-21", "history", "--json"}
	if code := run(context.Background(), args, io.Discard, io.Discard, e); code != exitOK {
		b.Fatalf("exit %d", code)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run(context.Background(), args, io.Discard, io.Discard, e); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

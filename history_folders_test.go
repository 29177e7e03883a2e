package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"testing"
)

// TestHistoryOtherFolders: transcripts §9.5 end to end. The project
// /work/shop has a memory folder and no transcripts of its own; a session
// launched in /work/shop/api (folder -work-shop-api) wrote feedback_api.md,
// and a session launched inside the memory folder (folder named after
// <config>/projects/-work-shop/memory) rewrote MEMORY.md. history --json
// attributes both to their sessions, titles and cwds; /work/shopping's
// write (folder -work-shopping, not a subdirectory) is not read.
func TestHistoryOtherFolders(t *testing.T) {
	cfg := t.TempDir()
	projects := filepath.Join(cfg, "projects")
	mem := filepath.Join(projects, "-work-shop", "memory")
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	memCwd := mem
	inMemSlug := regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(memCwd, "-")
	const (
		apiSess   = "5d4c3b2a-1111-4aaa-8bbb-0000000000a1"
		inMemSess = "5d4c3b2a-1111-4aaa-8bbb-0000000000a2"
		shopping  = "5d4c3b2a-1111-4aaa-8bbb-0000000000a3"
	)
	write := func(sess, cwd, title, id, file, content string) string {
		p := filepath.Join(mem, file)
		env := `"cwd":` + js(cwd) + `,"sessionId":"` + sess + `","version":"2.1.90","gitBranch":"main"`
		return `{"type":"user","uuid":"` + sess[:8] + `-0000-4000-8000-000000000001","timestamp":"2026-11-20T10:00:00.000Z",` + env + `,"message":{"role":"user","content":"note it"}}` + "\n" +
			`{"type":"assistant","uuid":"` + sess[:8] + `-0000-4000-8000-000000000002","timestamp":"2026-11-20T10:00:01.000Z",` + env + `,"message":{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"Write","input":{"file_path":` + js(p) + `,"content":` + js(content) + `}}]}}` + "\n" +
			`{"type":"user","uuid":"` + sess[:8] + `-0000-4000-8000-000000000003","timestamp":"2026-11-20T10:00:01.300Z",` + env + `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":` + js("File created successfully at: "+p) + `}]},"toolUseResult":{"type":"create","filePath":` + js(p) + `,"content":` + js(content) + `,"structuredPatch":[],"originalFile":null}}` + "\n" +
			`{"type":"ai-title","aiTitle":` + js(title) + `,"sessionId":"` + sess + `"}` + "\n"
	}
	writeFile(t, filepath.Join(projects, "-work-shop-api", apiSess+".jsonl"),
		write(apiSess, "/work/shop/api", "API notes", "toolu_01FoldersApiAAAAAAAAAAA", "feedback_api.md", "Version the API.\n"))
	writeFile(t, filepath.Join(projects, inMemSlug, inMemSess+".jsonl"),
		write(inMemSess, memCwd, "Tidy index", "toolu_01FoldersInMemAAAAAAAAA", "MEMORY.md", "- [API](feedback_api.md) — version it\n"))
	writeFile(t, filepath.Join(projects, "-work-shopping", shopping+".jsonl"),
		write(shopping, "/work/shopping", "Shopping", "toolu_01FoldersShoppingAAAAAA", "shopping.md", "no\n"))
	writeFile(t, filepath.Join(mem, "MEMORY.md"), "- [API](feedback_api.md) — version it\n")
	writeFile(t, filepath.Join(mem, "feedback_api.md"), "Version the API.\n")

	code, stdout, stderr := runCLI(t, historyEnv(t), "--config-dir", cfg, "history", "--json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got := decodeHistory(t, stdout)
	type w struct{ file, sess, title, cwd, op string }
	var have []w
	for _, m := range got.Memories {
		if m.MemoryDir != mem {
			continue
		}
		for _, x := range m.Writes {
			have = append(have, w{m.File, x.SessionID, x.Title, x.Cwd, x.Op})
		}
	}
	want := []w{
		{"MEMORY.md", inMemSess, "Tidy index", memCwd, "create"},
		{"feedback_api.md", apiSess, "API notes", "/work/shop/api", "create"},
	}
	if len(have) != len(want) || have[0] != want[0] || have[1] != want[1] {
		t.Errorf("writes into %s:\n got %+v\nwant %+v", mem, have, want)
	}
}

package transcript_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/memfs/transcript"
	"github.com/memtui/memtui/model"
)

// TestShapesNoFalseLostUpdate reads a Windows config dir on this machine
// and runs the lost-update analysis on what the reader attributed, end to
// end: with the shapes of transcripts §9 read right, a session's own
// deliberate edit and a cleanup after a read are not reported as lost.
//
//   - Session 1 (lowercase drive) creates feedback_views.md with "old rule",
//     then edits it to "new rule"; the Edit's result line was written before
//     its call (§9.3). Missing that Edit left "old rule" written and gone.
//   - Session 2 (uppercase drive, call_ ids, §9.4) reads the file (result
//     before call again), then rewrites it without "Keep views thin.": a
//     cleanup by a session that had seen the line, not a blind overwrite.
//   - The Write results carry the frontmatter Claude Code stamped (§9.7),
//     which is what the disk holds.
func TestShapesNoFalseLostUpdate(t *testing.T) {
	home := t.TempDir()
	tdir := filepath.Join(home, ".claude", "projects", "D--work-shop")
	mem := filepath.Join(tdir, "memory")
	if err := os.MkdirAll(mem, 0o700); err != nil {
		t.Fatal(err)
	}
	final := "---\nname: Views\ndescription: How views are written\ntype: feedback\noriginSessionId: 7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c\n---\nnew rule\n"
	if err := os.WriteFile(filepath.Join(mem, "feedback_views.md"), []byte(final), 0o600); err != nil {
		t.Fatal(err)
	}
	s1 := strings.Join([]string{
		`{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"0a1b2c3d-1111-4aaa-8bbb-000000000001","timestamp":"2026-05-02T08:00:00.000Z","cwd":"d:\\work\\shop","sessionId":"7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c","version":"2.1.122","message":{"role":"user","content":"remember the view rule"}}`,
		`{"parentUuid":"0a1b2c3d-1111-4aaa-8bbb-000000000001","isSidechain":false,"type":"assistant","uuid":"0a1b2c3d-1111-4aaa-8bbb-000000000002","timestamp":"2026-05-02T08:00:01.000Z","cwd":"d:\\work\\shop","sessionId":"7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c","version":"2.1.122","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthLostWriteAAAAAAAA","name":"Write","input":{"file_path":"C:\\Users\\dana\\.claude\\projects\\d--work-shop\\memory\\feedback_views.md","content":"---\nname: Views\ndescription: How views are written\ntype: feedback\n---\n\nold rule\n\nKeep views thin.\n"}}]}}`,
		`{"parentUuid":"0a1b2c3d-1111-4aaa-8bbb-000000000002","isSidechain":false,"type":"user","uuid":"0a1b2c3d-1111-4aaa-8bbb-000000000003","timestamp":"2026-05-02T08:00:01.300Z","cwd":"d:\\work\\shop","sessionId":"7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c","version":"2.1.122","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthLostWriteAAAAAAAA","content":"File created successfully at: C:\\Users\\dana\\.claude\\projects\\d--work-shop\\memory\\feedback_views.md"}]},"toolUseResult":{"type":"create","filePath":"C:\\Users\\dana\\.claude\\projects\\d--work-shop\\memory\\feedback_views.md","content":"---\nname: Views\ndescription: How views are written\ntype: feedback\noriginSessionId: 7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c\n---\nold rule\n\nKeep views thin.\n","structuredPatch":[],"originalFile":null}}`,
		`{"parentUuid":"0a1b2c3d-1111-4aaa-8bbb-000000000004","isSidechain":false,"type":"user","uuid":"0a1b2c3d-1111-4aaa-8bbb-000000000005","timestamp":"2026-05-02T08:05:00.400Z","cwd":"d:\\work\\shop","sessionId":"7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c","version":"2.1.122","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthLostEditBBBBBBBBB","content":"The file C:\\Users\\dana\\.claude\\projects\\d--work-shop\\memory\\feedback_views.md has been updated successfully."}]},"sourceToolAssistantUUID":"0a1b2c3d-1111-4aaa-8bbb-000000000004","toolUseResult":{"filePath":"C:\\Users\\dana\\.claude\\projects\\d--work-shop\\memory\\feedback_views.md","oldString":"old rule","newString":"new rule","originalFile":"---\nname: Views\ndescription: How views are written\ntype: feedback\noriginSessionId: 7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c\n---\nold rule\n\nKeep views thin.\n","userModified":false,"replaceAll":false}}`,
		`{"parentUuid":"0a1b2c3d-1111-4aaa-8bbb-000000000003","isSidechain":false,"type":"assistant","uuid":"0a1b2c3d-1111-4aaa-8bbb-000000000004","timestamp":"2026-05-02T08:05:00.000Z","cwd":"d:\\work\\shop","sessionId":"7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c","version":"2.1.122","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthLostEditBBBBBBBBB","name":"Edit","input":{"file_path":"C:\\Users\\dana\\.claude\\projects\\d--work-shop\\memory\\feedback_views.md","old_string":"old rule","new_string":"new rule"}}]}}`,
	}, "\n") + "\n"
	after1 := "---\nname: Views\ndescription: How views are written\ntype: feedback\noriginSessionId: 7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c\n---\nnew rule\n\nKeep views thin.\n"
	s2 := strings.Join([]string{
		`{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"9b8c7d6e-2222-4bbb-8ccc-000000000001","timestamp":"2026-05-02T09:00:00.000Z","cwd":"D:\\work\\shop","sessionId":"9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e","version":"2.1.122","message":{"role":"user","content":"tidy the memories"}}`,
		`{"parentUuid":"9b8c7d6e-2222-4bbb-8ccc-000000000002","isSidechain":false,"type":"user","uuid":"9b8c7d6e-2222-4bbb-8ccc-000000000003","timestamp":"2026-05-02T09:00:01.200Z","cwd":"D:\\work\\shop","sessionId":"9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e","version":"2.1.122","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_00_SynthLostReadCCCCCCCCCCCCC","content":"(the numbered lines)"}]},"toolUseResult":{"type":"text","file":{"filePath":"C:\\Users\\dana\\.claude\\projects\\D--work-shop\\memory\\feedback_views.md","content":` + jsonQuote(after1) + `,"numLines":9,"startLine":1,"totalLines":9}}}`,
		`{"parentUuid":"9b8c7d6e-2222-4bbb-8ccc-000000000001","isSidechain":false,"type":"assistant","uuid":"9b8c7d6e-2222-4bbb-8ccc-000000000002","timestamp":"2026-05-02T09:00:01.000Z","cwd":"D:\\work\\shop","sessionId":"9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e","version":"2.1.122","message":{"model":"deepseek-v4-pro","role":"assistant","content":[{"type":"tool_use","id":"call_00_SynthLostReadCCCCCCCCCCCCC","name":"Read","input":{"file_path":"C:\\Users\\dana\\.claude\\projects\\D--work-shop\\memory\\feedback_views.md"}}]}}`,
		`{"parentUuid":"9b8c7d6e-2222-4bbb-8ccc-000000000003","isSidechain":false,"type":"assistant","uuid":"9b8c7d6e-2222-4bbb-8ccc-000000000004","timestamp":"2026-05-02T09:01:00.000Z","cwd":"D:\\work\\shop","sessionId":"9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e","version":"2.1.122","message":{"model":"deepseek-v4-pro","role":"assistant","content":[{"type":"tool_use","id":"call_00_SynthLostWriteDDDDDDDDDDDD","name":"Write","input":{"file_path":"C:\\Users\\dana\\.claude\\projects\\D--work-shop\\memory\\feedback_views.md","content":"---\nname: Views\ndescription: How views are written\ntype: feedback\n---\n\nnew rule\n"}}]}}`,
		`{"parentUuid":"9b8c7d6e-2222-4bbb-8ccc-000000000004","isSidechain":false,"type":"user","uuid":"9b8c7d6e-2222-4bbb-8ccc-000000000005","timestamp":"2026-05-02T09:01:00.300Z","cwd":"D:\\work\\shop","sessionId":"9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e","version":"2.1.122","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_00_SynthLostWriteDDDDDDDDDDDD","content":"The file C:\\Users\\dana\\.claude\\projects\\D--work-shop\\memory\\feedback_views.md has been updated successfully."}]},"toolUseResult":{"type":"update","filePath":"C:\\Users\\dana\\.claude\\projects\\D--work-shop\\memory\\feedback_views.md","content":` + jsonQuote(final) + `,"structuredPatch":[],"originalFile":` + jsonQuote(after1) + `}}`,
	}, "\n") + "\n"
	for name, text := range map[string]string{"7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c.jsonl": s1, "9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e.jsonl": s2} {
		if err := os.WriteFile(filepath.Join(tdir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	d := &model.MemoryDir{Path: mem, Kind: model.DirAuto}
	if err := memfs.LoadDir(context.Background(), d, memfs.Options{Home: home}); err != nil {
		t.Fatal(err)
	}
	p := &model.Project{Slug: "D--work-shop", TranscriptDir: tdir, Dirs: []*model.MemoryDir{d}}
	log, err := transcript.Read(context.Background(), p, transcript.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Writes) != 3 {
		t.Fatalf("want session 1's Write and Edit and session 2's Write, got %+v", log.Writes)
	}
	n := 0
	for _, o := range log.Observations {
		if o.Kind == model.ObsRead && o.Session == "9b8c7d6e-5f4a-4b3c-8d2e-1f0a9b8c7d6e" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("session 2's Read (its result before its call) was not counted: %+v", log.Observations)
	}
	if lost := forensics.LostUpdates(d, log); len(lost) != 0 {
		t.Errorf("false lost updates: %+v", lost)
	}
}

func jsonQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`)
	return `"` + r.Replace(s) + `"`
}

// Package sessionfix writes Claude Code session transcripts for tests: a
// Builder appends the JSONL lines Claude Code records for reads and writes
// of memory files (shapes from transcript-format.md §6), so end-to-end tests
// can reproduce what parallel agents leave behind.
package sessionfix

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Session appends one session's lines to <projectDir>/<id>.jsonl.
type Session struct {
	ID, Cwd, Branch string
	path            string
	lines           []string
	n               int
}

// New starts a session transcript in projectDir (<config>/projects/<slug>).
func New(projectDir, id, cwd, branch string) *Session {
	return &Session{ID: id, Cwd: cwd, Branch: branch, path: filepath.Join(projectDir, id+".jsonl")}
}

func (s *Session) uuid() string {
	s.n++
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", s.n, len(s.ID)*1000+s.n)
}

func (s *Session) toolID() string {
	return fmt.Sprintf("toolu_%s%04d", strings.ReplaceAll(s.ID[:8], "-", ""), s.n)
}

func (s *Session) envelope(typ string, t time.Time, extra map[string]any) {
	m := map[string]any{"parentUuid": nil, "isSidechain": false, "type": typ, "uuid": s.uuid(),
		"timestamp": t.UTC().Format("2006-01-02T15:04:05.000Z"), "userType": "external", "entrypoint": "cli",
		"cwd": s.Cwd, "sessionId": s.ID, "version": "2.1.226", "gitBranch": s.Branch}
	for k, v := range extra {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	s.lines = append(s.lines, string(b))
}

// Prompt records a user's typed prompt.
func (s *Session) Prompt(t time.Time, text string) {
	s.envelope("user", t, map[string]any{"message": map[string]any{"role": "user", "content": text}})
}

// Title records the session's AI title.
func (s *Session) Title(title string) {
	b, _ := json.Marshal(map[string]any{"type": "ai-title", "aiTitle": title, "sessionId": s.ID})
	s.lines = append(s.lines, string(b))
}

func (s *Session) call(t time.Time, name string, input map[string]any) string {
	id := s.toolID()
	s.envelope("assistant", t, map[string]any{"message": map[string]any{"role": "assistant", "type": "message",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}})
	return id
}

func (s *Session) result(t time.Time, id, text string, tur any) {
	s.envelope("user", t, map[string]any{
		"message":       map[string]any{"role": "user", "content": []any{map[string]any{"tool_use_id": id, "type": "tool_result", "content": text}}},
		"toolUseResult": tur,
	})
}

// Read records a full Read of path returning content.
func (s *Session) Read(t time.Time, path, content string) {
	id := s.call(t, "Read", map[string]any{"file_path": path})
	lines := strings.Split(content, "\n")
	var numbered []string
	for i, l := range lines {
		numbered = append(numbered, fmt.Sprintf("%d\t%s", i+1, l))
	}
	s.result(t.Add(50*time.Millisecond), id, strings.Join(numbered, "\n"), map[string]any{"type": "text",
		"file": map[string]any{"filePath": path, "content": content, "numLines": len(lines), "startLine": 1, "totalLines": len(lines)}})
}

// Write records a Write of content over original ("" and create for a new
// file).
func (s *Session) Write(t time.Time, path, content, original string, create bool) {
	id := s.call(t, "Write", map[string]any{"file_path": path, "content": content})
	typ, text := "update", "The file "+path+" has been updated successfully."
	var orig any = original
	if create {
		typ, text, orig = "create", "File created successfully at: "+path, nil
	}
	s.result(t.Add(80*time.Millisecond), id, text, map[string]any{"type": typ, "filePath": path, "content": content,
		"structuredPatch": []any{}, "originalFile": orig})
}

// Edit records an Edit of path replacing old with new in original.
func (s *Session) Edit(t time.Time, path, old, new, original string) {
	id := s.call(t, "Edit", map[string]any{"file_path": path, "old_string": old, "new_string": new})
	s.result(t.Add(80*time.Millisecond), id, "The file "+path+" has been updated successfully.",
		map[string]any{"filePath": path, "oldString": old, "newString": new, "originalFile": original,
			"structuredPatch": []any{}, "userModified": false, "replaceAll": false})
}

// Save writes the transcript (mode 0600, as Claude Code does) and sets
// its mtime to the last line's time.
func (s *Session) Save(last time.Time) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(s.path, []byte(strings.Join(s.lines, "\n")+"\n"), 0o600); err != nil {
		return err
	}
	return os.Chtimes(s.path, last, last)
}

// Recall records a relevant_memories attachment surfacing path.
func (s *Session) Recall(t time.Time, path, content string) {
	s.envelope("attachment", t, map[string]any{"attachment": map[string]any{"type": "relevant_memories",
		"memories": []any{map[string]any{"path": path, "content": content, "mtimeMs": float64(t.UnixMilli()), "header": "Memory: " + path + ":"}}}})
}

// IndexLoad records an instructions attachment loading MEMORY.md (newer
// builds record one at session start and after each compaction).
func (s *Session) IndexLoad(t time.Time, path, content string) {
	s.envelope("attachment", t, map[string]any{"attachment": map[string]any{"type": "instructions",
		"files": []any{map[string]any{"path": path, "type": "AutoMem", "content": content}}}})
}

// Lines returns the transcript's lines so far, for callers that write
// them elsewhere.
func (s *Session) Lines() []string { return s.lines }

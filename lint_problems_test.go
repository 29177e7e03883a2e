package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

// TestLintShowsTranscriptProblems: a transcript line that names a memory
// file but is not JSON, and a subagent transcript that is a symlink (the
// reader refuses it), are counted and shown by lint: the first in the
// text summary, all with --verbose, each as {transcript, message} in the
// JSON. Without problems, the text says nothing and the JSON list is [].
func TestLintShowsTranscriptProblems(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())

	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "lint")
	if code == exitUsage || strings.Contains(stdout, "transcripts:") {
		t.Fatalf("no transcripts: exit %d, a problems line where there is none:\n%s%s", code, stdout, stderr)
	}
	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "lint", "--json")
	if !strings.Contains(stdout, `"transcript_problems": []`) {
		t.Errorf("lint --json without problems must list none as []:\n%s", stdout)
	}

	tdir := filepath.Dir(memDir)
	main := filepath.Join(tdir, "0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20.jsonl")
	launch := filepath.Join(memDir, "project_launch.md")
	env := `"cwd":"/work/x","sessionId":"0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20","version":"2.1.226","gitBranch":"main"`
	writeFile(t, main, strings.Join([]string{
		`{"type":"user","message":{"role":"user","content":"remember the launch"},"uuid":"u1","timestamp":"2026-11-20T10:00:00.000Z",` + env + `}`,
		// Cut short as a crash leaves a line mid-file: it names a memory
		// file, so a write may be lost.
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01x","name":"Write","input":{"file_path":"` + launch + `"`,
		`{"type":"user","message":{"role":"user","content":"thanks"},"uuid":"u2","timestamp":"2026-11-20T10:01:00.000Z",` + env + `}`,
	}, "\n")+"\n")
	outside := filepath.Join(t.TempDir(), "elsewhere.jsonl")
	writeFile(t, outside, "{}\n")
	agent := filepath.Join(tdir, "agent-a1b2c3.jsonl")
	if err := os.Symlink(outside, agent); err != nil {
		t.Fatal(err)
	}
	want := []model.TranscriptProblem{
		{Transcript: main, Message: "line 2 is not JSON and was skipped"},
		{Transcript: agent, Message: "could not be read: a symlink; not followed"},
	}

	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "lint")
	line := "transcripts: 2 problems (first: " + main + ": line 2 is not JSON and was skipped); memtui lint --verbose lists them all\n"
	if code == exitUsage || !strings.HasSuffix(stdout, line) {
		t.Errorf("lint: exit %d, want the last line %q:\n%s%s", code, line, stdout, stderr)
	}
	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "lint", "--verbose")
	all := "transcripts: 2 problems\n  " + main + ": line 2 is not JSON and was skipped\n  " + agent + ": could not be read: a symlink; not followed\n"
	if !strings.HasSuffix(stdout, all) {
		t.Errorf("lint --verbose: want it to end with\n%s\ngot:\n%s", all, stdout)
	}
	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "lint", "--json")
	if got := decodeLint(t, stdout).TranscriptProblems; !reflect.DeepEqual(got, want) {
		t.Errorf("lint --json transcript_problems = %+v, want %+v", got, want)
	}
}

package transcript

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

// FuzzTranscript feeds arbitrary bytes to the transcript reader as one
// session file, whole and then again as a prefix followed by the rest
// appended (a live session, read in between): it must never fail or
// panic, every event must name a file in the memory dir, and reading in
// two steps through the cache must give exactly what one cold read gives:
// with the default bounds for an even cut, and for an odd one with bounds
// so low (taken from the cut) that the reader leaves events and texts out
// (bound.go).
func FuzzTranscript(f *testing.F) {
	for _, name := range []string{"5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90.jsonl", "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.jsonl", "8c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", "transcripts", name))
		if err != nil {
			f.Fatal(err)
		}
		for k := 1; k < 10; k++ {
			c := uint16(len(b) * k / 10) // cuts all through the file
			f.Add(b, c&^1)
			f.Add(b, c|1)
		}
		f.Add(b[:len(b)*2/3], uint16(7))
	}
	f.Add([]byte("{\"parentUuid\":\"x\",\"isSidechain\":fal\n{}\n\u2028\n"), uint16(3))
	// The shapes of real transcripts (§9): results before their calls, a
	// Windows path with escaped backslashes, a call_ id.
	shapes := []byte(`{"type":"user","uuid":"5e6f7a8b-2222-4ccc-9ddd-000000000003","timestamp":"2026-04-28T23:44:45.120Z","sessionId":"5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90","cwd":"/home/dev/acme-api","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01SynthOrderB","content":"ok"}]},"toolUseResult":{"filePath":"/home/dev/.claude/projects/-home-dev-acme-api/memory/a.md","oldString":"old","newString":"new"}}
{"type":"assistant","uuid":"5e6f7a8b-2222-4ccc-9ddd-000000000002","timestamp":"2026-04-28T23:44:44.870Z","sessionId":"5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01SynthOrderB","name":"Edit","input":{"file_path":"/home/dev/.claude/projects/-home-dev-acme-api/memory/a.md","old_string":"old","new_string":"new"}}]}}
{"type":"user","uuid":"5e6f7a8b-2222-4ccc-9ddd-000000000005","timestamp":"2026-04-28T23:45:01.300Z","sessionId":"5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_00_SynthRead","content":"1\tnew\n"}]},"toolUseResult":{"type":"text","file":{"filePath":"C:\\Users\\dev\\.claude\\projects\\-home-dev-acme-api\\memory\\a.md","content":"new\n","numLines":1,"startLine":1,"totalLines":1}}}
{"type":"assistant","uuid":"5e6f7a8b-2222-4ccc-9ddd-000000000004","timestamp":"2026-04-28T23:45:00.100Z","sessionId":"5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90","message":{"role":"assistant","content":[{"type":"tool_use","id":"call_00_SynthRead","name":"Read","input":{"file_path":"C:\\Users\\dev\\.claude\\projects\\-home-dev-acme-api\\memory\\a.md"}}]}}
`)
	for k := 1; k < 8; k++ {
		f.Add(shapes, uint16(len(shapes)*k/8)&^1)
		f.Add(shapes, uint16(len(shapes)*k/8)|1)
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		home := t.TempDir()
		tdir := filepath.Join(home, ".claude", "projects", fxSlug)
		mem := filepath.Join(tdir, "memory")
		if err := os.MkdirAll(mem, 0o700); err != nil {
			t.Fatal(err)
		}
		// The fixtures name /home/dev/.claude; point them at this home.
		data = []byte(strings.ReplaceAll(string(data), "/home/dev/.claude", filepath.Join(home, ".claude")))
		p := &model.Project{TranscriptDir: tdir, Dirs: []*model.MemoryDir{{Path: mem, Kind: model.DirAuto}}}
		file := filepath.Join(tdir, "5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90.jsonl")
		var maxEvents int
		var maxText int64
		read := func(cache string) *model.TranscriptLog {
			l, err := Read(context.Background(), p, Options{Home: home, CacheDir: cache, Workers: 1, maxEvents: maxEvents, maxText: maxText})
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			return l
		}
		if cut%2 == 1 {
			maxEvents, maxText = 2+int(cut/2%12), 50+int64(cut%500)
		}
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		whole := read("")
		for _, w := range whole.Writes {
			if !strings.HasPrefix(w.Path, mem+string(filepath.Separator)) {
				t.Fatalf("a write outside the memory dir: %q", w.Path)
			}
		}
		for _, o := range whole.Observations {
			if !strings.HasPrefix(o.Path, mem+string(filepath.Separator)) {
				t.Fatalf("an observation outside the memory dir: %q", o.Path)
			}
		}

		k := int(cut) % (len(data) + 1)
		cache := filepath.Join(home, "cache")
		if err := os.WriteFile(file, data[:k], 0o600); err != nil {
			t.Fatal(err)
		}
		read(cache)
		fh, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fh.Write(data[k:])
		fh.Close()
		steps := read(cache)
		if !reflect.DeepEqual(whole.Writes, steps.Writes) || !reflect.DeepEqual(whole.Observations, steps.Observations) ||
			!whole.Since.Equal(steps.Since) || !whole.TextSince.Equal(steps.TextSince) {
			t.Fatalf("reading in two steps (cut at %d) differs from one read:\nwhole: %+v\n%+v\nsince %v, text since %v\nsteps: %+v\n%+v\nsince %v, text since %v", k, whole.Writes, whole.Observations, whole.Since, whole.TextSince, steps.Writes, steps.Observations, steps.Since, steps.TextSince)
		}
	})
}

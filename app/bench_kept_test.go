package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// BenchmarkLoadWithSnapshots: a directory of 300 memories with 400
// snapshot records (a change at each of Claude Code's turns, for weeks),
// 20 of its memories gone from disk since. Each load reads the records'
// texts of the gone memories (MemoryDir.Kept); the records themselves
// are read once per workspace (snapshot.RecordCache), then only those
// written since.
func BenchmarkLoadWithSnapshots(b *testing.B) {
	cfg := b.TempDir()
	mem := filepath.Join(cfg, "projects", "-work-big", "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		b.Fatal(err)
	}
	write := func(i, gen int) {
		p := filepath.Join(mem, fmt.Sprintf("note_%03d.md", i))
		body := fmt.Sprintf("---\nname: note %d\ndescription: note %d\ntype: project\n---\n\nRevision %d of note %d.\n", i, i, gen, i)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 300 {
		write(i, 0)
	}
	home := b.TempDir()
	env := map[string]string{"HOME": home, "XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_CACHE_HOME": filepath.Join(home, "cache")}
	ws, err := Open(context.Background(), Options{ConfigDirs: []string{cfg}, NoTranscripts: true, Getenv: func(k string) string { return env[k] }})
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()
	for gen := range 400 {
		write(gen%300, gen+1)
		if gen%20 == 19 {
			os.Remove(filepath.Join(mem, fmt.Sprintf("note_%03d.md", gen%300)))
		}
		if _, err := ws.Snapshot(ctx, nil); err != nil {
			b.Fatal(err)
		}
		time.Sleep(time.Microsecond)
	}
	load := func() *model.MemoryDir {
		d := &model.MemoryDir{Path: mem, Kind: model.DirAuto, Exists: true}
		if err := ws.Load(ctx, d); err != nil {
			b.Fatal(err)
		}
		return d
	}
	if kept := load().Kept; len(kept) < 15 {
		b.Fatalf("kept texts of %d gone memories, want about 20", len(kept))
	}
	b.ResetTimer()
	for range b.N {
		load()
	}
}

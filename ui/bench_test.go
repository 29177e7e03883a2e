package ui

import (
	"github.com/memtui/memtui/app"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/corpus"
	"github.com/memtui/memtui/memfs"
)

// The benchmarks run the TUI on a generated tree of DESIGN.md's scale (500
// projects, 20,000 memory files); MEMTUI_BENCH_PROJECTS and
// MEMTUI_BENCH_FILES change it.
var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

func benchTree(b *testing.B) Config {
	b.Helper()
	benchOnce.Do(func() {
		n := func(k string, def int) int {
			if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
				return v
			}
			return def
		}
		benchDir, benchErr = os.MkdirTemp("", "memtui-ui-bench-")
		if benchErr == nil {
			_, benchErr = corpus.Generate(benchDir, corpus.Config{Projects: n("MEMTUI_BENCH_PROJECTS", 500), Files: n("MEMTUI_BENCH_FILES", 20000), Seed: 1, Transcripts: true})
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return Config{
		Workspace: &app.Workspace{
			ScanOpts: memfs.Options{ConfigDirs: []string{benchDir}, Getenv: func(string) string { return "" }, Home: benchDir,
				ManagedSettings: filepath.Join(benchDir, "none.json"), IncludeAgentMemory: true},
			CheckOpts: consolidate.Options{Now: testNow, Paths: &memfs.PathProbe{}},
		},
		Home: benchDir,
	}
}

// loadedDriver starts the TUI on the bench tree and waits for everything
// to load.
func loadedDriver(b *testing.B, w, h int) *driver {
	b.Helper()
	d := newDriver(b, benchTree(b), w, h)
	if d.m.loading || len(d.m.data) == 0 {
		b.Fatal("the tree did not load")
	}
	return d
}

// benchMove measures one key press handled and the frame drawn, as Bubble
// Tea does for each key: Update, then View. Renders the move starts run
// in their Cmds, off this path.
func benchMove(b *testing.B, d *driver) {
	down, up := keyMsg("j"), keyMsg("k")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := down
		if i/50%2 == 1 {
			k = up
		}
		d.m.Update(k)
		_ = d.m.View()
	}
}

// BenchmarkCursorProjects moves through the 500 projects.
func BenchmarkCursorProjects(b *testing.B) {
	d := loadedDriver(b, 160, 48)
	benchMove(b, d)
	// What the TUI holds with every project read: DESIGN.md asks for a
	// small multiple of the bytes on disk.
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MB-heap-loaded")
	runtime.KeepAlive(d)
}

// BenchmarkCursorMemories moves through the largest project's memories.
func BenchmarkCursorMemories(b *testing.B) {
	d := loadedDriver(b, 160, 48)
	big, most := 0, -1
	for i, pd := range d.m.data {
		if pd.memories > most {
			big, most = i, pd.memories
		}
	}
	d.m.projects.list.selectRef(big)
	d.run(d.m.syncSelection())
	d.keys("enter")
	b.ReportMetric(float64(most), "memories")
	benchMove(b, d)
}

// BenchmarkCursorFindings moves through every finding of the tree.
func BenchmarkCursorFindings(b *testing.B) {
	d := loadedDriver(b, 160, 48)
	d.keys("f")
	b.ReportMetric(float64(len(d.m.findings.all)), "findings")
	benchMove(b, d)
}

// BenchmarkPreview2KB renders a 2 KB memory the first time (one glamour
// render) and from the cache after.
func BenchmarkPreview2KB(b *testing.B) {
	d := loadedDriver(b, 160, 48)
	// Find a memory of about 2 KB.
	var in renderInput
	found := false
	for _, pd := range d.m.data {
		for _, dd := range pd.dirs {
			for _, f := range dd.d.Files {
				if f.Size >= 1800 && f.Size <= 2300 && !found {
					in = renderInput{key: renderKey{width: 80, theme: "dark"}, content: f.Content, doc: dd.docs[f.Path],
						anchor: f.ModTime, theme: d.m.c.st.Theme, scanner: secrets.Default(), st: d.m.c.st}
					found = true
				}
			}
		}
	}
	if !found {
		b.Skip("no memory of about 2 KB in the tree")
	}
	b.Run("uncached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := render(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		d.m.memories.list.top()
		d.run(d.m.syncSelection())
		b.ReportAllocs()
		for b.Loop() {
			if cmd := d.m.requestPreview(true); cmd != nil {
				b.Fatal("a cached preview ran a render")
			}
		}
	})
}

// BenchmarkFirstFrame is the time from start to the first frame with the
// project list: discovery only, no file read.
func BenchmarkFirstFrame(b *testing.B) {
	cfg := benchTree(b)
	b.ReportAllocs()
	for b.Loop() {
		m := New(cfg)
		m.Init()
		m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
		msg := discoverCmd(m.ctx, m.gen, cfg.Workspace)()
		m.Update(msg)
		_ = m.View()
		m.Close()
	}
}

// BenchmarkProposals computes every proposal of the tree from scratch, as
// the first visit to the proposals view does (in its Cmd).
func BenchmarkProposals(b *testing.B) {
	d := loadedDriver(b, 160, 48)
	b.ReportAllocs()
	for b.Loop() {
		d.m.proposals.props.cache = nil
		if cmd := d.m.proposals.compute(d.m.run()); cmd != nil {
			d.m.proposals.onResults(cmd().(proposalsMsg), d.m.run())
		}
	}
	b.ReportMetric(float64(len(d.m.proposals.items)), "proposals")
}

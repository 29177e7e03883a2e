package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/corpus"
	"github.com/memtui/memtui/memfs"
)

// The lint benchmarks run on a generated tree. MEMTUI_BENCH_PROJECTS and
// MEMTUI_BENCH_FILES set its size; the default is DESIGN.md's scale, 500
// projects and 20,000 memory files (about 32 MB). Compare BenchmarkLint with
// BenchmarkCat: the target is lint within 2x of cat.
var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

func benchCorpus(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		projects, files := envInt("MEMTUI_BENCH_PROJECTS", 500), envInt("MEMTUI_BENCH_FILES", 20000)
		benchDir, benchErr = os.MkdirTemp("", "memtui-bench-")
		if benchErr != nil {
			return
		}
		_, benchErr = corpus.Generate(benchDir, corpus.Config{Projects: projects, Files: files, Seed: 1, Transcripts: true})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchDir
}

func envInt(k string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(k)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkCat reads every file of the tree with cat, warm: the floor lint
// is measured against.
func BenchmarkCat(b *testing.B) {
	dir := benchCorpus(b)
	script := "find " + filepath.Join(dir, "projects") + " -type f -name '*.md' -print0 | xargs -0 cat > /dev/null"
	for i := 0; i < b.N; i++ {
		if out, err := exec.Command("sh", "-c", script).CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

// BenchmarkLint is memtui lint without printing: scan, parse, every check.
func BenchmarkLint(b *testing.B) {
	dir := benchCorpus(b)
	opts := memfs.Options{ConfigDirs: []string{dir}, Getenv: func(string) string { return "" }, Home: dir,
		ManagedSettings: filepath.Join(dir, "none.json"), IncludeAgentMemory: true}
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	secrets.Default() // built once per process; not part of a run
	b.ReportAllocs()
	var files int
	for i := 0; i < b.N; i++ {
		ctx := context.Background()
		scan, err := memfs.Discover(ctx, opts)
		if err != nil {
			b.Fatal(err)
		}
		ws := &app.Workspace{Scan: scan, ScanOpts: opts}
		fs := ws.Check(ctx, consolidate.Options{Now: now, Paths: &memfs.PathProbe{}, DropContent: true})
		if len(fs) == 0 {
			b.Fatal("no findings on a corpus full of planted problems")
		}
		files = 0
		for _, p := range scan.Projects {
			for _, d := range p.Dirs {
				files += len(d.Files)
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(files), "files")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "MB-sys")
}

// dreamCorpora caches one generated tree per size.
var (
	dreamMu      sync.Mutex
	dreamCorpora = map[int]string{}
)

func dreamCorpus(b *testing.B, files int) string {
	b.Helper()
	dreamMu.Lock()
	defer dreamMu.Unlock()
	if dir, ok := dreamCorpora[files]; ok {
		return dir
	}
	dir, err := os.MkdirTemp("", "memtui-dream-bench-")
	if err != nil {
		b.Fatal(err)
	}
	// The same density as DESIGN.md's scale: 40 memories a project.
	if _, err := corpus.Generate(dir, corpus.Config{Projects: files / 40, Files: files, Seed: 1, Transcripts: true}); err != nil {
		b.Fatal(err)
	}
	dreamCorpora[files] = dir
	return dir
}

// BenchmarkDream is memtui dream without printing, at 10,000 and 20,000
// memories: doubling the memories should roughly double the time.
func BenchmarkDream(b *testing.B) {
	for _, n := range []int{10000, 20000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			dir := dreamCorpus(b, n)
			opts := memfs.Options{ConfigDirs: []string{dir}, Getenv: func(string) string { return "" }, Home: dir,
				ManagedSettings: filepath.Join(dir, "none.json"), IncludeAgentMemory: true}
			now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
			secrets.Default()
			b.ReportAllocs()
			var props int
			for b.Loop() {
				ctx := context.Background()
				scan, err := memfs.Discover(ctx, opts)
				if err != nil {
					b.Fatal(err)
				}
				ws := &app.Workspace{Scan: scan, ScanOpts: opts, CheckOpts: consolidate.Options{Now: now, Paths: &memfs.PathProbe{}, DropContent: true}}
				ps, err := ws.Propose(ctx, app.ProposeOptions{Drop: true})
				if err != nil {
					b.Fatal(err)
				}
				props = len(ps)
			}
			b.ReportMetric(float64(props), "proposals")
		})
	}
}

// BenchmarkLintWarmTranscripts runs the lint command itself, in process and
// without printing, on the generated tree: with the transcript cache warm,
// and with --no-transcripts. The two are interleaved so that other load
// hits them alike, and the medians and their ratio are reported: the
// target (issue 12) is a warm run within 10% of one without transcripts.
func BenchmarkLintWarmTranscripts(b *testing.B) {
	dir := benchCorpus(b)
	state := b.TempDir()
	env := map[string]string{"HOME": dir, "XDG_STATE_HOME": filepath.Join(state, "state"),
		"XDG_CACHE_HOME": filepath.Join(state, "cache"), "XDG_CONFIG_HOME": filepath.Join(state, "config")}
	getenv := func(k string) string { return env[k] }
	lint := func(extra ...string) {
		args := append([]string{"--config-dir", dir, "--now", "2026-11-21", "lint"}, extra...)
		if code := run(context.Background(), args, io.Discard, io.Discard, getenv); code > exitFindings {
			b.Fatalf("lint %v exited %d", extra, code)
		}
	}
	lint() // fills the cache
	runs := [][]string{nil, {"--no-transcripts"}}
	times := make([][]time.Duration, len(runs))
	for i := 0; b.Loop(); i++ {
		for k := range runs {
			j := (i + k) % len(runs)
			start := time.Now()
			lint(runs[j]...)
			times[j] = append(times[j], time.Since(start))
		}
	}
	med := make([]float64, len(runs))
	for j, ts := range times {
		sort.Slice(ts, func(a, b int) bool { return ts[a] < ts[b] })
		med[j] = float64(ts[len(ts)/2])
	}
	b.ReportMetric(med[0]/1e6, "warm-ms")
	b.ReportMetric(med[1]/1e6, "none-ms")
	b.ReportMetric(med[0]/med[1], "warm/none")
}

// TestMain removes the generated benchmark trees (about 94 MB each) when
// the package's tests and benchmarks are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	for _, dir := range dreamCorpora {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

package transcript

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// The transcript benchmarks read a generated tree of MEMTUI_TRANSCRIPT_MB
// megabytes (default 64, so CI stays quick; the target is stated at 2048).
// MEMTUI_TRANSCRIPT_DIR keeps the tree in that dir across runs (generating
// it there if it is empty) instead of a temp dir removed at exit.
//
//	go test ./memfs/transcript/ -run XXX -bench Transcript -benchmem
//	MEMTUI_TRANSCRIPT_MB=2048 MEMTUI_TRANSCRIPT_DIR=/tmp/tr go test ./memfs/transcript/ -run XXX -bench TranscriptRatio -benchtime 5x

func transcriptMB() int {
	if n, err := strconv.Atoi(os.Getenv("MEMTUI_TRANSCRIPT_MB")); err == nil && n > 0 {
		return n
	}
	return 64
}

var (
	tcorpusOnce sync.Once
	tcorpus     *genTree
	tcorpusTemp string // removed by TestMain
	tcorpusErr  error
)

func getTranscriptTree(b *testing.B) *genTree {
	tcorpusOnce.Do(func() {
		dir := os.Getenv("MEMTUI_TRANSCRIPT_DIR")
		if dir == "" {
			dir, tcorpusErr = os.MkdirTemp("", "memtui-transcripts-")
			tcorpusTemp = dir
		}
		if tcorpusErr == nil {
			tcorpus, tcorpusErr = loadOrGenTree(dir, transcriptMB())
		}
	})
	if tcorpusErr != nil {
		b.Fatal(tcorpusErr)
	}
	return tcorpus
}

// treeStamp records a generated tree in its dir, so a kept
// MEMTUI_TRANSCRIPT_DIR is generated once.
type treeStamp struct {
	MB                     int
	Files                  []string
	Bytes                  int64
	Writes, Reads, Recalls int
}

// loadOrGenTree generates the tree into dir, unless dir already holds one
// of that size.
func loadOrGenTree(dir string, mb int) (*genTree, error) {
	return loadOrGen(dir, "generated.json", mb, func() (*genTree, error) { return genTranscriptTree(dir, mb, 1) })
}

// loadOrGen returns the tree recorded in dir's stamp file when it is of
// size mb, and otherwise generates it with gen and records it.
func loadOrGen(dir, stamp string, mb int, gen func() (*genTree, error)) (*genTree, error) {
	stampPath := filepath.Join(dir, stamp)
	var st treeStamp
	if b, err := os.ReadFile(stampPath); err == nil && json.Unmarshal(b, &st) == nil && st.MB == mb {
		t := &genTree{config: dir, slug: genSlug, files: st.Files, bytes: st.Bytes, writes: st.Writes, reads: st.Reads, recalls: st.Recalls}
		t.tdir = filepath.Join(dir, "projects", genSlug)
		t.memdir = filepath.Join(t.tdir, "memory")
		return t, nil
	}
	t, err := gen()
	if err != nil {
		return nil, err
	}
	st = treeStamp{MB: mb, Files: t.files, Bytes: t.bytes, Writes: t.writes, Reads: t.reads, Recalls: t.recalls}
	b, _ := json.Marshal(st)
	return t, os.WriteFile(stampPath, b, 0o644)
}

// TestMain removes the transcript tree the benchmarks generate, which
// outlives any one benchmark.
func TestMain(m *testing.M) {
	code := m.Run()
	removeTranscriptTree()
	os.Exit(code)
}

func removeTranscriptTree() {
	if tcorpusTemp != "" {
		os.RemoveAll(tcorpusTemp)
	}
}

func (t *genTree) project() *model.Project {
	return &model.Project{TranscriptDir: t.tdir, Dirs: []*model.MemoryDir{{Path: t.memdir, Kind: model.DirAuto}}}
}

// catTranscripts is the yardstick: read every transcript into io.Discard
// with the reader's read size, one file after another (like cat, whose
// 128 KiB reads it matches within a few percent).
func catTranscripts(files []string) (int64, error) {
	buf := make([]byte, tlogRead)
	var n int64
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return n, err
		}
		k, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf)
		f.Close()
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// checkLog fails unless the log holds exactly what the generator wrote.
func checkLog(b *testing.B, t *genTree, l *model.TranscriptLog) {
	reads, recalls := 0, 0
	for _, o := range l.Observations {
		switch o.Kind {
		case model.ObsRead:
			reads++
		case model.ObsRecall:
			recalls++
		}
	}
	if len(l.Writes) != t.writes || reads != t.reads || recalls != t.recalls || len(l.Problems) != 0 {
		b.Fatalf("found %d writes, %d reads, %d recalls, problems %q; generated %d, %d, %d",
			len(l.Writes), reads, recalls, l.Problems, t.writes, t.reads, t.recalls)
	}
}

func BenchmarkCatTranscripts(b *testing.B) {
	t := getTranscriptTree(b)
	b.SetBytes(t.bytes)
	for b.Loop() {
		if _, err := catTranscripts(t.files); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadTranscriptsCold reads everything, with no cache; it also
// reports the peak heap of one read.
func BenchmarkReadTranscriptsCold(b *testing.B) {
	t := getTranscriptTree(b)
	for _, workers := range []int{1, 0} {
		name := "workers=" + strconv.Itoa(workers)
		if workers == 0 {
			name = "workers=GOMAXPROCS"
		}
		b.Run(name, func(b *testing.B) {
			opts := Options{Workers: workers}
			b.SetBytes(t.bytes)
			var peak uint64
			for b.Loop() {
				var l *model.TranscriptLog
				p := peakHeap(func() {
					var err error
					if l, err = Read(b.Context(), t.project(), opts); err != nil {
						b.Fatal(err)
					}
				})
				peak = max(peak, p)
				checkLog(b, t, l)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// BenchmarkReadTranscriptsWarm is a second start with nothing new: the
// cache answers, no transcript is opened.
func BenchmarkReadTranscriptsWarm(b *testing.B) {
	t := getTranscriptTree(b)
	opts := Options{CacheDir: b.TempDir()}
	if _, err := Read(b.Context(), t.project(), opts); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		l, err := Read(b.Context(), t.project(), opts)
		if err != nil {
			b.Fatal(err)
		}
		if l.Read != 0 {
			b.Fatalf("warm start read %d bytes", l.Read)
		}
		checkLog(b, t, l)
	}
}

// BenchmarkTranscriptRatio interleaves cat and a cold read (with one
// worker, and with GOMAXPROCS) so that load from other processes hits
// them alike, and reports the medians and their ratios: the target is a
// cold read within 2x of cat.
func BenchmarkTranscriptRatio(b *testing.B) {
	t := getTranscriptTree(b)
	runs := []func() error{
		func() error { _, err := catTranscripts(t.files); return err },
		func() error {
			_, err := Read(context.Background(), t.project(), Options{Workers: 1})
			return err
		},
		func() error {
			_, err := Read(context.Background(), t.project(), Options{})
			return err
		},
	}
	times := make([][]time.Duration, len(runs))
	b.SetBytes(t.bytes)
	for i := 0; b.Loop(); i++ {
		for k := range runs {
			j := (i + k) % len(runs)
			start := time.Now()
			if err := runs[j](); err != nil {
				b.Fatal(err)
			}
			times[j] = append(times[j], time.Since(start))
		}
	}
	med := make([]float64, len(runs))
	for j, ts := range times {
		sort.Slice(ts, func(a, b int) bool { return ts[a] < ts[b] })
		med[j] = float64(ts[len(ts)/2])
	}
	b.ReportMetric(med[0]/1e6, "cat-ms")
	b.ReportMetric(med[1]/1e6, "cold1-ms")
	b.ReportMetric(med[2]/1e6, "cold-ms")
	b.ReportMetric(med[1]/med[0], "cold1/cat")
	b.ReportMetric(med[2]/med[0], "cold/cat")
}

// peakHeap runs f and returns the most heap in use while it ran, sampled
// every millisecond (runtime/metrics reads without stopping the world).
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	return peak
}

// BenchmarkTranscriptDense reads a write-dense tree (genDenseTree) of
// MEMTUI_DENSE_MB megabytes (default 64; the target is stated at 2048),
// kept in MEMTUI_DENSE_DIR across runs when set. Each iteration reads it
// cold without a cache, then cold into a fresh cache, then warm from that
// cache. It reports the process's peak RSS over the cold reads (VmHWM,
// reset before them), the cache file's size (also as a percentage of the
// transcript bytes), and the times: the targets are a peak under 300 MB
// and a cache under 2% at 2 GB, with cold and warm reads no slower than
// before the bounds.
//
//	MEMTUI_DENSE_MB=2048 MEMTUI_DENSE_DIR=/tmp/dense go test ./memfs/transcript/ -run XXX -bench TranscriptDense -benchtime 1x
func BenchmarkTranscriptDense(b *testing.B) {
	mb := 64
	if n, err := strconv.Atoi(os.Getenv("MEMTUI_DENSE_MB")); err == nil && n > 0 {
		mb = n
	}
	dir := os.Getenv("MEMTUI_DENSE_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	t, err := loadOrGenDense(dir, mb)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(t.bytes)
	var peak, cacheBytes int64
	var cold, warm, catT time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := catTranscripts(t.files); err != nil {
			b.Fatal(err)
		}
		catT = time.Since(start)
		cache := filepath.Join(b.TempDir(), "cache")
		debug.FreeOSMemory()
		resetPeakRSS(b)
		start = time.Now()
		cpu0 := cpuTime()
		var l *model.TranscriptLog
		heap := peakHeap(func() {
			if l, err = Read(b.Context(), t.project(), Options{}); err != nil {
				b.Fatal(err)
			}
		})
		cold = time.Since(start)
		b.ReportMetric(float64(cpuTime()-cpu0)/1e6, "cold-cpu-ms")
		b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MB")
		if len(l.Writes) == 0 {
			b.Fatal("no writes found")
		}
		l = nil
		if _, err := Read(b.Context(), t.project(), Options{CacheDir: cache}); err != nil {
			b.Fatal(err)
		}
		peak = peakRSS(b)
		cacheBytes = dirSize(cache)
		const warmRuns = 5
		start = time.Now()
		for range warmRuns {
			l, err := Read(b.Context(), t.project(), Options{CacheDir: cache})
			if err != nil || l.Read != 0 {
				b.Fatalf("warm start: read %d bytes, %v", l.Read, err)
			}
		}
		warm = time.Since(start) / warmRuns
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(cacheBytes)/(1<<20), "cache-MB")
	b.ReportMetric(100*float64(cacheBytes)/float64(t.bytes), "cache-%")
	b.ReportMetric(float64(catT)/1e6, "cat-ms")
	b.ReportMetric(float64(cold)/1e6, "cold-ms")
	b.ReportMetric(float64(warm)/1e6, "warm-ms")
}

// loadOrGenDense is loadOrGenTree for the dense tree.
func loadOrGenDense(dir string, mb int) (*genTree, error) {
	return loadOrGen(dir, "dense.json", mb, func() (*genTree, error) { return genDenseTree(dir, mb, 4<<10, 1) })
}

// resetPeakRSS resets the kernel's record of the process's peak RSS
// (VmHWM) to its current RSS.
func resetPeakRSS(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("peak RSS cannot be reset here: %v", err)
	}
}

// peakRSS is VmHWM from /proc/self/status, in bytes.
func peakRSS(b *testing.B) int64 {
	s, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(s), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// BenchmarkTranscriptHostile reads the hostile transcripts cold
// and reports the peak RSS of each read: three lines of
// MEMTUI_HOSTILE_LINE_MB megabytes each (default 32; the case is
// 250), a Write of that much to a memory file, its result and a Read
// returning it; and forty Writes of MEMTUI_HOSTILE_PENDING_MB megabytes
// (default 4; the case is 25) whose results never came.
//
//	MEMTUI_HOSTILE_LINE_MB=250 MEMTUI_HOSTILE_PENDING_MB=25 go test ./memfs/transcript/ -run XXX -bench TranscriptHostile -benchtime 1x
func BenchmarkTranscriptHostile(b *testing.B) {
	mbEnv := func(name string, def int) int {
		if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
			return n
		}
		return def
	}
	lineMB, pendMB := mbEnv("MEMTUI_HOSTILE_LINE_MB", 32), mbEnv("MEMTUI_HOSTILE_PENDING_MB", 4)
	cases := []struct {
		name  string
		lines func(b *lineBuilder, mem string) []string
	}{
		{"long-lines", func(lb *lineBuilder, mem string) []string {
			p := filepath.Join(mem, "big.md")
			huge := strings.Repeat("a memory line nobody needs whole\n", lineMB<<20/33)
			return []string{
				lb.call("toolu_W", "Write", map[string]any{"file_path": p, "content": huge}),
				lb.result("toolu_W", "File created successfully at: "+p, false, writeTUR(p, huge, nil)),
				lb.call("toolu_R", "Read", map[string]any{"file_path": p}),
				lb.result("toolu_R", huge, false, nil),
			}
		}},
		{"pending-inputs", func(lb *lineBuilder, mem string) []string {
			var ls []string
			for i := range 40 {
				p := filepath.Join(mem, fmt.Sprintf("m%d.md", i))
				ls = append(ls, lb.call(fmt.Sprintf("toolu_%02d", i), "Write", map[string]any{"file_path": p,
					"content": strings.Repeat(fmt.Sprintf("pending %d ", i), pendMB<<20/11)}))
			}
			return ls
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			tdir := filepath.Join(dir, "projects", genSlug)
			mem := filepath.Join(tdir, "memory")
			if err := os.MkdirAll(mem, 0o700); err != nil {
				b.Fatal(err)
			}
			lb := newLines(uuid1, genCwd, time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
			f, err := os.Create(filepath.Join(tdir, uuid1+".jsonl"))
			if err != nil {
				b.Fatal(err)
			}
			for _, l := range c.lines(lb, mem) {
				f.WriteString(l + "\n")
			}
			f.Close()
			p := &model.Project{TranscriptDir: tdir, Dirs: []*model.MemoryDir{{Path: mem, Kind: model.DirAuto}}}
			var peak int64
			for b.Loop() {
				debug.FreeOSMemory()
				resetPeakRSS(b)
				if _, err := Read(b.Context(), p, Options{CacheDir: filepath.Join(b.TempDir(), "cache")}); err != nil {
					b.Fatal(err)
				}
				peak = max(peak, peakRSS(b))
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MB")
		})
	}
}

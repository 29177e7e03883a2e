package consolidate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate/similar"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// TestCheckDuplicates runs the check over a directory built by hand (the
// frontmatter parser is not this file's business): one report per extra
// member, naming the kept file; logs/ is left alone.
func TestCheckDuplicates(t *testing.T) {
	mk := func(p, name, desc, body string, mod time.Time) *CheckedFile {
		fm := "---\nname: " + name + "\ndescription: " + desc + "\n---\n"
		return &CheckedFile{
			f:    &model.File{Path: p, ModTime: mod},
			doc:  model.Doc{FM: model.Frontmatter{Name: name, Description: desc}, BodyStart: len(fm), Status: model.FMOK},
			text: fm + body,
		}
	}
	old := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	newer := old.Add(48 * time.Hour)
	body := "Deploy with make ship; never npm run deploy, it skips the migrations."
	files := []*CheckedFile{
		mk("deploy.md", "Deploy", "How to deploy", body, newer),
		mk("deploy-copy.md", "Deploy (copy)", "How we deploy", body, old),
		mk("logs/2026/05/2026-05-26.md", "Log", "Daily log", body, old),
		mk("logs/2026/05/2026-05-27.md", "Log", "Daily log", body, old),
		mk("testing.md", "Testing", "How to test", "Run go test -race ./... before every push; CI runs the same.", old),
	}
	s := &dirState{
		project: &model.Project{Slug: "p"},
		dir:     &model.MemoryDir{Path: "/mem"},
		files:   files,
		byPath:  map[string]*CheckedFile{},
	}
	for _, fs := range files {
		s.byPath[fs.f.Path] = fs
	}
	checkDuplicates(s)
	if len(s.findings) != 1 {
		t.Fatalf("want one finding, got %+v", s.findings)
	}
	f := s.findings[0]
	if f.Rule != RuleDuplicateMemory || f.File != "deploy.md" || !strings.Contains(f.Message, "deploy-copy.md") || !strings.Contains(f.Message, "identical bodies") || !strings.Contains(f.Suggestion, "Merge it into deploy-copy.md") {
		t.Errorf("finding: %+v", f)
	}
}

// dupCorpusItems loads the tree at $MEMTUI_CORPUS (a config dir with
// projects/<slug>/memory/, such as one internal/corpus generates) and
// returns, per memory dir with two topic files or more, the items
// checkDuplicates would hand similar.Find. It skips the test when
// MEMTUI_CORPUS is unset.
func dupCorpusItems(tb testing.TB) [][]similar.Item {
	tb.Helper()
	dir := os.Getenv("MEMTUI_CORPUS")
	if dir == "" {
		tb.Skip("set MEMTUI_CORPUS to a corpus dir (e.g. /tmp/corpus20k) to run the corpus benchmark")
	}
	opts := memfs.Options{ConfigDirs: []string{dir}, Getenv: func(string) string { return "" }, Home: dir,
		ManagedSettings: filepath.Join(dir, "none")}
	scan, err := memfs.Scan(context.Background(), opts)
	if err != nil {
		tb.Fatal(err)
	}
	var dirs [][]similar.Item
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			if items := dupItems(newDirState(p, d, Options{})); len(items) >= 2 {
				dirs = append(dirs, items)
			}
		}
	}
	if len(dirs) == 0 {
		tb.Fatalf("no memory dirs under %s/projects", dir)
	}
	return dirs
}

// BenchmarkDuplicatesCorpus runs similar.Find over every memory dir of a
// realistic tree, as memtui lint does: one op is the whole tree (20,000
// files for the 500-project corpus). Loading and parsing are outside the
// timer. Run it with, e.g.,
//
//	MEMTUI_CORPUS=/tmp/corpus20k go test ./consolidate -run '^$' -bench DuplicatesCorpus -cpu 1 -count 10
func BenchmarkDuplicatesCorpus(b *testing.B) {
	dirs := dupCorpusItems(b)
	files := 0
	for _, items := range dirs {
		files += len(items)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, items := range dirs {
			similar.Find(items)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*files), "ns/file")
}

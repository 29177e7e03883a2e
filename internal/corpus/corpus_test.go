package corpus

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// treeHash hashes every file's path, mtime and content under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte(filepath.ToSlash(rel)))
		h.Write([]byte{0})
		h.Write([]byte(info.ModTime().UTC().Format(time.RFC3339Nano)))
		h.Write([]byte{0})
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestDeterministic(t *testing.T) {
	cfg := Config{Projects: 12, Files: 400, Seed: 7, Transcripts: true}
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	sa, err := Generate(a, cfg)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Generate(b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sa != sb {
		t.Errorf("stats differ for the same seed: %+v vs %+v", sa, sb)
	}
	if ha, hb := treeHash(t, a), treeHash(t, b); ha != hb {
		t.Errorf("same seed, different trees: %s vs %s", ha, hb)
	}
	cfg.Seed = 8
	if _, err := Generate(c, cfg); err != nil {
		t.Fatal(err)
	}
	if treeHash(t, a) == treeHash(t, c) {
		t.Error("different seeds wrote identical trees")
	}
}

func TestScale(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Projects: 20, Files: 800, Seed: 1, Transcripts: true}
	st, err := Generate(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Projects != 20 || st.Files != 800 {
		t.Errorf("got %d projects, %d files; want 20, 800", st.Projects, st.Files)
	}
	if per := float64(st.Bytes) / float64(st.Files) / 1024; per < 1.2 || per > 2.0 {
		t.Errorf("%.2f KB per topic file, want 1.2-2.0", per)
	}

	// What is on disk matches the stats.
	var topics, indexes int
	var size int64
	projects, err := os.ReadDir(filepath.Join(dir, "projects"))
	if err != nil {
		t.Fatal(err)
	}
	if len(projects) != 20 {
		t.Errorf("%d project dirs, want 20", len(projects))
	}
	for _, p := range projects {
		memdir := filepath.Join(dir, "projects", p.Name(), "memory")
		err := filepath.WalkDir(memdir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			size += info.Size()
			if d.Name() == "MEMORY.md" {
				indexes++
			} else {
				topics++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		checkTranscript(t, filepath.Join(dir, "projects", p.Name()), p.Name())
	}
	if topics != st.Files || indexes != st.Indexes || size != st.Bytes {
		t.Errorf("on disk: %d topics, %d indexes, %d bytes; stats say %+v", topics, indexes, size, st)
	}
}

// checkTranscript verifies that the project's transcript is valid JSONL and
// that its cwd maps back to the slug under Claude Code's sanitizePath.
func checkTranscript(t *testing.T, projDir, slug string) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(projDir, "*.jsonl"))
	if len(matches) != 1 {
		t.Errorf("%s: %d transcripts, want 1", slug, len(matches))
		return
	}
	f, err := os.Open(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	cwd := ""
	for sc.Scan() {
		var line map[string]any
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Errorf("%s: bad JSONL line: %v", slug, err)
			return
		}
		if c, ok := line["cwd"].(string); ok && cwd == "" {
			cwd = c
		}
	}
	if cwd == "" {
		t.Errorf("%s: no cwd in transcript", slug)
	} else if SanitizePath(cwd) != slug {
		t.Errorf("cwd %q sanitizes to %q, not the slug %q", cwd, SanitizePath(cwd), slug)
	}
}

func TestFrontmatterShares(t *testing.T) {
	dir := t.TempDir()
	st, err := Generate(dir, Config{Projects: 40, Files: 2000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var legacy, current, none, total int
	err = filepath.WalkDir(filepath.Join(dir, "projects"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch d.Name() {
		case "MEMORY.md", "MEMORY-archive.md", "README.md":
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		total++
		switch classify(b) {
		case fmLegacy:
			legacy++
		case fmCurrent:
			current++
		case fmNone:
			none++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	share := func(n int) float64 { return 100 * float64(n) / float64(total) }
	check := func(what string, got, want, tol float64) {
		if got < want-tol || got > want+tol {
			t.Errorf("%s: %.1f%% of files, want %.1f%% ± %.1f", what, got, want, tol)
		}
	}
	// DESIGN §8: type top-level in 55%, under metadata: in 42%, 3% without
	// frontmatter, 2.6% invalid YAML. Broken blocks classify as neither
	// shape here, hence the wider tolerance.
	check("top-level type", share(legacy), 55, 4)
	check("metadata: block", share(current), 42, 4)
	check("no frontmatter", share(none), 3, 1.5)
	check("invalid YAML", 100*float64(st.InvalidYAML)/float64(st.Legacy+st.Current), 2.6, 1.2)
	if st.Legacy+st.Current+st.None != total {
		t.Errorf("stats count %d memories, disk has %d", st.Legacy+st.Current+st.None, total)
	}
}

// classify reads a file's frontmatter shape the simple way: where does the
// type key sit?
func classify(b []byte) fmShape {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = strings.TrimPrefix(s, "\ufeff")
	if strings.HasPrefix(s, "<!--") {
		if i := strings.Index(s, "-->\n"); i >= 0 {
			s = s[i+4:]
		}
	}
	if !strings.HasPrefix(s, "---\n") {
		return fmNone
	}
	end := strings.Index(s[4:], "\n---\n")
	if end < 0 {
		return fmOther
	}
	fm := s[4 : 4+end]
	for _, l := range strings.Split(fm, "\n") {
		switch {
		case strings.HasPrefix(l, "type:"):
			return fmLegacy
		case strings.HasPrefix(l, "metadata:"):
			return fmCurrent
		}
	}
	return fmOther
}

func TestSanitizePath(t *testing.T) {
	for in, want := range map[string]string{
		"/Users/al/my_repo.v2": "-Users-al-my-repo-v2",
		`C:\Users\al\repo`:     "C--Users-al-repo",
		"/home/dev/kefu_平台":    "-home-dev-kefu---",
		"/tmp/x😀":              "-tmp-x--",
	} {
		if got := SanitizePath(in); got != want {
			t.Errorf("SanitizePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		st, err := Generate(dir, Config{Projects: 50, Files: 2000, Seed: int64(i)})
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(st.Bytes)
	}
}

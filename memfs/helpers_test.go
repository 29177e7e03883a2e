package memfs

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// Fixtures are generated in t.TempDir() (with internal/testfs's writers):
// nothing binary is committed, and each test states exactly the tree it
// relies on.

var nonAlnum = regexp.MustCompile(`[^a-zA-Z0-9]`)

// slugOf is the slug of an ASCII path, computed independently of
// sanitizePath (which has its own tests) so discovery tests do not just
// agree with themselves.
func slugOf(p string) string { return nonAlnum.ReplaceAllString(p, "-") }

// Transcript lines as Claude Code writes them (transcripts §1.3): metadata
// lines have no cwd, message lines carry it near the end.
func metaLine(kind string) string {
	return fmt.Sprintf(`{"type":%q,"sessionId":"x","summary":"s","leafUuid":"u"}`, kind)
}

func msgLine(cwd string) string {
	c, _ := json.Marshal(cwd)
	return `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},` +
		`"uuid":"5f0b6a6e-8f5e-4a7e-9d8e-1b2c3d4e5f60","timestamp":"2026-08-03T09:14:09.552Z","userType":"external",` +
		`"entrypoint":"cli","cwd":` + string(c) + `,"sessionId":"x","version":"2.1.226"}`
}

const (
	uuid1 = "0b0e7a8e-3c1d-4f57-9a63-2f4e7c9d1a20"
	uuid2 = "1c1f8b9f-4d2e-4a68-8b74-3a5f8d0e2b31"
	uuid3 = "2d209ca0-5e3f-4b79-9c85-4b6a9e1f3c42"
)

// transcript writes <dir>/<name> with the given lines, mtime mod.
func transcript(t *testing.T, dir, name string, mod time.Time, lines ...string) string {
	t.Helper()
	p := testfs.Write(t, filepath.Join(dir, name), strings.Join(lines, "\n")+"\n")
	testfs.Touch(t, p, mod)
	return p
}

// env makes a Getenv over a map, so no test reads the host environment.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// world is a fake home with a config dir in it.
type world struct {
	t      *testing.T
	tmp    string
	home   string
	config string
	envs   map[string]string
}

func newWorld(t *testing.T) *world {
	tmp := t.TempDir()
	// Resolve the temp dir: real roots come from transcripts, which are
	// realpath'd by Claude Code (transcripts §1.3).
	if r, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = r
	}
	w := &world{t: t, tmp: tmp, home: filepath.Join(tmp, "home", "al"), envs: map[string]string{}}
	w.config = testfs.Mkdir(t, filepath.Join(w.home, ".claude"))
	testfs.Mkdir(t, filepath.Join(w.config, "projects"))
	return w
}

func (w *world) opts() Options {
	return Options{
		ConfigDirs:         []string{w.config},
		Getenv:             env(w.envs),
		Home:               w.home,
		IncludeAgentMemory: true,
		ManagedSettings:    filepath.Join(w.tmp, "etc", "managed-settings.json"),
	}
}

// project creates a project root on disk, its slug dir with one transcript
// confirming it, and (when withMemory) a memory dir with one file. It
// returns the root and the slug dir.
func (w *world) project(name string, withMemory bool) (root, slugDir string) {
	w.t.Helper()
	root = testfs.Mkdir(w.t, filepath.Join(w.home, "src", name))
	slugDir = testfs.Mkdir(w.t, filepath.Join(w.config, "projects", slugOf(root)))
	transcript(w.t, slugDir, uuid1+".jsonl", time.Now(), metaLine("summary"), msgLine(root))
	if withMemory {
		testfs.Write(w.t, filepath.Join(slugDir, "memory", "MEMORY.md"), "- [a](a.md) — a\n")
		testfs.Write(w.t, filepath.Join(slugDir, "memory", "a.md"), "---\nname: a\n---\nbody\n")
	}
	return root, slugDir
}

func (w *world) discover() *model.Scan {
	w.t.Helper()
	s, err := Discover(w.t.Context(), w.opts())
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// findProject returns the project whose Slug is slug, or fails.
func findProject(t *testing.T, s *model.Scan, slug string) *model.Project {
	t.Helper()
	for _, p := range s.Projects {
		if p.Slug == slug {
			return p
		}
	}
	var slugs []string
	for _, p := range s.Projects {
		slugs = append(slugs, p.Slug)
	}
	t.Fatalf("no project %q among %q", slug, slugs)
	return nil
}

func hasProject(s *model.Scan, slug string) bool {
	for _, p := range s.Projects {
		if p.Slug == slug {
			return true
		}
	}
	return false
}

// dirsOf summarises a project's dirs as "kind agent path" lines, paths
// relative to base, for compact comparisons.
func dirsOf(p *model.Project, base string) []string {
	var out []string
	for _, d := range p.Dirs {
		rel, err := filepath.Rel(base, d.Path)
		if err != nil {
			rel = d.Path
		}
		s := d.Kind.String() + " " + filepath.ToSlash(rel)
		if d.Agent != "" {
			s += " agent=" + d.Agent
		}
		if !d.Exists {
			s += " absent"
		}
		out = append(out, s)
	}
	return out
}

func problemKinds(ps []model.Problem) map[string]model.ProblemKind {
	m := make(map[string]model.ProblemKind)
	for _, p := range ps {
		m[p.Path] = p.Kind
	}
	return m
}

func filePaths(d *model.MemoryDir) []string {
	var out []string
	for _, f := range d.Files {
		out = append(out, f.Path)
	}
	return out
}

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputIsReportedNeverFatal builds a memory directory full of what
// real machines hold — broken YAML, binary data, a 20 MB file, a directory
// named like a memory, symlink loops and escapes, invalid UTF-8, a BOM, a
// settings file that is not JSON — and checks that lint reports each one,
// finishes, and writes nothing.
func TestBadInputIsReportedNeverFatal(t *testing.T) {
	cfg := t.TempDir()
	mem := filepath.Join(cfg, "projects", "-tmp-bad", "memory")
	outside := filepath.Join(t.TempDir(), "secret-notes.md")
	writeFile(t, outside, "---\nname: outside\n---\nnot ours\n")
	writeFile(t, filepath.Join(cfg, "settings.json"), "{ \"autoMemoryDirectory\": ~/mem, }\n")
	writeFile(t, filepath.Join(mem, "MEMORY.md"), "# Memory\n\n- [Broken](broken_yaml.md) — unclosed\n- [Binary](binary.md) — NULs\n- [Huge](huge.md) — 20 MB\n- [Latin-1](latin1.md) — bad UTF-8\n- [BOM](bom.md) — byte-order mark\n")
	writeFile(t, filepath.Join(mem, "broken_yaml.md"), "---\nname: [unclosed\n\tdescription: {oops\n\nbody without a closing fence\n")
	writeFile(t, filepath.Join(mem, "binary.md"), "---\nname: bin\ndescription: d\ntype: user\n---\n\x00\x01\x02\xff\xfe\x00")
	writeFile(t, filepath.Join(mem, "latin1.md"), "---\nname: latin\ndescription: d\ntype: user\n---\n\nCaf\xe9 au lait.\n")
	writeFile(t, filepath.Join(mem, "bom.md"), "\ufeff---\nname: bom\ndescription: d\ntype: user\n---\n\nBody.\n")
	huge := filepath.Join(mem, "huge.md")
	writeFile(t, huge, "---\nname: huge\ndescription: a log pasted into memory\ntype: reference\n---\n\n")
	if err := os.Truncate(huge, 20<<20); err != nil { // sparse: quick to make
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(mem, "x.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	must(t, os.Symlink("loop-b.md", filepath.Join(mem, "loop-a.md")))
	must(t, os.Symlink("loop-a.md", filepath.Join(mem, "loop-b.md")))
	must(t, os.Symlink(outside, filepath.Join(mem, "escape.md")))
	must(t, os.Symlink(".", filepath.Join(mem, "self")))

	before := treeHashes(t, cfg)
	code, stdout, stderr := runCLI(t, env(), "lint", "--json", "--config-dir", cfg, "--now", "2026-11-21")
	if code != exitFindings {
		t.Fatalf("exit %d, want %d (errors found)\nstderr: %s", code, exitFindings, stderr)
	}
	got := map[string]bool{}
	for _, f := range decodeLint(t, stdout).Findings {
		got[f.Rule+" "+filepath.Base(f.File)] = true
	}
	for _, want := range []string{
		"frontmatter-invalid broken_yaml.md",
		"encoding binary.md",
		"encoding latin1.md",
		"encoding bom.md",
		"recall-truncated huge.md",
		"file-unreadable x.md",
		"symlink loop-a.md",
		"symlink loop-b.md",
		"symlink escape.md",
		"settings-invalid settings.json",
	} {
		if !got[want] {
			t.Errorf("no finding %q; got %v", want, keys(got))
		}
	}
	if strings.Contains(stdout, "not ours") {
		t.Error("lint followed a symlink out of the memory directory")
	}
	if after := treeHashes(t, cfg); !maps.Equal(before, after) {
		t.Error("lint changed files on disk")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// treeHashes maps each regular file under root to its content hash and
// mode, without following links.
func treeHashes(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			m[p] = info.Mode().String()
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		m[p] = hex.EncodeToString(sum[:]) + info.Mode().String() + info.ModTime().String()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

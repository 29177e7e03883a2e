// Package testmodel is test support that builds model values in memory:
// topic files and memory dirs as the loader leaves them, the index shapes
// the checks are tested on, and transcript logs as memfs/transcript fills
// them (Log, and the lost-update race of transcript-format.md §6). The
// checks (consolidate), Dream's proposers (consolidate/dream) and the
// forensics (consolidate/forensics) are tested on the same values.
//
// Imported by tests and benchmarks only (arch_test.go holds that). It
// imports model and nothing it is used to test: no consolidate, no disk.
package testmodel

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// Now is the checks tests' "now": findings that age are measured from it.
var Now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.Local)

// Body is a topic body of ordinary size and shape (a fact, and why).
const Body = "Deploy with `make ship`; npm run deploy skips the migrations.\n\n**Why:** the migration step lives in the Makefile.\n"

// Topic is a topic file's text: frontmatter with name, description and
// type, then body.
func Topic(name, desc, typ, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\ntype: " + typ + "\n---\n\n" + body
}

// File builds a topic file at path with content, modified at mod.
func File(path, content string, mod time.Time) *model.File {
	return &model.File{Path: path, Content: []byte(content), Size: int64(len(content)), ModTime: mod}
}

// GoodIndex is a MEMORY.md that references every one of files, so index
// rules stay quiet.
func GoodIndex(files ...*model.File) *model.File {
	var b strings.Builder
	b.WriteString("# Memory\n\n")
	for _, f := range files {
		b.WriteString("- [" + f.Path + "](" + f.Path + ") — about " + strings.TrimSuffix(f.Path, ".md") + "\n")
	}
	return &model.File{Path: "MEMORY.md", Content: []byte(b.String())}
}

// Dir builds a memory dir at /cfg/projects/p/memory from path → content,
// all files modified at mod, with an index that lists every topic file
// unless files has its own MEMORY.md.
func Dir(files map[string]string, mod time.Time) *model.MemoryDir {
	d := &model.MemoryDir{Path: "/cfg/projects/p/memory", Exists: true}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := File(p, files[p], mod)
		if p == "MEMORY.md" {
			d.Index = f
			continue
		}
		d.Files = append(d.Files, f)
	}
	if _, ok := files["MEMORY.md"]; !ok {
		d.Index = GoodIndex(d.Files...)
	}
	return d
}

// CapDir is a memory dir of n memories, the i-th modified i hours after
// base, marked as the loader marks them: the oldest n-200 past the cap.
// Every file is in the index.
func CapDir(n int, base time.Time) *model.MemoryDir {
	d := &model.MemoryDir{Path: "/cfg/projects/p/memory", Exists: true, ScanListed: n}
	for i := 0; i < n; i++ {
		f := File(fmt.Sprintf("m%03d.md", i), Topic(fmt.Sprintf("m%d", i), fmt.Sprintf("Fact number %d about ticket %d", i, i*7), "project",
			fmt.Sprintf("Ticket %d is owned by team %d; it ships in sprint %d with flag f%d.\n", i*7, i%13, i%17, i)), base.Add(time.Duration(i)*time.Hour))
		if i < n-model.RecallScanCap {
			f.Scan = model.ScanPastCap
		}
		d.Files = append(d.Files, f)
	}
	d.Index = GoodIndex(d.Files...)
	return d
}

// LogWith is a transcript log with the observations given, reaching a
// month back from Now.
func LogWith(obs ...model.MemObservation) *model.TranscriptLog {
	return &model.TranscriptLog{Sessions: map[string]*model.Session{}, Observations: obs, Oldest: Now.AddDate(0, -1, 0)}
}

// Only is the findings of fs whose rule is rule.
func Only(fs []model.Finding, rule string) []model.Finding {
	var out []model.Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

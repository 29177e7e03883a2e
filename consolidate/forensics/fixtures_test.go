package forensics

import (
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/model"
)

// Fixtures shared with consolidate's tests (files_test.go, dream_test.go,
// scan_test.go there), copied: test files cannot import each other.

var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.Local)

// mem builds a topic file modified at mod.
func mem(path, content string, mod time.Time) *model.File {
	return &model.File{Path: path, Content: []byte(content), Size: int64(len(content)), ModTime: mod}
}

func topic(name, desc, typ, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\ntype: " + typ + "\n---\n\n" + body
}

const body = "Deploy with `make ship`; npm run deploy skips the migrations.\n\n**Why:** the migration step lives in the Makefile.\n"

func logWith(obs ...model.MemObservation) *model.TranscriptLog {
	return &model.TranscriptLog{Sessions: map[string]*model.Session{}, Observations: obs, Oldest: testNow.AddDate(0, -1, 0)}
}

// dreamDir builds a memory dir in memory from path → content, all files
// modified at mod, with an index that lists every topic file unless the
// map has its own MEMORY.md.
func dreamDir(files map[string]string, mod time.Time) *model.MemoryDir {
	d := &model.MemoryDir{Path: "/cfg/projects/p/memory", Exists: true}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := mem(p, files[p], mod)
		if p == "MEMORY.md" {
			d.Index = f
			continue
		}
		d.Files = append(d.Files, f)
	}
	if _, ok := files["MEMORY.md"]; !ok {
		d.Index = goodIndex(d.Files...)
	}
	return d
}

// goodIndex references every file so index rules stay quiet.
func goodIndex(files ...*model.File) *model.File {
	var b strings.Builder
	b.WriteString("# Memory\n\n")
	for _, f := range files {
		b.WriteString("- [" + f.Path + "](" + f.Path + ") — about " + strings.TrimSuffix(f.Path, ".md") + "\n")
	}
	return &model.File{Path: "MEMORY.md", Content: []byte(b.String())}
}

// raceLog is the Done-when race: A and B read idx0, A edits its entry in,
// then B writes the whole file from its stale view.
func raceLog() *logOf {
	return newLogOf().
		session(raceA, "Deploy notes", "main", at(0)).
		session(raceB, "Release freeze", "feat/billing", at(1)).
		read(raceA, at(10), "MEMORY.md", idx0).
		read(raceB, at(11), "MEMORY.md", idx0).
		edit(raceA, "", at(14), "MEMORY.md", idx0, true, eStaging, eStaging+"\n"+eDeploy).
		write(raceB, at(20), "MEMORY.md", idx1, idxB)
}

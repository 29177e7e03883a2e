package consolidate

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/memtui/memtui/model"
)

// This file tells each memory file's recorded life, for `memtui history`:
// every write (with what it did to the file's existence) and how much
// agents used it, files since deleted included. It narrows a project's
// log to one memory directory as Provenance and HeatOf do.

// WriteOp is what a write did to a file's existence.
type WriteOp string

// The ops of a recorded write.
const (
	OpCreated  WriteOp = "create"
	OpModified WriteOp = "modify"
	OpDeleted  WriteOp = "delete"
)

// ShellDeleter reports whether the shell command cmd removes a file that
// one of its words names (rm, unlink, the source of an mv): memfs's
// ShellDeletes, which holds the shell parsing. names says whether a word
// of the command names the file in question.
type ShellDeleter func(cmd string, names func(word string) bool) bool

// HistoryWrite is one recorded write with what it did and who made it.
type HistoryWrite struct {
	model.MemWrite
	Op WriteOp
	// Tool names the tool: Write, Edit, MultiEdit, memory_write, shell,
	// fork (Claude Code's extraction or autoDream) or memtui.
	Tool string
	// Title is the session's title, "" when it has none or is unknown.
	Title string
}

// FileHistory is one memory file's recorded life.
type FileHistory struct {
	// File is the memory-dir-relative slash path.
	File string
	// Exists is true when the file is on disk now.
	Exists bool
	// Writes are in time order, oldest first.
	Writes []HistoryWrite
	// Heat counts the reads, re-reads, recalls and index loads.
	Heat model.Heat
}

// History lists every memory file of d that the disk or the log knows,
// MEMORY.md first, then by path: each with its writes (oldest first) and
// its heat. A file known only from the log is one since deleted (or one
// a session wrote into a directory that is gone). deletes decides which
// shell writes removed their file; nil counts none as a delete.
func History(d *model.MemoryDir, log *model.TranscriptLog, deletes ShellDeleter) []FileHistory {
	exists := map[string]bool{}
	if d.Index != nil {
		exists["MEMORY.md"] = true
	}
	for _, f := range d.Files {
		exists[f.Path] = true
	}
	// A path the reader met but would not read (a link, a device, a file
	// it may not open) is on disk all the same: not deleted.
	for _, p := range d.Problems {
		if strings.HasSuffix(p.Path, ".md") {
			exists[p.Path] = true
		}
	}
	prov := Provenance(d, log)
	heat := HeatOf(d, log)
	names := map[string]bool{}
	for k := range exists {
		names[k] = true
	}
	for k := range prov {
		names[k] = true
	}
	for k := range heat {
		names[k] = true
	}
	out := make([]FileHistory, 0, len(names))
	for rel := range names {
		fh := FileHistory{File: rel, Exists: exists[rel], Heat: heat[rel], Writes: []HistoryWrite{}}
		gone := false
		for _, w := range prov[rel] {
			hw := HistoryWrite{MemWrite: w, Tool: ToolName(w), Op: writeOp(w, gone, deletes)}
			if log != nil {
				if s := log.Sessions[w.Session]; s != nil {
					hw.Title = s.Title
					// A write's line may lack what the session's first
					// line says.
					if hw.Cwd == "" {
						hw.Cwd = s.Cwd
					}
					if hw.Branch == "" {
						hw.Branch = s.Branch
					}
				}
			}
			gone = hw.Op == OpDeleted
			fh.Writes = append(fh.Writes, hw)
		}
		out = append(out, fh)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].File == "MEMORY.md", out[j].File == "MEMORY.md"
		if a != b {
			return a
		}
		return out[i].File < out[j].File
	})
	return out
}

// writeOp decides what w did to its file: gone says the write before it
// deleted the file, so whatever writes it next creates it again.
func writeOp(w model.MemWrite, gone bool, deletes ShellDeleter) WriteOp {
	if w.Deleted {
		return OpDeleted // the tool's result says so
	}
	switch w.Kind {
	case model.WriteShell:
		if deletes != nil && w.Command != "" && deletes(w.Command, func(word string) bool { return WordNames(word, w.Cwd, w.Path) }) {
			return OpDeleted
		}
	case model.WriteMemtui:
		// memtui's journal records a delete as a write that left nothing.
		if !w.Created && w.HasAfter && w.After == "" {
			return OpDeleted
		}
	}
	if w.Created || gone {
		return OpCreated
	}
	return OpModified
}

// ToolName names the tool behind a write as history reports it.
func ToolName(w model.MemWrite) string {
	switch w.Kind {
	case model.WriteFull:
		return "Write"
	case model.WriteEdit:
		return "Edit"
	case model.WriteMulti:
		return "MultiEdit"
	case model.WriteStore:
		return "memory_write"
	case model.WriteShell:
		return "shell"
	case model.WriteFork:
		return "fork"
	case model.WriteMemtui:
		return "memtui"
	}
	return string(w.Kind)
}

// WordNames reports whether word, a path as a shell command wrote it (run
// in cwd), names the file p. Both path styles are understood wherever
// memtui runs, and case is ignored: the reader already decided that the
// command names a memory file, so this only has to tell which word is it.
func WordNames(word, cwd, p string) bool {
	w := slashPath(strings.Trim(word, `'"`))
	target := slashPath(p)
	if w == "" || target == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(w, "~/"); ok {
		return hasPathSuffix(target, rest)
	}
	if absSlash(w) {
		return strings.EqualFold(path.Clean(w), path.Clean(target))
	}
	if cwd != "" {
		if c := slashPath(cwd); absSlash(c) && strings.EqualFold(path.Join(c, w), path.Clean(target)) {
			return true
		}
	}
	// A relative word whose cwd is unknown or elsewhere: its last
	// components, after any ../, must end the path.
	rel := path.Clean(w)
	for strings.HasPrefix(rel, "../") {
		rel = rel[3:]
	}
	return rel != "." && rel != ".." && hasPathSuffix(target, rel)
}

// slashPath turns backslashes into slashes.
func slashPath(s string) string { return strings.ReplaceAll(s, `\`, "/") }

// absSlash reports whether a slash path is absolute on Unix or Windows.
func absSlash(s string) bool {
	return strings.HasPrefix(s, "/") || len(s) >= 3 && s[1] == ':' && s[2] == '/' &&
		(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

// hasPathSuffix reports whether p ends with the whole components of rel.
func hasPathSuffix(p, rel string) bool {
	p, rel = strings.ToLower(path.Clean(p)), strings.ToLower(strings.TrimPrefix(path.Clean(rel), "/"))
	return p == rel || strings.HasSuffix(p, "/"+rel)
}

// HeatCounts says a memory's use in words, as the TUI's preview does: "2
// reads, 1 re-read, 3 recalls"; "" when it was never used.
func HeatCounts(h model.Heat) string {
	var parts []string
	add := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+plural(n, one, many))
		}
	}
	add(h.Reads, "read", "reads")
	add(h.Unchanged, "re-read", "re-reads")
	add(h.Recalls, "recall", "recalls")
	add(h.IndexLoads, "index load", "index loads")
	return strings.Join(parts, ", ")
}

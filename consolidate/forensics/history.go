package forensics

import (
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
// a session wrote into a directory that is gone). Which shell writes
// removed their file the reader decided (MemWrite.Deleted), placing the
// command's words as it places every path.
func History(d *model.MemoryDir, log *model.TranscriptLog) []FileHistory {
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
			hw := HistoryWrite{MemWrite: w, Tool: ToolName(w), Op: writeOp(w, gone)}
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
func writeOp(w model.MemWrite, gone bool) WriteOp {
	if w.Deleted {
		return OpDeleted // the tool's result, or the shell command, says so
	}
	switch w.Kind {
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

// HeatCounts says a memory's use in words, as the TUI's preview does: "2
// reads, 1 re-read, 3 recalls"; "" when it was never used.
func HeatCounts(h model.Heat) string {
	var parts []string
	add := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+model.Plural(n, one, many))
		}
	}
	add(h.Reads, "read", "reads")
	add(h.Unchanged, "re-read", "re-reads")
	add(h.Recalls, "recall", "recalls")
	add(h.IndexLoads, "index load", "index loads")
	return strings.Join(parts, ", ")
}

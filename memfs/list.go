package memfs

import (
	"io/fs"
	"os"

	"github.com/memtui/memtui/model"
)

// ListedFile is one file of a memory dir that the scan reads, before it
// is read.
type ListedFile struct {
	// Path is the file's memory-dir-relative slash path (model.File.Path).
	Path string
	// Dir is the directory holding it, symlinks resolved, and Name its
	// name there: OpenIn(Dir, Name) opens it without following a link.
	Dir, Name string
	// Link is the symlink it was reached through, relative to the memory
	// dir, or "" for a file of the real tree (model.File.Link).
	Link string
}

// Listing is a memory dir's files as ListDir found them.
type Listing struct {
	// Exists is false when the memory dir is absent or not a directory.
	Exists bool
	// Files are the files LoadDir would read, in the walk's order.
	Files []ListedFile
}

// ListDir lists the files LoadDir would read in d (MEMORY.md, every
// memory below it, a store's index), by the same walk and the same rules
// (facts §2.1, §4.1), without reading any of them. It is for a caller
// that reads only what changed since it last looked (memfs/snapshot): the
// scan's list of files costs it a readdir per folder, and the files are
// the ones the scan would show. d itself is not changed (a copy is
// walked), so the scan's own dirs may be listed while they load; the
// problems the walk meets are LoadDir's to report.
func ListDir(d *model.MemoryDir, opts Options) Listing {
	opts = opts.withDefaults()
	c := &model.MemoryDir{Path: d.Path, Kind: d.Kind, Agent: d.Agent}
	dl := walkDir(c, model.ParseMemoryStores(opts.Getenv(envMemoryStores)))
	l := Listing{Exists: dl.exists, Files: make([]ListedFile, 0, len(dl.jobs))}
	for i := range dl.jobs {
		j := &dl.jobs[i]
		l.Files = append(l.Files, ListedFile{Path: j.rel, Dir: j.dir, Name: j.name, Link: j.link})
	}
	return l
}

// OpenIn opens the regular file rel inside dir as the safe reader's
// openIn does (dir as given, nothing below it followed if a symlink;
// FIFOs, devices and sockets refused without blocking) and returns it
// with its FileInfo, taken from the open file. It is exported for
// memfs/snapshot, which records a file's size, mtime and hash from the
// same open file it reads, under a cap of its own (ReadCapped).
func OpenIn(dir, rel string) (*os.File, fs.FileInfo, error) {
	return openIn(dir, rel)
}

package memfs

import (
	"bufio"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// transcriptCacheVersion changes whenever what is extracted or how it is
// stored changes; a cache of another version is ignored.
const transcriptCacheVersion = 6 // 3: bounded (events numbered, texts capped, cuts kept); 4: orphan results, Windows paths; 5: other folders' files too (cuts taken over them); 6: bashEditDiff's created/deleted; 7: relative paths of sessions started in the memory folder

// transcriptCache is one project's cache file: per transcript, where the
// last scan stopped and what it found.
type transcriptCache struct {
	Version int
	// Key is everything the extraction depends on (transcript dir, memory
	// dirs, home); a file whose Key differs belongs to another setup.
	Key   string
	Files map[string]*fileState
	// Cuts is the last selection (tlog_bound.go): what the states were
	// trimmed to.
	Cuts cuts
}

func cacheKey(tdir string, dirs []string, home string) string {
	ds := append([]string(nil), dirs...)
	sort.Strings(ds)
	return strings.Join(append([]string{tdir, home}, ds...), "\x00")
}

// cachePath is <CacheDir>/transcripts/<hash>.gob, one file per project
// and set of memory dirs.
func cachePath(cacheDir, key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(cacheDir, "transcripts", hex.EncodeToString(sum[:])[:16]+".gob")
}

// loadTranscriptCache returns the cache for the project, or an empty one:
// a missing, corrupt or old cache only means reading everything again.
func loadTranscriptCache(cacheDir, tdir string, dirs []string, home string) *transcriptCache {
	key := cacheKey(tdir, dirs, home)
	empty := &transcriptCache{Version: transcriptCacheVersion, Key: key, Files: map[string]*fileState{}}
	if cacheDir == "" {
		return empty
	}
	// Not a link, FIFO or device, and never more than maxCacheBytes: a
	// cache that is not plainly memtui's own is ignored, not decoded.
	f, fi, err := openRead(cachePath(cacheDir, key), noFollow)
	if err != nil {
		return empty
	}
	defer f.Close()
	if fi.Size() > maxCacheBytes {
		return empty
	}
	var c transcriptCache
	if gob.NewDecoder(bufio.NewReader(io.LimitReader(f, maxCacheBytes))).Decode(&c) != nil || c.Version != transcriptCacheVersion || c.Key != key {
		return empty
	}
	if c.Files == nil {
		c.Files = map[string]*fileState{}
	}
	return &c
}

// saveTranscriptCache writes the cache atomically (temp file, fsync,
// rename), so a crash or a concurrent memtui leaves the old cache or the
// new one, never a torn one. Failing to save is not an error: the next
// call reads the transcripts again.
func saveTranscriptCache(cacheDir string, c *transcriptCache) {
	if cacheDir == "" {
		return
	}
	path := cachePath(cacheDir, c.Key)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*.gob")
	if err != nil {
		return
	}
	w := bufio.NewWriterSize(tmp, 1<<20)
	err = gob.NewEncoder(w).Encode(c)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/memtui/memtui/memfs"
)

// transcriptCacheVersion changes whenever what is extracted or how it is
// stored changes; a cache of another version (older or newer) is ignored
// and rebuilt from the transcripts, which is all it is made of: a cache,
// not user state (docs/STATE.md), so no version of it is migrated, and
// replacing a newer memtui's cache costs that memtui one slower start.
const transcriptCacheVersion = 9 // 3: bounded (events numbered, texts capped, cuts kept); 4: orphan results, Windows paths; 5: other folders' files too (cuts taken over them); 6: bashEditDiff's created/deleted; 7: relative paths of sessions started in the memory folder, shell deletes, mv into a directory; 8: memtui's own encoding (codec.go) instead of gob, in <hash>.cache; 9: a read cut to the token cap is not whole

// maxCacheBytes caps the transcript cache. Above it the cache is ignored
// (the transcripts are read again), never decoded.
const maxCacheBytes int64 = 256 << 20

// transcriptCache is one project's cache file: per transcript, where the
// last scan stopped and what it found.
type transcriptCache struct {
	Version int
	// Key is everything the extraction depends on (transcript dir, memory
	// dirs, home); a file whose Key differs belongs to another setup.
	Key   string
	Files map[string]*fileState
	// Cuts is the last selection (bound.go): what the states were
	// trimmed to.
	Cuts cuts
}

func cacheKey(tdir string, dirs []string, home string) string {
	ds := append([]string(nil), dirs...)
	sort.Strings(ds)
	return strings.Join(append([]string{tdir, home}, ds...), "\x00")
}

// cachePath is <CacheDir>/transcripts/<hash>.cache, one file per project
// and set of memory dirs.
func cachePath(cacheDir, key string) string {
	return cacheStem(cacheDir, key) + ".cache"
}

func cacheStem(cacheDir, key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(cacheDir, "transcripts", hex.EncodeToString(sum[:])[:16])
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
	b, err := memfs.ReadRegular(cachePath(cacheDir, key), maxCacheBytes)
	if err != nil {
		return empty
	}
	c, err := decodeCache(b)
	if err != nil || c.Key != key {
		return empty
	}
	return c
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
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*.cache")
	if err != nil {
		return
	}
	_, err = tmp.Write(encodeCache(c))
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
		return
	}
	// The gob cache of versions up to 6, at the same hash: never read
	// again, so it goes once the new one is in place.
	os.Remove(cacheStem(cacheDir, c.Key) + ".gob")
}

package snapshot

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memtui/memtui/memfs"
)

// recEntry is one record file of the store.
type recEntry struct {
	key, name string
	ns, size  int64
}

func (r *recEntry) path(root string) string {
	return filepath.Join(root, recordsDir, r.key, r.name)
}

// inventory is what the store holds: its records (grouped by dir, oldest
// first in each), its blobs (by "<sum[:2]>/<name>") with their sizes, and
// the temporary files and misplaced entries a crash or someone else left.
type inventory struct {
	records  map[string][]recEntry
	blobs    map[string]int64
	leftover []string
}

// listRecords lists the store's records, from what a listing shows
// (names and sizes); nothing is read.
func (s *Store) listRecords(inv *inventory) error {
	recRoot := filepath.Join(s.Root, recordsDir)
	keys, err := readDirIfAny(recRoot)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if !k.IsDir() || len(k.Name()) != 32 || !isHex(k.Name()) {
			continue
		}
		ents, err := readDirIfAny(filepath.Join(recRoot, k.Name()))
		if err != nil {
			return err
		}
		for _, e := range ents {
			ns, ok := recordTime(e.Name())
			switch {
			case strings.HasPrefix(e.Name(), tmpPrefix):
				inv.leftover = append(inv.leftover, filepath.Join(recRoot, k.Name(), e.Name()))
			case ok:
				var size int64
				if fi, err := e.Info(); err == nil {
					size = fi.Size()
				}
				inv.records[k.Name()] = append(inv.records[k.Name()], recEntry{key: k.Name(), name: e.Name(), ns: ns, size: size})
			}
		}
	}
	return nil
}

// listBlobs lists the store's blobs and their sizes, from what a listing
// shows; nothing is read.
func (s *Store) listBlobs(inv *inventory) error {
	blobRoot := filepath.Join(s.Root, blobsDir)
	subs, err := readDirIfAny(blobRoot)
	if err != nil {
		return err
	}
	for _, sub := range subs {
		if !sub.IsDir() || len(sub.Name()) != 2 {
			continue
		}
		ents, err := readDirIfAny(filepath.Join(blobRoot, sub.Name()))
		if err != nil {
			return err
		}
		for _, e := range ents {
			p := filepath.Join(blobRoot, sub.Name(), e.Name())
			sum := strings.TrimSuffix(e.Name(), redactedSuffix)
			switch {
			case strings.HasPrefix(e.Name(), tmpPrefix):
				inv.leftover = append(inv.leftover, p)
			case validSum(sum) && sum[:2] == sub.Name():
				fi, err := e.Info()
				if err != nil || !fi.Mode().IsRegular() {
					// A link or a folder where a text goes: never
					// read (Text refuses it), so removed.
					inv.leftover = append(inv.leftover, p)
					continue
				}
				inv.blobs[sub.Name()+"/"+e.Name()] = fi.Size()
			}
		}
	}
	return nil
}

// readDirIfAny lists a folder of the store; an absent one is empty.
func readDirIfAny(p string) ([]fs.DirEntry, error) {
	ents, err := memfs.ReadDir(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return ents, err
}

// trim keeps the store within its retention and its size, never removing
// a dir's newest record (nor keep[key], the record this take read or
// wrote for it). It holds the store's lock (Take's). Records are first
// dropped by age, from their names alone. When none went and the take
// wrote nothing (wrote false), the store is as the last trim left it and
// that is all: a take over unchanged dirs lists no blob. Otherwise the
// blobs are listed for the store's size; only when something went, or
// the store is over MaxBytes, or a crash left files behind, are the
// records read to find the blobs none of them names any more, and then,
// while the store is still over MaxBytes, the oldest records go, with the
// blobs only they named.
func (s *Store) trim(now time.Time, keep map[string]string, wrote bool) (pruned, removed int, aside []string, err error) {
	retention := s.Retention
	if retention <= 0 {
		retention = memfs.DefaultJournalRetention
	}
	maxBytes := s.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	inv := inventory{records: map[string][]recEntry{}, blobs: map[string]int64{}}
	if err := s.listRecords(&inv); err != nil {
		return 0, 0, nil, err
	}
	cutoff := now.Add(-retention).UnixNano()
	var live []recEntry
	var total int64
	for key, rs := range inv.records {
		newest := rs[len(rs)-1].name
		for _, r := range rs {
			if r.name != newest && r.name != keep[key] && r.ns < cutoff && os.Remove(r.path(s.Root)) == nil {
				pruned++
				continue
			}
			live = append(live, r)
			total += r.size
		}
	}
	if pruned == 0 && !wrote && len(inv.leftover) == 0 {
		return 0, 0, nil, nil
	}
	if err := s.listBlobs(&inv); err != nil {
		return pruned, 0, aside, err
	}
	// No take is writing (this one holds the lock): a temporary file is
	// a crashed take's.
	for _, p := range inv.leftover {
		os.Remove(p)
	}
	for _, size := range inv.blobs {
		total += size
	}
	if pruned == 0 && len(inv.leftover) == 0 && total <= maxBytes {
		return 0, 0, nil, nil
	}

	// Which blobs each record left names, and each dir's newest record
	// that can be read.
	refs := map[string]int{}
	named := make([][]string, len(live))
	newestOK := map[string]int64{}
	blobGC := true
	var readable []int
	for i := range live {
		r := &live[i]
		snap, st := s.readRecord(r.key, r.name, "")
		switch st {
		case recordOK:
			for _, f := range snap.Files {
				if f.SHA256 != "" && !f.Missing {
					b := f.SHA256[:2] + "/" + blobName(f.SHA256, f.Redacted)
					if !slices.Contains(named[i], b) {
						named[i] = append(named[i], b)
						refs[b]++
					}
				}
			}
			newestOK[r.key] = max(newestOK[r.key], r.ns)
			readable = append(readable, i)
		case recordBad:
			// Not a record memtui can read (garbage, cut short, another
			// dir's): moved out of the records, never deleted, so a
			// person (or a later memtui) can still look at it.
			if p, err := s.setAside(*r); err == nil {
				aside = append(aside, p)
				total -= r.size
			}
		case recordGone:
			total -= r.size
		default:
			// A later memtui's record, or one that could not be read
			// now: what it names is unknown, so no blob goes.
			blobGC = false
		}
	}
	if !blobGC {
		return pruned, 0, aside, nil
	}
	drop := func(b string) {
		size, ok := inv.blobs[b]
		if ok && os.Remove(filepath.Join(s.Root, blobsDir, filepath.FromSlash(b))) == nil {
			removed++
			total -= size
			delete(inv.blobs, b)
		}
	}
	for b := range inv.blobs {
		if refs[b] == 0 {
			drop(b)
		}
	}
	if total <= maxBytes {
		return pruned, removed, aside, nil
	}
	// Still over the bound: the oldest records first, across dirs.
	slices.SortFunc(readable, func(a, b int) int {
		return cmp.Or(cmp.Compare(live[a].ns, live[b].ns), strings.Compare(live[a].key, live[b].key))
	})
	for _, i := range readable {
		if total <= maxBytes {
			break
		}
		r := &live[i]
		if r.ns == newestOK[r.key] || r.name == keep[r.key] {
			continue
		}
		if os.Remove(r.path(s.Root)) != nil {
			continue
		}
		pruned++
		total -= r.size
		for _, b := range named[i] {
			if refs[b]--; refs[b] == 0 {
				drop(b)
			}
		}
	}
	return pruned, removed, aside, nil
}

// unreadableDir holds the records a trim found it cannot read, by dir key:
// out of the records (nothing lists or reads them there), kept.
const unreadableDir = "unreadable"

// setAside moves record r, which cannot be read, to
// <root>/unreadable/<key>/<name> and returns where it went.
func (s *Store) setAside(r recEntry) (string, error) {
	dir := filepath.Join(s.Root, unreadableDir, r.key)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	to := filepath.Join(dir, r.name)
	for i := 1; ; i++ {
		if _, err := os.Lstat(to); err != nil {
			break
		}
		to = filepath.Join(dir, r.name+"."+strconv.Itoa(i))
	}
	return to, os.Rename(r.path(s.Root), to)
}

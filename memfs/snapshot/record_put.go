package snapshot

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gofrs/flock"

	"github.com/memtui/memtui/model"
)

// Put records a snapshot memtui did not take from the disk (the demo's,
// made from its sample): each file's text, keyed by path, is kept as a
// take keeps it (redacted when it holds a secret, SnapFile.Redacted set
// so), and the record is written at snap.Time. Only into a store with no
// record of the dir yet: a record put behind a real take would rewrite
// history. Files whose text is not given keep the SnapFile as passed.
func (s *Store) Put(snap model.Snapshot, texts map[string][]byte) error {
	if s.Root == "" || s.Redact == nil {
		return errors.New("snapshot: the store has no directory or no redactor")
	}
	if err := os.MkdirAll(s.Root, 0o700); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	fl := flock.New(filepath.Join(s.Root, lockName))
	if err := fl.Lock(); err != nil {
		return fmt.Errorf("snapshot: lock %s: %w", fl.Path(), err)
	}
	defer fl.Unlock()
	key := dirKey(snap.Dir)
	if names, err := s.names(key); err != nil || len(names) > 0 {
		return errors.Join(err, fmt.Errorf("snapshot: %s has records already", snap.Dir))
	}
	files := make(map[string]model.SnapFile, len(snap.Files))
	bs := newBlobSet(filepath.Join(s.Root, blobsDir))
	for p, f := range snap.Files {
		if t, ok := texts[p]; ok {
			f.SHA256, f.Size = sumBytes(t), int64(len(t))
			red, err := bs.put(f.SHA256, t, s.Redact)
			if err != nil {
				return fmt.Errorf("snapshot of %s: %w", snap.Dir, err)
			}
			f.Redacted = red
		}
		files[s.PathKey(p)] = f
	}
	if err := errors.Join(bs.sync()...); err != nil {
		return fmt.Errorf("snapshot of %s: %w", snap.Dir, err)
	}
	snap.Files = files
	data, err := encodeRecord(&snap, s.redactString(snap.Dir))
	if err != nil {
		return fmt.Errorf("snapshot of %s: %w", snap.Dir, err)
	}
	_, err = s.writeRecord(key, "", snap.Time, data)
	return err
}

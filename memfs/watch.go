package memfs

import (
	"errors"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// ErrWatchLimit is returned by Watcher.Add once the watcher holds as many
// directories as it was allowed.
var ErrWatchLimit = errors.New("watch limit reached")

// Watcher reports which directories changed on disk, debounced: an agent
// writing a file (create, several writes, rename) becomes one report. It
// watches directories, not files, and never more than its limit, so a tree
// of thousands of projects cannot exhaust the system's inotify watches.
type Watcher struct {
	fw       *fsnotify.Watcher
	limit    int
	debounce time.Duration
	out      chan []string
	errs     chan error

	mu      sync.Mutex
	watched map[string]bool
	done    chan struct{}
	closed  bool
}

// NewWatcher starts a watcher that holds at most limit directories and
// reports changes once debounce has passed without a new event (and at
// least once a second while events keep coming).
func NewWatcher(limit int, debounce time.Duration) (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &Watcher{fw: fw, limit: limit, debounce: debounce, out: make(chan []string, 1),
		errs: make(chan error, 1), watched: map[string]bool{}, done: make(chan struct{})}
	go w.loop()
	return w, nil
}

// Add watches dir. Adding a directory twice is a no-op; beyond the limit it
// returns ErrWatchLimit and the directory is not watched.
func (w *Watcher) Add(dir string) error {
	dir = filepath.Clean(dir)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errors.New("watcher closed")
	}
	if w.watched[dir] {
		return nil
	}
	if len(w.watched) >= w.limit {
		return ErrWatchLimit
	}
	if err := w.fw.Add(dir); err != nil {
		return err
	}
	w.watched[dir] = true
	return nil
}

// Len is the number of directories watched.
func (w *Watcher) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.watched)
}

// Changes delivers, for each quiet period after activity, the sorted list
// of paths that changed: for an event on a file, its directory; for a
// watched directory that was itself removed or renamed, the directory. It
// is closed by Close.
func (w *Watcher) Changes() <-chan []string { return w.out }

// Errors delivers errors from the operating system's watch (an overflowed
// event queue, for one). The caller should then reload everything.
func (w *Watcher) Errors() <-chan error { return w.errs }

// Close stops watching and closes Changes.
func (w *Watcher) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	close(w.done)
	return w.fw.Close()
}

func (w *Watcher) loop() {
	defer close(w.out)
	pending := map[string]bool{}
	var quiet, cap <-chan time.Time
	flush := func() {
		if len(pending) == 0 {
			return
		}
		batch := make([]string, 0, len(pending))
		for p := range pending {
			batch = append(batch, p)
		}
		sort.Strings(batch)
		select {
		case w.out <- batch:
			clear(pending)
			quiet, cap = nil, nil
		case <-w.done:
		}
	}
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			p := filepath.Clean(ev.Name)
			w.mu.Lock()
			self := w.watched[p]
			if self && ev.Has(fsnotify.Remove|fsnotify.Rename) {
				// The kernel drops the watch with the directory.
				delete(w.watched, p)
			}
			w.mu.Unlock()
			if self {
				pending[p] = true
			} else {
				pending[filepath.Dir(p)] = true
			}
			quiet = time.After(w.debounce)
			if cap == nil {
				cap = time.After(time.Second)
			}
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			select {
			case w.errs <- err:
			default:
			}
		case <-quiet:
			flush()
		case <-cap:
			flush()
		}
	}
}

package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// Decisions are the review decisions recorded for the memory dir at dir,
// by proposal ID (empty when none, or without a state dir). A record that
// cannot be read back is moved aside (not under ReadOnly), said in a
// note, and the decisions start empty; one of a newer memtui's format is
// an error and stays as it is.
func (w *Workspace) Decisions(dir string) (map[string]model.Decision, error) {
	if w.State.Seen == "" {
		return map[string]model.Decision{}, nil
	}
	ds, err := memfs.LoadDecisions(w.State.Seen, dir)
	if errors.Is(err, memfs.ErrCorruptState) && !w.ReadOnly {
		if err = memfs.SetAside(err, time.Now()); memfs.MovedAside(err) {
			w.note("memtui: %s", err.Error())
			return ds, nil
		}
	}
	return ds, err
}

// SaveDecisions records dir's review decisions (all of them: the map
// replaces what was recorded). --readonly records nothing.
func (w *Workspace) SaveDecisions(dir string, ds map[string]model.Decision) error {
	if w.ReadOnly {
		return errors.New("--readonly records no review")
	}
	if w.State.Seen == "" {
		return errors.New("no state directory to record the review in")
	}
	return memfs.SaveDecisions(w.State.Seen, dir, ds)
}

// Undismissed splits proposals into those to show and those a person
// dismissed (rejected, and proposed again the same since). An unreadable
// record dismisses nothing; the note says why.
func (w *Workspace) Undismissed(props []model.Proposal) (shown, dismissed []model.Proposal) {
	byDir := map[string]map[string]model.Decision{}
	for _, p := range props {
		ds, ok := byDir[p.MemoryDir]
		if !ok {
			var err error
			if ds, err = w.Decisions(p.MemoryDir); err != nil {
				w.note("memtui: %s", err.Error())
			}
			byDir[p.MemoryDir] = ds
		}
		if d, ok := ds[p.ID]; ok && !d.Accepted && d.Holds(p) {
			dismissed = append(dismissed, p)
			continue
		}
		shown = append(shown, p)
	}
	return shown, dismissed
}

// Dismiss records proposal p as rejected: dream leaves it out, and the
// TUI shows it rejected, until the files it reads change.
func (w *Workspace) Dismiss(p model.Proposal) error {
	ds, err := w.Decisions(p.MemoryDir)
	if err != nil {
		return err
	}
	// The title is a proposer's words, kept on disk: masked, as every
	// text memtui keeps of a memory is.
	ds[p.ID] = model.Decision{Reads: model.ReadsPrint(p), Kind: p.Kind, Title: safe.Mask(nil, p.Title), Time: w.Now}
	return w.SaveDecisions(p.MemoryDir, ds)
}

// DismissedEntry is one recorded dismissal, for listing.
type DismissedEntry struct {
	Dir, ID string
	model.Decision
}

// Dismissed lists the dismissals recorded for the memory dirs in view,
// newest first.
func (w *Workspace) Dismissed() ([]DismissedEntry, error) {
	var out []DismissedEntry
	for _, dir := range w.DirsInView() {
		ds, err := w.Decisions(dir)
		if err != nil {
			return nil, err
		}
		for id, d := range ds {
			if !d.Accepted {
				out = append(out, DismissedEntry{Dir: dir, ID: id, Decision: d})
			}
		}
	}
	slices.SortFunc(out, func(a, b DismissedEntry) int {
		if c := b.Time.Compare(a.Time); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// Restore forgets the dismissal of proposal id in the dirs in view: it is
// proposed again.
func (w *Workspace) Restore(id string) (DismissedEntry, error) {
	for _, dir := range w.DirsInView() {
		ds, err := w.Decisions(dir)
		if err != nil {
			return DismissedEntry{}, err
		}
		if d, ok := ds[id]; ok && !d.Accepted {
			delete(ds, id)
			return DismissedEntry{Dir: dir, ID: id, Decision: d}, w.SaveDecisions(dir, ds)
		}
	}
	return DismissedEntry{}, fmt.Errorf("no dismissed proposal %q in the memory directories in view (memtui dream --dismissed lists them)", id)
}

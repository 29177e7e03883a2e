package txn

// A foreign store is a memory store another agent owns and consolidates
// itself, which memtui writes into only as a careful outsider: Codex's
// memories/ (codex facts §4.4). Everything that appears under it, even for
// a moment, may enter the agent's next consolidation as an authoritative
// addition (§4.3), and its lock is a row in the agent's database, not a
// file (§4.1). So a transaction in a foreign store takes no lock file
// there, keeps its temp files in a directory outside it, and asks the
// agent's side whether it is at work before it starts and before every
// change it makes (foreign_write.go).

import "fmt"

// ForeignStore describes a memory dir that another agent consolidates
// (ApplyOptions.Foreign).
type ForeignStore struct {
	// Agent names the agent, for messages ("Codex"); "" reads "the agent".
	Agent string
	// TempDir is where memtui's temp files go instead of beside the files:
	// a directory on the store's file system, outside the store (for
	// Codex, $CODEX_HOME/.memtui-tmp). memtui makes it (0700) when it is
	// missing; it is refused when it is a symlink, not a directory, not
	// the user's or writable by others, inside the store, or on another
	// file system than the store (a rename across file systems is not
	// atomic).
	TempDir string
	// Busy says why the agent is working on the store right now, "" when
	// it is not (for Codex: a live consolidation lease, or a workspace diff
	// on disk, codex facts §4.4). It is called under memtui's own lock
	// when the store is opened, before each proposal's first change, and
	// right before each change reaches the store (a swap, a link, a rename
	// out of it or within it); a reason refuses the proposal with a
	// *BusyError and rolls back what it had done. Required.
	Busy func() string
}

// BusyError says that the agent that owns a foreign store is working on
// it (ForeignStore.Busy gave a reason): memtui does not write meanwhile.
type BusyError struct {
	Agent  string // who, as ForeignStore.Agent says ("" when not said)
	Dir    string // the store
	Reason string // what Busy said
}

func (e *BusyError) name() string {
	if e.Agent == "" {
		return "the agent"
	}
	return e.Agent
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s is consolidating %s: %s; memtui does not write there meanwhile: try again once it has finished", e.name(), e.Dir, e.Reason)
}

// Short is the error in a few words, for a status line.
func (e *BusyError) Short() string {
	return fmt.Sprintf("%s is consolidating: %s", e.name(), e.Reason)
}

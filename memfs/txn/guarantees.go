package txn

import "runtime"

// MissingGuarantees lists, one sentence each, the protections of the
// Linux write path (doc.go) that this system's write path lacks; nil on
// Linux. The compare-and-swap (every file re-read and hash-compared right
// before it is replaced, and once more after every change), the journal
// with its before-images, the rollback, Undo, Recover and both locks hold
// everywhere. The CLI's and the TUI's write confirmations print these, so
// that a weaker guarantee is never a silent one.
func MissingGuarantees() []string { return missingGuarantees(runtime.GOOS) }

// Sentences of MissingGuarantees, shared by the systems that lack them.
const (
	gapLeases = "no file leases: memtui cannot ask whether an agent has a file open for writing, so it pauses briefly and compares every replaced file again after all the changes instead; an agent's write that lands after that last compare goes into the replaced file, which is no longer in the memory dir, and is lost"
	gapSwap   = "no atomic swap: memtui replaces a file by a hard link and a rename, and an agent's own replacement of that file in the instant between the two is overwritten (on Linux the swap hands it back and the proposal is refused)"
)

func missingGuarantees(goos string) []string {
	switch goos {
	case "linux":
		return nil
	case "windows":
		return []string{
			gapLeases,
			gapSwap,
			"paths, not open folders: each folder of a path is checked for links and junctions before each operation, not held open, so one swapped for a junction in between redirects that operation (Unix opens each folder once and never follows a link)",
			"folders are not flushed (Windows cannot): renames are written through (MOVEFILE_WRITE_THROUGH) and file contents flushed, and NTFS journals the rest",
		}
	}
	return []string{gapLeases, gapSwap}
}

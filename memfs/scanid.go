package memfs

// envMemoryStores configures Claude Code's memory stores (facts 7.1):
// its team mounts decide which team/<sub>/ folders the scan keeps.
const envMemoryStores = "CLAUDE_MEMORY_STORES"

// fileKey identifies a folder for the scan's cycle detection, as Claude
// Code does (facts 4.1): by device and inode, or by its resolved path where
// the system gives no usable inode.
type fileKey struct {
	dev, ino uint64
	path     string
}

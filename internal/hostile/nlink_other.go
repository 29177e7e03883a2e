//go:build !unix

package hostile

import "io/fs"

// linkCount is 1 where the system does not say (the hardlink cases are
// built and checked on unix only).
func linkCount(fs.FileInfo) uint64 { return 1 }

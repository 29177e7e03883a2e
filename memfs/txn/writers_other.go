//go:build !linux

package txn

import "os"

// openForWriting has no probe here: ok is false, and the caller waits a
// settle period instead.
func openForWriting(f *os.File) (busy, ok bool) { return false, false }

func leaseRead(f *os.File) (busy, ok bool) { return false, false }
func leaseBroken(f *os.File) bool          { return false }
func leaseRelease(f *os.File)              {}

func leaseWrite(f *os.File) bool                           { return false }
func writeLeaseState(f *os.File) (opened, forWriting bool) { return true, true }

//go:build linux

package txn

import (
	"os"

	"golang.org/x/sys/unix"
)

// openForWriting reports whether any process (this one included) has the
// file behind f open for writing. It asks for a read lease, which Linux
// refuses with EAGAIN exactly when the file is open for writing, and drops
// it at once (an open for writing in between waits for the drop, a few
// microseconds). f must be open read-only. ok is false when leases are not
// available (another user's file, leases disabled, a file system without
// them).
func openForWriting(f *os.File) (busy, ok bool) {
	if !sys.leases() {
		return false, false
	}
	fd := int(f.Fd())
	_, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK)
	switch err {
	case nil:
		unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_UNLCK)
		return false, true
	case unix.EAGAIN:
		return true, true
	}
	return false, false
}

// Every lease call is a no-op, "not available", under a layer without
// leases (sys.leases: pathLayer, run on Linux by the tests as Windows runs
// it).

// leaseRead takes a read lease on f (open read-only): while it is held, a
// process opening the file for writing waits until it is dropped, and the
// lease shows as broken. busy is true when someone has the file open for
// writing already; ok false when leases are not available.
func leaseRead(f *os.File) (busy, ok bool) {
	if !sys.leases() {
		return false, false
	}
	_, err := unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_RDLCK)
	switch err {
	case nil:
		return false, true
	case unix.EAGAIN:
		return true, true
	}
	return false, false
}

// leaseBroken reports whether someone started opening the file for writing
// while we held the lease (they wait for leaseRelease).
func leaseBroken(f *os.File) bool {
	if !sys.leases() {
		return false
	}
	t, err := unix.FcntlInt(f.Fd(), unix.F_GETLEASE, 0)
	return err == nil && t != unix.F_RDLCK
}

func leaseRelease(f *os.File) {
	if !sys.leases() {
		return
	}
	unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_UNLCK)
}

// leaseWrite takes a write lease on f (open read-only, the only descriptor
// of the file): while it is held, anyone opening the file, to read or to
// write, waits until it is dropped, and the lease shows as broken. ok is
// false when the lease could not be taken.
func leaseWrite(f *os.File) (ok bool) {
	if !sys.leases() {
		return false
	}
	_, err := unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_WRLCK)
	return err == nil
}

// writeLeaseState says whether someone started opening the file since
// leaseWrite (opened, broken) and whether that open is for writing.
func writeLeaseState(f *os.File) (opened, forWriting bool) {
	t, err := unix.FcntlInt(f.Fd(), unix.F_GETLEASE, 0)
	if err != nil {
		return true, true
	}
	return t != unix.F_WRLCK, t == unix.F_UNLCK
}

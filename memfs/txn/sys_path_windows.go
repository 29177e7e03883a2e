//go:build windows

package txn

// pathLayer's calls on Windows. Every name is opened with
// FILE_FLAG_OPEN_REPARSE_POINT, so a symlink or junction is the link
// itself (and refused as one), never its target; every handle shares
// read, write and delete, so that a file memtui holds open can still be
// renamed over (the swap) or deleted, and an agent's open is not refused
// because memtui looks at the file. Paths past MAX_PATH get the \\?\
// prefix (memfs.LongPath) as the os package gives its own calls.

import (
	"io/fs"
	"os"

	"golang.org/x/sys/windows"

	"github.com/memtui/memtui/memfs"
)

const shareAll = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE

// createFile is CreateFile on the long form of p, never following a
// reparse point; folders open too (FILE_FLAG_BACKUP_SEMANTICS).
func createFile(p string, access, disposition uint32) (windows.Handle, error) {
	u, err := windows.UTF16PtrFromString(memfs.LongPath(p))
	if err != nil {
		return windows.InvalidHandle, err
	}
	h, err := windows.CreateFile(u, access, shareAll, nil, disposition,
		windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return windows.InvalidHandle, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	return h, nil
}

// statHandle is the status of an open handle: attributes, identity
// (volume serial, file index), links and times. perm is a fixed private
// mode (read-only files lose the write bit): Windows keeps permissions in
// ACLs, which a replacement inherits from its folder.
func statHandle(h windows.Handle) (fileStat, error) {
	var d windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &d); err != nil {
		return fileStat{}, err
	}
	st := fileStat{
		perm:  0o600,
		nlink: uint64(d.NumberOfLinks),
		dev:   uint64(d.VolumeSerialNumber),
		ino:   uint64(d.FileIndexHigh)<<32 | uint64(d.FileIndexLow),
		uid:   -1,
		atime: d.LastAccessTime.Nanoseconds(),
		mtime: d.LastWriteTime.Nanoseconds(),
	}
	switch a := d.FileAttributes; {
	case a&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		st.kind = kindLink
	case a&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		st.kind, st.perm = kindDir, 0o700
	default:
		if t, err := windows.GetFileType(h); err == nil && t == windows.FILE_TYPE_DISK {
			st.kind = kindReg
		}
	}
	if d.FileAttributes&windows.FILE_ATTRIBUTE_READONLY != 0 {
		st.perm &^= 0o200
	}
	return st, nil
}

func pLstat(p string) (fileStat, error) {
	h, err := createFile(p, windows.FILE_READ_ATTRIBUTES, windows.OPEN_EXISTING)
	if err != nil {
		return fileStat{}, err
	}
	defer windows.CloseHandle(h)
	return statHandle(h)
}

func pOpen(p string, how openHow, perm uint32) (*os.File, error) {
	access, disp := uint32(windows.GENERIC_READ), uint32(windows.OPEN_EXISTING)
	switch how {
	case openCreateExcl:
		access, disp = windows.GENERIC_WRITE|windows.FILE_READ_ATTRIBUTES, windows.CREATE_NEW
	case openTrunc:
		access, disp = windows.GENERIC_WRITE|windows.FILE_READ_ATTRIBUTES, windows.OPEN_ALWAYS
	}
	h, err := createFile(p, access, disp)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(h), p)
	if how == openTrunc {
		// Emptied only once it is known to be a plain file, never a
		// link's target.
		st, err := statHandle(h)
		if err != nil {
			f.Close()
			return nil, err
		}
		if st.kind == kindLink {
			f.Close()
			return nil, &fs.PathError{Op: "open", Path: p, Err: errLink}
		}
		if st.kind == kindReg {
			if err := f.Truncate(0); err != nil {
				f.Close()
				return nil, err
			}
		}
	}
	return f, nil
}

func pFstat(f *os.File) (fileStat, error) { return statHandle(windows.Handle(f.Fd())) }

// pChmod does nothing: a Windows file has no mode bits to keep (its ACL
// comes from its folder, as a file Claude Code writes gets it).
func pChmod(f *os.File, mode uint32) error { return nil }

func moveFile(o, n string, flags uint32) error {
	from, err := windows.UTF16PtrFromString(memfs.LongPath(o))
	if err != nil {
		return err
	}
	to, err := windows.UTF16PtrFromString(memfs.LongPath(n))
	if err != nil {
		return err
	}
	if err := windows.MoveFileEx(from, to, flags|windows.MOVEFILE_WRITE_THROUGH); err != nil {
		return &os.LinkError{Op: "rename", Old: o, New: n, Err: err}
	}
	return nil
}

// pReplace is the atomic replacement: MoveFileEx with
// MOVEFILE_REPLACE_EXISTING (and MOVEFILE_WRITE_THROUGH: it returns once
// the rename is on disk). Not ReplaceFile: ReplaceFile keeps the replaced
// file's identity and attributes by copying them over, is not one atomic
// rename (it can fail half way, ERROR_UNABLE_TO_MOVE_REPLACEMENT, leaving
// neither name in place), and would give memtui's version the old file's
// index, which the compare-and-swap uses to tell the file compared from
// another. MoveFileEx on one NTFS volume is a single rename, as
// renameat is on Unix.
func pReplace(o, n string) error {
	return moveFile(o, n, windows.MOVEFILE_REPLACE_EXISTING)
}

// pRenameNoReplace is MoveFileEx without MOVEFILE_REPLACE_EXISTING, which
// fails with ERROR_ALREADY_EXISTS when the new name is taken.
func pRenameNoReplace(o, n string) error { return moveFile(o, n, 0) }

func pUnlink(p string) error {
	u, err := windows.UTF16PtrFromString(memfs.LongPath(p))
	if err != nil {
		return err
	}
	if err := windows.DeleteFile(u); err != nil {
		return &fs.PathError{Op: "remove", Path: p, Err: err}
	}
	return nil
}

func pRmdir(p string) error {
	u, err := windows.UTF16PtrFromString(memfs.LongPath(p))
	if err != nil {
		return err
	}
	if err := windows.RemoveDirectory(u); err != nil {
		return &fs.PathError{Op: "rmdir", Path: p, Err: err}
	}
	return nil
}

// pUtimes sets the times with SetFileTime on the name itself (a reparse
// point is opened, not followed).
func pUtimes(p string, t ftimes) error {
	h, err := createFile(p, windows.FILE_WRITE_ATTRIBUTES, windows.OPEN_EXISTING)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	a, m := windows.NsecToFiletime(t[0]), windows.NsecToFiletime(t[1])
	return windows.SetFileTime(h, nil, &a, &m)
}

// pSyncDir does nothing: Windows cannot flush a folder's handle, NTFS
// journals its metadata, and every rename memtui makes is
// MOVEFILE_WRITE_THROUGH. File contents are flushed (f.Sync is
// FlushFileBuffers).
func pSyncDir(p string) error { return nil }

//go:build unix

package hostile

import "syscall"

// mkfifo makes p a named pipe, which blocks whoever opens it for reading
// until a writer comes.
func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }

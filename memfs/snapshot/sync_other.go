//go:build !linux

package snapshot

// batchSync: without syncfs(2) each text is synced as it is written, and
// the folders holding new ones before a record names them.
const batchSync = false

// syncFS is not called where batchSync is false.
func syncFS(string) error { return nil }

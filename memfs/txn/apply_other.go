//go:build !unix

package txn

import (
	"context"
	"errors"

	"github.com/memtui/memtui/model"
)

// errNoWrites: the write path needs openat, renameat and flock semantics
// that memtui implements on Unix only.
var errNoWrites = errors.New("memtui writes memory files on Unix systems only")

// Apply fails every proposal on this platform.
func Apply(ctx context.Context, dir string, props []model.Proposal, opts ApplyOptions) []ApplyResult {
	out := make([]ApplyResult, len(props))
	for i, p := range props {
		out[i] = ApplyResult{ProposalID: p.ID, Status: StatusFailed, Err: errNoWrites}
	}
	return out
}

// Undo is not available on this platform.
func Undo(ctx context.Context, id string, opts ApplyOptions) ApplyResult {
	return ApplyResult{Status: StatusFailed, Err: errNoWrites}
}

// Recover has nothing to do on this platform: nothing is ever written.
func Recover(journalRoot string) ([]RecoverReport, error) { return nil, nil }

// ApplyLinked fails on this platform.
func ApplyLinked(ctx context.Context, p model.Proposal, opts ApplyOptions) ApplyResult {
	return ApplyResult{ProposalID: p.ID, Status: StatusFailed, Err: errNoWrites}
}

// RecoverDir has nothing to do on this platform: nothing is ever written.
func RecoverDir(dir string, opts ApplyOptions) ([]RecoverReport, error) { return nil, nil }

package diff

import (
	"slices"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/memtui/memtui/model"
)

// Blocks are what partial acceptance toggles: the maximal runs of changed
// lines (no context), numbered in order through a change; the review shows
// them as hunks and a person keeps them one by one.

// block is one run of changed lines: the old lines it removes and the new
// lines it adds, each with its newline.
type block struct{ del, add []string }

// piece is a stretch of unchanged lines or a block, in order.
type piece struct {
	same  []string
	block *block
}

// pieces splits a change into unchanged stretches and blocks.
func pieces(before, after string) []piece {
	dmp := newDMP()
	a, b, lines := dmp.DiffLinesToRunes(before, after)
	var out []piece
	cur := func() *block {
		if n := len(out); n > 0 && out[n-1].block != nil {
			return out[n-1].block
		}
		out = append(out, piece{block: &block{}})
		return out[len(out)-1].block
	}
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines) {
		ls := slices.Collect(strings.Lines(d.Text))
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			out = append(out, piece{same: ls})
		case diffmatchpatch.DiffDelete:
			blk := cur()
			blk.del = append(blk.del, ls...)
		case diffmatchpatch.DiffInsert:
			blk := cur()
			blk.add = append(blk.add, ls...)
		}
	}
	return out
}

// Blocks counts the blocks (hunks without context) of a change; a create
// or a delete is one block.
func Blocks(c model.Change, before string) int {
	if c.Op != model.OpUpdate {
		return 1
	}
	n := 0
	for _, p := range pieces(before, c.After) {
		if p.block != nil {
			n++
		}
	}
	return n
}

// KeepBlocks is after with only the kept blocks of the change from before
// (by index, as Blocks numbers them) made: a block not kept keeps the old
// lines it would have replaced.
func KeepBlocks(before, after string, keep []bool) string {
	var b strings.Builder
	i := 0
	for _, pc := range pieces(before, after) {
		if pc.block == nil {
			b.WriteString(strings.Join(pc.same, ""))
			continue
		}
		if i < len(keep) && keep[i] {
			b.WriteString(strings.Join(pc.block.add, ""))
		} else {
			b.WriteString(strings.Join(pc.block.del, ""))
		}
		i++
	}
	return b.String()
}

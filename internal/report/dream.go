package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/memtui/memtui/consolidate/diff"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/themes"
)

// ProposalsJSON writes {"version":1,"proposals":[...]}. Titles, rationales
// and paths have their secrets masked (a proposer's title or a restore's
// rationale can quote one); the changes' contents are left as proposed, as
// they are what --apply writes (dream's own are redacted already).
func ProposalsJSON(w io.Writer, ps []model.Proposal) error {
	masked := make([]model.Proposal, len(ps))
	for i, p := range ps {
		p.ID, p.Project, p.MemoryDir = safe.Mask(nil, p.ID), safe.Mask(nil, p.Project), safe.Mask(nil, p.MemoryDir)
		p.Title, p.Rationale = safe.Mask(nil, p.Title), safe.Mask(nil, p.Rationale)
		p.Changes = append([]model.Change(nil), p.Changes...)
		for j := range p.Changes {
			p.Changes[j].Path = safe.Mask(nil, p.Changes[j].Path)
			p.Changes[j].From = safe.Mask(nil, p.Changes[j].From)
		}
		if p.Also != nil {
			also := model.DirChanges{MemoryDir: safe.Mask(nil, p.Also.MemoryDir), Changes: append([]model.Change(nil), p.Also.Changes...)}
			for j := range also.Changes {
				also.Changes[j].Path = safe.Mask(nil, also.Changes[j].Path)
				also.Changes[j].From = safe.Mask(nil, also.Changes[j].From)
			}
			p.Also = &also
		}
		p.Reads = append([]model.FileRead(nil), p.Reads...)
		for j := range p.Reads {
			p.Reads[j].Path = safe.Mask(nil, p.Reads[j].Path)
		}
		p.Fixes = append([]model.FindingRef(nil), p.Fixes...)
		for j := range p.Fixes {
			p.Fixes[j].File = safe.Mask(nil, p.Fixes[j].File)
		}
		masked[i] = p
	}
	ps = masked
	return WriteJSON(w, dream.ProposerOutput{Version: 1, Proposals: ps})
}

// DiffStyles colour the proposals and changes reports; the zero value is
// plain text. They are built by themes from the one palette.
type DiffStyles = themes.DiffReportStyles

// DefaultDiffStyles colours for a dark or light terminal (full colour, as
// DefaultStyles).
func DefaultDiffStyles(dark bool) DiffStyles {
	return themes.NewDiffReportStyles(themes.For(dark, false))
}

// Proposals writes each proposal as a header (ID, kind, directory, title,
// rationale, the findings it fixes) and a unified diff of every change.
// before returns a file's content as the proposal read it.
func Proposals(w io.Writer, ps []model.Proposal, before func(dir, path string) string, st DiffStyles, home string, width int) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	id, title, why := paint.New(st.ID), paint.New(st.Title), paint.New(st.Rationale)
	dp := newDiffPainters(st)
	for i, p := range ps {
		if i > 0 {
			bw.WriteString("\n")
		}
		fmt.Fprintf(bw, "%s  %s\n", id.Paint(safe.ShowLine(p.ID)), safe.ShowLine(Tilde(p.MemoryDir, home)))
		bw.WriteString(title.Paint(safe.ShowLine(p.Title)) + "\n")
		bw.WriteString(why.Paint(hang(safe.ShowLine(p.Rationale), width, 0)) + "\n")
		if len(p.Fixes) > 0 {
			var refs []string
			for _, f := range p.Fixes {
				r := safe.Line(f.Rule)
				if f.File != "" {
					r += " " + safe.ShowLine(f.File)
					if f.Line > 0 {
						r += fmt.Sprintf(":%d", f.Line)
					}
				}
				refs = append(refs, r)
			}
			bw.WriteString(why.Paint(hang("fixes: "+strings.Join(refs, ", "), width, 0)) + "\n")
		}
		for _, c := range p.Changes {
			writeDiff(bw, DiffLines(c, before(p.MemoryDir, c.Source())), dp)
		}
		if p.Also != nil {
			// The second store's changes, written in the same transaction.
			bw.WriteString(why.Paint("and in "+safe.ShowLine(Tilde(p.Also.MemoryDir, home))+", in the same transaction:") + "\n")
			for _, c := range p.Also.Changes {
				writeDiff(bw, DiffLines(c, before(p.Also.MemoryDir, c.Source())), dp)
			}
		}
	}
	counts := map[model.ProposalKind]int{}
	for _, p := range ps {
		counts[p.Kind]++
	}
	var parts []string
	for _, k := range model.ProposalKinds {
		if counts[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
	}
	sum := "no proposals: nothing to consolidate"
	if len(ps) > 0 {
		sum = fmt.Sprintf("%d %s (%s). Nothing was written.", len(ps), Plural(len(ps), "proposal", "proposals"), strings.Join(parts, ", "))
	}
	if len(ps) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString(paint.New(st.Summary).Paint(sum) + "\n")
	return bw.Flush()
}

// Diff writes one change against before as a unified diff (DiffLines:
// masked and safe), coloured with st: for a command that shows a single
// file's change before it writes it (hook install).
func Diff(w io.Writer, c model.Change, before string, st DiffStyles) error {
	bw := bufio.NewWriter(w)
	writeDiff(bw, DiffLines(c, before), newDiffPainters(st))
	return bw.Flush()
}

// diffPainters colour the lines of a unified diff.
type diffPainters struct{ file, hunk, add, del paint.Painter }

func newDiffPainters(st DiffStyles) diffPainters {
	return diffPainters{paint.New(st.File), paint.New(st.Hunk), paint.New(st.Add), paint.New(st.Del)}
}

// writeDiff writes a unified diff's lines (DiffLines: masked and safe),
// coloured.
func writeDiff(bw *bufio.Writer, lines []string, p diffPainters) {
	for i, line := range lines {
		switch {
		case i < 2:
			line = p.file.Paint(line)
		case strings.HasPrefix(line, "@@"):
			line = p.hunk.Paint(line)
		case strings.HasPrefix(line, "+"):
			line = p.add.Paint(line)
		case strings.HasPrefix(line, "-"):
			line = p.del.Paint(line)
		}
		bw.WriteString(line + "\n")
	}
}

// DiffLines is change c against before as the lines of a unified diff,
// fit to print: secrets are masked in the whole of both texts before they
// are compared (a PEM key is found only whole, and the lines a redaction
// removes hold the secret), the file name is one line whatever it holds,
// and each line's control characters are shown as escapes. A move is a
// rename: its two names and "rename from → to", no content (its bytes do
// not change).
func DiffLines(c model.Change, before string) []string {
	if c.Op == model.OpMove {
		from, to := safe.ShowLine(c.From), safe.ShowLine(c.Path)
		return []string{"--- a/" + from, "+++ b/" + to, diff.RenameLine(from, to)}
	}
	from, to := "a/"+safe.ShowLine(c.Path), "b/"+safe.ShowLine(c.Path)
	switch c.Op {
	case model.OpCreate:
		from = "/dev/null"
	case model.OpDelete:
		to = "/dev/null"
	}
	m := c
	m.Path, m.After = "x", safe.Mask(nil, c.After)
	unified := diff.Unified(m, safe.Mask(nil, before))
	// The body starts after the two header lines, which named "x".
	_, body, _ := strings.Cut(unified, "\n+++ ")
	_, body, _ = strings.Cut(body, "\n")
	out := []string{"--- " + from, "+++ " + to}
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if l != "" {
			out = append(out, safe.Block(l))
		}
	}
	return out
}

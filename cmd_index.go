package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
)

// indexFlags are index's own flags.
type indexFlags struct {
	check        bool
	json         bool
	moveAboveCut string
	yes          bool
	wait         time.Duration
}

func newIndexCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
	var xf indexFlags
	c := &cobra.Command{
		Use:   "index [PROJECT]",
		Short: "Check MEMORY.md against Claude Code's load caps",
		Long: `Check each MEMORY.md as Claude Code (2.1.332) loads it: lines and UTF-16
units against the 200-line and 25,000-unit caps, what is cut off, and the
warning Claude Code appends. An index over 4,194,304 bytes is not loaded at
all; a subagent's MEMORY.md is loaded raw (nothing stripped). PROJECT
matches a project's slug or real path, like --project; without it every
project is checked.

--json prints {"version":1,"indexes":[...]}, one entry per index with what
the agent receives after every step of the pipeline (secrets masked).

Exit status: 0 when every index loads whole, 1 when one is cut off or not
loaded, 2 on a usage or I/O error.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runIndex(cmd.Context(), g, xf, args, stdout, stderr)
		},
	}
	f := c.Flags()
	f.BoolVar(&xf.check, "check", true, "report each index's budget; exit 1 when one is cut off or not loaded")
	f.BoolVar(&xf.json, "json", false, "print each index as Claude Code loads it, as JSON")
	f.StringVar(&xf.moveAboveCut, "move-above-cut", "", "move the entry for FILE to just above the cut (prints the diff; writes with --yes)")
	f.BoolVar(&xf.yes, "yes", false, "with --move-above-cut: write it, through the locked, journalled write path")
	f.DurationVar(&xf.wait, "wait", 0, "with --yes: wait this long for Claude Code's consolidation lock")
	return c
}

// indexJSON is one index in index --json: what Claude Code does with it.
type indexJSON struct {
	MemoryDir string `json:"memory_dir"`
	File      string `json:"file"` // relative to MemoryDir
	// Loaded is false when Claude Code skips the file (over 4,194,304
	// bytes): LoadedText is then "".
	Loaded bool `json:"loaded"`
	// Lines and Units are Claude Code's counts before the cut, of the
	// stripped, trimmed text (0 when it is not loaded).
	Lines            int  `json:"lines"`
	Units            int  `json:"units"`
	TruncatedByLines bool `json:"truncated_by_lines"`
	TruncatedBySize  bool `json:"truncated_by_size"`
	// LoadedText is what the agent receives after every step, without the
	// "Contents of …" header; Warning the warning appended to it ("" when
	// none). Both have their secrets masked.
	LoadedText string `json:"loaded_text"`
	Warning    string `json:"warning"`
	// Bytes, Tokens and CutBytes measure a Codex summary (agent "codex"):
	// its trimmed bytes against 10,000, in Codex's tokens of 4 bytes, and
	// the bytes its middle cut leaves out.
	Bytes    int `json:"bytes,omitempty"`
	Tokens   int `json:"tokens,omitempty"`
	CutBytes int `json:"cut_bytes,omitempty"`
	// Agent is a --memory-root store's label (measured as Claude Code
	// loads MEMORY.md); absent for Claude Code's own.
	Agent string `json:"agent,omitempty"`
}

// dirIndex is one index file of a memory dir: its MEMORY.md, or a
// memory store's index (store set).
type dirIndex struct {
	file  *model.File
	store *model.Store
}

// dirIndexes are d's index files: MEMORY.md first, then the indexes of the
// memory stores mounted in it (a team dir's team/<mount>/<promptIndex>,
// the user store's promptIndex). Claude Code's path for a store's index
// was not traced (facts 7.1, "store code"): memtui measures it with the
// MEMORY.md pipeline, the best it knows.
func dirIndexes(d *model.MemoryDir) []dirIndex {
	var out []dirIndex
	if d.Index != nil {
		out = append(out, dirIndex{file: d.Index})
	}
	for i := range d.StoreIndexes {
		si := &d.StoreIndexes[i]
		out = append(out, dirIndex{file: si.File, store: &si.Store})
	}
	return out
}

// indexOf is one loaded index for index --json, secrets masked (the
// counts are of the real text).
func indexOf(p *model.Project, d *model.MemoryDir, f *model.File, l *claude.Load) indexJSON {
	text, warning := safe.LoadText(l)
	return indexJSON{
		Agent:            p.Agent,
		MemoryDir:        safe.Mask(nil, d.Path),
		File:             safe.Mask(nil, f.Path),
		Loaded:           !l.TooLarge,
		Lines:            l.LineCount,
		Units:            l.Units,
		TruncatedByLines: l.LineTruncated,
		TruncatedBySize:  l.SizeTruncated,
		LoadedText:       text,
		Warning:          warning,
	}
}

// runIndex reports each index's load budget, as text or JSON.
func runIndex(ctx context.Context, g *globals, xf indexFlags, args []string, stdout, stderr io.Writer) error {
	if len(args) == 1 {
		if g.project != "" && g.project != args[0] {
			return errors.New("give the project once: as PROJECT or as --project")
		}
		g.project = args[0]
	}
	if xf.json && xf.moveAboveCut != "" {
		return errors.New("--json does not go with --move-above-cut")
	}
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	if xf.moveAboveCut != "" {
		return moveAboveCut(ctx, g, s, xf, stdout)
	}
	home := g.getenv("HOME")
	checked, cut, skipped := 0, 0, 0
	indexes := []indexJSON{}
	err = s.EachLoadedDir(ctx, func(p *model.Project, d *model.MemoryDir) error {
		for _, ix := range dirIndexes(d) {
			checked++
			l := claude.LoadIndex(ix.file, d.Kind.LoadMode())
			switch {
			case l.TooLarge:
				skipped++
			case l.Truncated():
				cut++
			}
			if xf.json {
				indexes = append(indexes, indexOf(p, d, ix.file, &l))
			} else {
				printIndex(stdout, p, d, ix, &l, home)
			}
		}
		d.DropContent() // the next directory need not wait for this one's text
		return nil
	})
	if err != nil {
		return err
	}
	// Codex's summaries, after Claude Code's indexes.
	if g.project == "" {
		stores, err := s.LoadCodex(ctx)
		if err != nil {
			return err
		}
		for _, cs := range stores {
			cx := app.NewCodexStore(cs, nil)
			checked++
			if xf.json {
				indexes = append(indexes, codexIndexJSON(cx))
			} else if printCodexIndex(stdout, cx, home) {
				cut++
			}
			if xf.json && (cx.Summary.Cut || cx.Summary.Empty) {
				cut++
			}
		}
	}
	if cut+skipped > 0 {
		g.exit = exitFindings
	}
	if xf.json {
		return report.WriteJSON(stdout, struct {
			Version int         `json:"version"`
			Indexes []indexJSON `json:"indexes"`
		}{1, indexes})
	}
	if checked == 0 {
		fmt.Fprintln(stdout, "No MEMORY.md found.")
		return nil
	}
	sum := fmt.Sprintf("%d %s checked, %d cut off", checked, report.Plural(checked, "index", "indexes"), cut)
	if skipped > 0 {
		sum += fmt.Sprintf(", %d not loaded at all", skipped)
	}
	fmt.Fprintln(stdout, sum+".")
	return nil
}

// printIndex is one index in the text report: its path, its budget and
// state, and the warning Claude Code appends.
func printIndex(w io.Writer, p *model.Project, d *model.MemoryDir, ix dirIndex, l *claude.Load, home string) {
	path := safe.ShowLine(report.Tilde(filepath.Join(d.Path, ix.file.Path), home))
	size := max(ix.file.Size, int64(len(ix.file.Content)))
	switch {
	case l.Mode == model.LoadAgent:
		path += " (a subagent's: loaded raw, nothing stripped)"
	case ix.store != nil:
		path += " (the index of the " + safe.ShowLine(ix.store.Label()) + "; measured as Claude Code loads MEMORY.md)"
	case p.Agent != "":
		path += " (" + safe.ShowLine(p.Agent) + "'s store, " + safe.ShowLine(p.Slug) + "; measured as Claude Code loads MEMORY.md)"
	}
	if l.TooLarge {
		fmt.Fprintf(w, "%s\n  %d bytes: NOT LOADED: over the %d bytes Claude Code reads of an index, so the agent gets none of it, and no warning\n",
			path, size, model.IndexMaxReadBytes)
		return
	}

	state := "loads whole"
	switch {
	case l.Truncated():
		state = fmt.Sprintf("CUT OFF: %d %s never reach the agent", len(l.Dropped), report.Plural(len(l.Dropped), "line", "lines"))
	case l.NearLimit():
		state = "near a cap"
	}
	// Percentages are cut, not rounded (as the checks cut them): 99.5%
	// of a cap is not 100%, which reads as at the cap.
	fmt.Fprintf(w, "%s\n  %d/%d lines (%d%%), %d/%d UTF-16 units (%d%%): %s\n", path,
		l.LineCount, model.IndexMaxLines, int(l.LinePercent()), l.Units, model.IndexMaxUnits, int(l.UnitPercent()), state)
	if ix.store != nil && ix.store.PromptIndexMaxBytes > 0 && size > ix.store.PromptIndexMaxBytes {
		fmt.Fprintf(w, "  %d bytes: over the %d bytes the store's promptIndexMaxBytes allows\n", size, ix.store.PromptIndexMaxBytes)
	}
	if _, warning := safe.LoadText(l); warning != "" {
		fmt.Fprintf(w, "  Claude Code appends: %s\n", safe.ShowLine(warning))
	}
}

// moveAboveCut moves one index entry above the load cut: the diff always,
// the write only with --yes, through the same path as proposals.
func moveAboveCut(ctx context.Context, g *globals, s *app.Workspace, xf indexFlags, stdout io.Writer) error {
	target := filepath.ToSlash(filepath.Clean(xf.moveAboveCut))
	type hit struct {
		d  *model.MemoryDir
		ed *memindex.Editor
	}
	var hits []hit
	err := s.EachLoadedDir(ctx, func(_ *model.Project, d *model.MemoryDir) error {
		if d.Index == nil || d.Index.Truncated {
			return nil
		}
		ed := memindex.NewEditorMode(d.Index.Content, d.Kind.LoadMode())
		if ed.FindRow(target) >= 0 {
			hits = append(hits, hit{d, ed})
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch len(hits) {
	case 0:
		return fmt.Errorf("no MEMORY.md has an entry for %s (give PROJECT to choose the project)", target)
	case 1:
	default:
		var dirs []string
		for _, h := range hits {
			dirs = append(dirs, h.d.Path)
		}
		return fmt.Errorf("several indexes have an entry for %s; give PROJECT to pick one of: %s", target, strings.Join(dirs, ", "))
	}
	h := hits[0]
	mv, err := h.ed.MoveAboveCut(target)
	if err != nil {
		return fmt.Errorf("cannot move %s above the cut: %w", target, err)
	}
	before := h.d.Index.Content
	after := h.ed.Bytes()
	prop := model.Proposal{
		ID: "index-move", Kind: model.KindReindex, MemoryDir: h.d.Path,
		Title:     "Move the entry for " + target + " above the cut",
		Rationale: "By hand, with memtui index --move-above-cut.",
		Changes:   []model.Change{{Path: "MEMORY.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(before), After: string(after)}},
	}
	for _, l := range report.DiffLines(prop.Changes[0], string(before)) {
		fmt.Fprintln(stdout, l)
	}
	if n := len(mv.Pushed); n > 0 {
		fmt.Fprintf(stdout, "%d %s that loaded before now fall%s below the cut.\n", n, report.Plural(n, "line", "lines"), report.Plural(n, "s", ""))
	}
	if !xf.yes {
		fmt.Fprintln(stdout, "Not written. Add --yes to write it.")
		return nil
	}
	if g.readonly {
		return errors.New("--readonly forbids --yes")
	}
	r := s.Apply(ctx, h.d.Path, []model.Proposal{prop}, txn.ApplyOptions{WaitForLock: xf.wait})[0]
	if r.Status != txn.StatusApplied {
		fmt.Fprintf(stdout, "not written (%s): %s\n", r.Status, safe.ShowLine(fmt.Sprint(r.Err)))
		g.exit = exitFindings
		return nil
	}
	fmt.Fprintf(stdout, "Written (journal %s; memtui undo %s puts it back).\n", r.JournalID, r.JournalID)
	return nil
}

package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model/codex"
)

// `memtui index` over Codex's stores (issue 17): each store's
// memory_summary.md as a Codex session loads it, after Claude Code's
// indexes: its bytes and tokens against the cap, and over it what Codex
// cuts from the middle, which it says to nobody.

// codexIndexJSON is a Codex summary in index --json, beside Claude Code's
// indexes: agent "codex", the lines and units of those left out.
func codexIndexJSON(cx *app.CodexStore) indexJSON {
	l := cx.Summary
	j := indexJSON{Agent: app.AgentCodex, MemoryDir: safe.Mask(nil, cx.Store.Root), File: codex.SummaryFile, Loaded: !l.Empty,
		Bytes: len(l.Trimmed), Tokens: codex.Tokens(len(l.Trimmed)), TruncatedBySize: l.Cut}
	if !l.Empty {
		j.LoadedText = safe.Mask(nil, l.Text)
	}
	if l.Cut {
		j.CutBytes = l.Removed()
	}
	return j
}

// printCodexIndex is one Codex summary in the text report; cut says it is
// cut or missing (exit 1, as for a cut index).
func printCodexIndex(w io.Writer, cx *app.CodexStore, home string) (cut bool) {
	path := safe.ShowLine(report.Tilde(filepath.Join(cx.Store.Root, codex.SummaryFile), home)) + " (Codex's: injected into every Codex session)"
	f := cx.Store.File(codex.SummaryFile)
	l := cx.Summary
	if f == nil || l.Empty {
		fmt.Fprintf(w, "%s\n  MISSING OR BLANK: Codex leaves the whole memory section out of every session\n", path)
		return true
	}
	n := len(l.Trimmed)
	state := "loads whole"
	switch {
	case l.Cut:
		first, last := l.CutLines(f.Content)
		state = fmt.Sprintf("CUT in the middle: %d bytes, lines %d-%d, never reach a session", l.Removed(), first, last)
	case l.NearCap():
		state = "near the cap"
	}
	fmt.Fprintf(w, "%s\n  %d/%d bytes (%d%%), %d/%d tokens of 4 bytes: %s\n", path, n, codex.SummaryByteLimit, n*100/codex.SummaryByteLimit,
		codex.Tokens(n), codex.SummaryTokenLimit, state)
	if l.Cut {
		if names := l.CutSectionNames(cx.Shape); len(names) > 0 {
			fmt.Fprintf(w, "  sections cut: %s\n", safe.ShowLine(strings.Join(names, ", ")))
		}
		fmt.Fprintf(w, "  Codex puts in their place: %s (and warns nobody)\n", safe.ShowLine(l.Marker))
	}
	return l.Cut
}

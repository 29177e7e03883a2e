package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model/codex"
)

// `memtui ls` over Codex's stores (issue 17): after Claude Code's memory
// directories, each Codex store's files, by kind, with what Codex does
// with each: the summary every session gets (and whether whole), the
// handbook and its task groups, the notes waiting to be consolidated,
// what Codex rebuilds from its database.

// lsCodexEntry is one file of a Codex store as ls prints it.
type lsCodexEntry struct {
	e app.CodexEntry
	// about says what the file holds or how Codex loads it.
	about string
}

// lsCodexEntries lists a store's files (task groups aside: the text
// output names them under the handbook).
func lsCodexEntries(cx *app.CodexStore) []lsCodexEntry {
	var out []lsCodexEntry
	for _, sec := range cx.Sections {
		for _, e := range sec.Entries {
			if e.Group != nil {
				continue
			}
			out = append(out, lsCodexEntry{e: e, about: codexAbout(cx, e)})
		}
	}
	return out
}

// codexAbout is the few words ls prints after a Codex file.
func codexAbout(cx *app.CodexStore, e app.CodexEntry) string {
	switch e.Kind {
	case codex.KindSummary:
		l := cx.Summary
		switch {
		case l.Empty:
			return "blank: sessions get no memory section"
		case l.Cut:
			return fmt.Sprintf("%d/%d bytes: cut, %d bytes in the middle never reach a session", len(l.Trimmed), codex.SummaryByteLimit, l.Removed())
		}
		return fmt.Sprintf("%d/%d bytes: loads whole into every session", len(l.Trimmed), codex.SummaryByteLimit)
	case codex.KindHandbook:
		n := len(cx.Handbook.Groups)
		return fmt.Sprintf("%d task %s, read on demand", n, report.Plural(n, "group", "groups"))
	case codex.KindRollout:
		return codex.ParseRolloutSummary(e.File.Content).Title
	case codex.KindSkill:
		// Its frontmatter's description says when to use it.
		for _, l := range strings.Split(string(e.File.Content), "\n") {
			if d, ok := strings.CutPrefix(strings.TrimSpace(l), "description:"); ok {
				return firstText([]byte(d))
			}
		}
		return firstText(e.File.Content)
	case codex.KindNote:
		return firstText(e.File.Content)
	}
	return ""
}

// firstText is the first line of b with text, cut to 100 characters.
func firstText(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "#-"))
		if l == "" || l == "---" {
			continue
		}
		if r := []rune(l); len(r) > 100 {
			l = string(r[:99]) + "…"
		}
		return l
	}
	return ""
}

// lsCodexText writes each store's files under a heading naming the agent.
func lsCodexText(bw *bufio.Writer, stores []*app.CodexStore, st report.Styles, home string) int {
	proj, dir, faint := paint.New(st.Project), paint.New(st.Dir), paint.New(st.Rule)
	total := 0
	for _, cx := range stores {
		bw.WriteString(proj.Paint("codex · "+safe.ShowLine(report.Tilde(cx.Store.Home, home))) + "\n")
		head := "  (OpenAI Codex: one store for every project; memory_summary.md goes into every session, the rest is read on demand"
		if why := cx.Busy(); why != "" {
			head += "; read-only now: a consolidation is running or crashed"
		}
		bw.WriteString("  " + dir.Paint(safe.ShowLine(report.Tilde(cx.Store.Root, home))+head+")") + "\n")
		es := lsCodexEntries(cx)
		if len(es) == 0 {
			bw.WriteString("    " + faint.Paint("no memory file") + "\n")
		}
		for _, le := range es {
			total++
			e := le.e
			line := fmt.Sprintf("    %-15s %-11s %-7s %s", e.Kind, e.File.ModTime.UTC().Format("2006-01-02")+"*", lsBytes(e.File.Size), safe.ShowLine(e.Path))
			if le.about != "" {
				line += "  " + safe.ShowLine(le.about)
			}
			if e.Kind.Regenerated() {
				line = faint.Paint(line)
			}
			bw.WriteString(line + "\n")
			if e.Kind == codex.KindHandbook {
				for _, g := range cx.Handbook.Groups {
					bw.WriteString(faint.Paint(fmt.Sprintf("      task group, line %d: %s", g.Line, safe.ShowLine(g.Title))) + "\n")
				}
			}
		}
	}
	return total
}

// lsBytes is a size in a few cells.
func lsBytes(n int64) string {
	if n < 1000 {
		return fmt.Sprintf("%dB", n)
	}
	return fmt.Sprintf("%.1fK", float64(n)/1024)
}

// lsCodexJSON are the stores' files as ls --json lists them beside Claude
// Code's memories: agent "codex", store the file's kind.
func lsCodexJSON(stores []*app.CodexStore) []lsMemJSON {
	var out []lsMemJSON
	m := func(s string) string { return safe.Mask(nil, s) }
	for _, cx := range stores {
		for _, le := range lsCodexEntries(cx) {
			e := le.e
			mj := lsMemJSON{Agent: app.AgentCodex, MemoryDir: m(cx.Store.Root), File: m(e.Path), Store: string(e.Kind),
				Description: m(le.about), Modified: rfc3339(e.File.ModTime), ModifiedFrom: "mtime", Bytes: e.File.Size}
			if e.ReadOnly != "" {
				mj.ReadOnly = m(e.ReadOnly)
			}
			out = append(out, mj)
		}
	}
	return out
}

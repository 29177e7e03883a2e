package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// lsFlags are ls's own flags.
type lsFlags struct {
	json bool
}

func newLsCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
	var lf lsFlags
	c := &cobra.Command{
		Use:   "ls",
		Short: "List every memory file as Claude Code's scan sees it",
		Long: `List every memory file of every memory directory as Claude Code 2.1.332's
scan sees it, one line each: the store, the type, name and description the
scan reads from the frontmatter, when it was modified (metadata.modified,
else the file's mtime), its size against the 4 KB recall shows, and whether
the scan offers it to recall.

A file the scan does not offer says why, in one word: excluded-path (a
folder starting with a dot, logs/, sessions/, proposals/, a team/ folder no
team store mounts), past-200 (older than the newest 200 by mtime),
tie-at-200 (it shares the 200th place's mtime: the folder listing's order
decides), unreadable, not-followed (a link the scan does not follow) or
hardlinked (refused in project and local agent memory).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLs(cmd.Context(), g, lf, stdout, stderr)
		},
	}
	c.Flags().BoolVar(&lf.json, "json", false, "print JSON")
	return c
}

// lsEntry is one memory file as `ls` prints it. Every text is as read:
// the printers make it safe.
type lsEntry struct {
	file                   string
	typ, name, description string
	modified               time.Time
	modifiedFrom           string // "metadata", "mtime" or "" when unknown
	bytes                  int64
	reason                 model.ScanReason
}

// lsDir is one memory directory's entries.
type lsDir struct {
	project *model.Project
	dir     *model.MemoryDir
	entries []lsEntry
}

func runLs(ctx context.Context, g *globals, lf lsFlags, stdout, stderr io.Writer) error {
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	stores := model.ParseMemoryStores(s.ScanOpts.Getenv("CLAUDE_MEMORY_STORES"))
	var dirs []lsDir
	err = s.EachLoadedDir(ctx, func(p *model.Project, d *model.MemoryDir) error {
		dirs = append(dirs, lsDir{project: p, dir: d, entries: lsEntries(d, stores)})
		d.DropContent()
		return nil
	})
	if err != nil {
		return err
	}
	codexStores, err := s.LoadCodex(ctx)
	if err != nil {
		return err
	}
	var cxs []*app.CodexStore
	for _, cs := range codexStores {
		cxs = append(cxs, app.NewCodexStore(cs, nil))
	}
	if lf.json {
		return lsJSON(stdout, dirs, cxs)
	}
	w := colorprofile.NewWriter(stdout, environ(g.getenv))
	st := report.Styles{}
	if w.Profile != colorprofile.NoTTY {
		st = report.DefaultStyles(g.darkBackground(stdout, w.Profile))
	}
	return lsText(w, dirs, cxs, st, g.getenv("HOME"))
}

// lsEntries lists d's memory files: those read, with what the scan reads
// of them, and those that could not be read (the scan drops them too).
func lsEntries(d *model.MemoryDir, stores model.MemoryStores) []lsEntry {
	var out []lsEntry
	for _, f := range d.Files {
		doc := claude.ParseDoc(f.Content)
		typ, name, desc := claude.ScanFields(doc, f.Content, stores.Set)
		e := lsEntry{file: f.Path, typ: string(typ), name: name, description: desc,
			modified: f.ModTime, modifiedFrom: "mtime", bytes: f.Size, reason: f.Scan}
		if !doc.FM.ModifiedTime.IsZero() && (doc.Status == model.FMOK || doc.Status == model.FMTolerant) {
			e.modified, e.modifiedFrom = doc.FM.ModifiedTime, "metadata"
		}
		out = append(out, e)
	}
	seen := map[string]bool{}
	for _, p := range d.Problems {
		if !strings.HasSuffix(p.Path, ".md") || p.Path == "MEMORY.md" || seen[p.Path] {
			continue
		}
		reason := model.ScanUnreadable
		switch p.Kind {
		case model.ProblemUnreadable, model.ProblemNotFile, model.ProblemSymlinkLoop:
		case model.ProblemLinkSkipped:
			reason = model.ScanNotFollowed
		default:
			continue // a link that was followed, or a file read in part: listed above
		}
		if lsExcluded(d, p.Path, stores) {
			reason = model.ScanExcluded
		}
		seen[p.Path] = true
		out = append(out, lsEntry{file: p.Path, reason: reason})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].file < out[j].file })
	return out
}

// lsExcluded reports whether the scan's path filter skips rel in d (for a
// file memtui could not read, so the loader did not mark it).
func lsExcluded(d *model.MemoryDir, rel string, stores model.MemoryStores) bool {
	switch d.Kind {
	case model.DirAgentUser, model.DirAgentProject, model.DirAgentLocal:
		return false
	case model.DirTeam:
		rel = "team/" + rel
	}
	return model.ScanExclusion(rel, stores) != ""
}

// lsMemJSON is one memory file in ls --json. Agent is "claude",
// "codex" or a --memory-root store's label; for a Codex file, Store is its kind (summary, handbook, note,
// rollout-summary…), InScan null and Reason empty (Codex has no recall
// scan: its summary goes into every session, the rest is read on
// demand), and ReadOnly says why memtui never edits it.
type lsMemJSON struct {
	Agent        string `json:"agent"`
	MemoryDir    string `json:"memory_dir"`
	File         string `json:"file"`
	Store        string `json:"store"`
	Name         string `json:"name"`
	Description  string `json:"description"`
	Type         string `json:"type"`
	Modified     string `json:"modified"`
	ModifiedFrom string `json:"modified_from"`
	Bytes        int64  `json:"bytes"`
	InScan       *bool  `json:"in_scan"`
	Reason       string `json:"reason"`
	ReadOnly     string `json:"read_only,omitempty"`
}

// lsJSON writes {"version":1,"memories":[...]}, every text from disk
// masked and made safe by the shared JSON path: Claude Code's memories,
// then Codex's stores' files.
func lsJSON(w io.Writer, dirs []lsDir, stores []*app.CodexStore) error {
	out := struct {
		Version  int         `json:"version"`
		Memories []lsMemJSON `json:"memories"`
	}{Version: 1, Memories: []lsMemJSON{}}
	m := func(s string) string { return safe.Mask(nil, s) }
	for _, ld := range dirs {
		for _, e := range ld.entries {
			agent := ld.project.Agent // a --memory-root store's label
			if agent == "" {
				agent = app.AgentClaude
			}
			mj := lsMemJSON{Agent: agent, MemoryDir: m(ld.dir.Path), File: m(e.file), Store: ld.dir.Kind.String(), Name: m(e.name), Description: m(e.description),
				Type: e.typ, Modified: rfc3339(e.modified), ModifiedFrom: e.modifiedFrom, Bytes: e.bytes, Reason: string(e.reason)}
			if in, known := e.reason.InScan(); known {
				mj.InScan = &in
			}
			out.Memories = append(out.Memories, mj)
		}
	}
	out.Memories = append(out.Memories, lsCodexJSON(stores)...)
	return report.WriteJSON(w, out)
}

// lsText writes one line per memory file, under its directory:
//
//	in-scan   feedback   2026-11-06  1.2K/4K  feedback_deploy.md  deploy: Deploy with make ship
//
// the scan's verdict (in-scan or the reason word), the type ("-" for
// none), the modified date (* when it is the file's mtime, not
// metadata.modified), the size against the recall cap, the file, and the
// name and description the scan reads.
func lsText(w io.Writer, dirs []lsDir, stores []*app.CodexStore, st report.Styles, home string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	proj, dir, faint, sum := paint.New(st.Project), paint.New(st.Dir), paint.New(st.Rule), paint.New(st.Summary)
	total, offered := 0, 0
	var lastProject *model.Project
	for _, ld := range dirs {
		projectHeading(bw, ld.project, &lastProject, proj, home)
		n, in := 0, 0
		for _, e := range ld.entries {
			if e.reason.Memory() {
				n++
			}
			if e.reason == model.ScanIn {
				in++
			}
		}
		head := fmt.Sprintf("  (%s; %d of %d listed %s offered to recall", ld.dir.Kind, in, n, report.Plural(n, "memory", "memories"))
		if ld.dir.ScanListed > n {
			head += fmt.Sprintf(", of %d in the whole scan", ld.dir.ScanListed)
		}
		bw.WriteString("  " + dir.Paint(safe.ShowLine(report.Tilde(ld.dir.Path, home))+head+")") + "\n")
		if len(ld.entries) == 0 {
			bw.WriteString("    " + faint.Paint("no memory file") + "\n")
		}
		for _, e := range ld.entries {
			total++
			verdict := "in-scan"
			if e.reason != model.ScanIn {
				verdict = string(e.reason)
			} else {
				offered++
			}
			typ := e.typ
			if typ == "" {
				typ = "-"
			}
			date := "-"
			if !e.modified.IsZero() {
				date = e.modified.UTC().Format("2006-01-02")
				if e.modifiedFrom == "mtime" {
					date += "*"
				}
			}
			size := "-"
			if e.modifiedFrom != "" {
				size = lsSize(e.bytes)
			}
			line := fmt.Sprintf("    %-13s %-10s %-11s %-12s %s", verdict, typ, date, size, safe.ShowLine(e.file))
			if about := lsAbout(e.name, e.description); about != "" {
				line += "  " + safe.ShowLine(about)
			}
			if e.reason != model.ScanIn {
				line = faint.Paint(line)
			}
			bw.WriteString(line + "\n")
		}
	}
	summary := fmt.Sprintf("%d memory %s, %d offered to recall. * = modified date from the file's mtime (no metadata.modified).", total, report.Plural(total, "file", "files"), offered)
	if n := lsCodexText(bw, stores, st, home); len(stores) > 0 {
		summary = fmt.Sprintf("%d Claude Code memory %s, %d offered to recall; %d Codex %s. * = modified date from the file's mtime (no metadata.modified).",
			total, report.Plural(total, "file", "files"), offered, n, report.Plural(n, "file", "files"))
	}
	bw.WriteString(sum.Paint(summary) + "\n")
	return bw.Flush()
}

// lsSize is a size against the recall cap: "1.2K/4K", and "9.6K/4K cut"
// past it (recall shows only the first 4 KB).
func lsSize(n int64) string {
	s := fmt.Sprintf("%.1fK/4K", float64(n)/1024)
	if n < 1000 {
		s = fmt.Sprintf("%dB/4K", n)
	}
	if n > model.RecallMaxBytes {
		s += " cut"
	}
	return s
}

// lsAbout is "name: description", either part when the other is empty,
// the description cut to 100 characters.
func lsAbout(name, desc string) string {
	if r := []rune(desc); len(r) > 100 {
		desc = string(r[:99]) + "…"
	}
	switch {
	case name == "":
		return desc
	case desc == "":
		return name
	}
	return name + ": " + desc
}

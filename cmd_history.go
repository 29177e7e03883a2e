package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs/transcript"
	"github.com/memtui/memtui/model"
)

// historyFlags are history's own flags.
type historyFlags struct {
	json bool
}

func newHistoryCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
	var hf historyFlags
	c := &cobra.Command{
		Use:   "history [FILE...]",
		Short: "Show every recorded write and use of each memory file, deleted ones included",
		Long: `Show, for each memory file the transcripts or the disk know (files since
deleted included), every write the session transcripts record, oldest first:
the session, its title, working directory and branch, the tool, the time,
the tool_use id, and whether it created, modified or deleted the file. Under
them, how often agents read it, re-read it unchanged, had it recalled, or
loaded it as the index.

A shell command counts as a write or delete when it plainly names the file
(a redirection, rm, mv, cp, sed -i, tee). memtui's own writes, from its
journal, show as the tool "memtui"; Claude Code's background extraction and
autoDream as "fork".

FILE narrows the output to those files: a path relative to the memory
directory (feedback_x.md, MEMORY.md) or an absolute one. --project narrows
it to projects, as everywhere.

A Codex store's files follow, from its sessions' rollouts: for each, the
sessions that read, cited or wrote it, how often its summary was loaded,
and for a rollout summary how often its thread's memories were cited.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHistory(cmd.Context(), g, hf, args, stdout, stderr)
		},
	}
	c.Flags().BoolVar(&hf.json, "json", false, "print JSON")
	return c
}

// historyDir is one memory directory's files, as history shows them.
type historyDir struct {
	project *model.Project
	dir     *model.MemoryDir
	files   []forensics.FileHistory
}

// historyProblem is one problem met reading transcripts: the transcript it
// concerns ("" when none) and what went wrong.
type historyProblem = model.TranscriptProblem

func runHistory(ctx context.Context, g *globals, hf historyFlags, args []string, stdout, stderr io.Writer) error {
	if g.noTranscripts {
		return errors.New("history needs the session transcripts: run it without --no-transcripts")
	}
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	matched := make([]bool, len(args))
	var dirs []historyDir
	var probs []historyProblem
	seen := map[historyProblem]bool{}
	// As readTranscripts, but a project whose transcripts could not be
	// read at all is one of the problems too, not only a line on stderr.
	errs := transcript.ReadAll(ctx, s.Scan.Projects, 2, s.TranscriptOptions())
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, p := range s.Scan.Projects {
		if errs[i] != nil {
			pr := historyProblem{Transcript: p.TranscriptDir, Message: "the transcripts of " + p.Name() + " could not be read: " + errs[i].Error()}
			fmt.Fprintf(stderr, "memtui: %s\n", safe.ShowLine(pr.Message))
			probs = append(probs, pr)
		}
		for _, pr := range problemsOf(p.Log) {
			if !seen[pr] {
				seen[pr] = true
				probs = append(probs, pr)
			}
		}
		for _, d := range p.Dirs {
			if err := s.Load(ctx, d); err != nil {
				fmt.Fprintf(stderr, "memtui: %s: %s\n", safe.ShowLine(d.Path), safe.ShowLine(err.Error()))
				continue
			}
			fs := forensics.History(d, p.Log)
			// Only the names were needed: the text goes, so a large tree is
			// not held whole until the end.
			d.DropContent()
			if len(args) > 0 {
				fs = keepFiles(fs, d.Path, args, matched)
			}
			if len(fs) > 0 {
				dirs = append(dirs, historyDir{project: p, dir: d, files: fs})
			}
		}
	}
	provs, err := codexProvenance(ctx, s)
	if err != nil {
		return err
	}
	cx := codexHistory(provs, args, matched)
	for _, p := range provs {
		for _, pr := range p.Problems {
			if !seen[pr] {
				seen[pr] = true
				probs = append(probs, pr)
			}
		}
	}
	var missing []string
	for i, ok := range matched {
		if !ok {
			missing = append(missing, args[i])
		}
	}
	if len(args) > 0 && len(missing) == len(args) {
		return fmt.Errorf("no memory directory knows %s", strings.Join(missing, ", "))
	}
	for _, m := range missing {
		fmt.Fprintf(stderr, "memtui: no memory directory knows %s\n", safe.ShowLine(m))
	}
	if hf.json {
		return historyJSON(stdout, dirs, cx, probs)
	}
	// Colour only on a terminal (and never with NO_COLOR), as lint's.
	w := colorprofile.NewWriter(stdout, environ(g.getenv))
	st := report.Styles{}
	if w.Profile != colorprofile.NoTTY {
		st = report.DefaultStyles(g.darkBackground(stdout, w.Profile))
	}
	return historyText(w, dirs, cx, probs, st, g.getenv("HOME"))
}

// keepFiles keeps the files that one of args names (relative to dir, or
// absolute), marking in matched the args that named one.
func keepFiles(fs []forensics.FileHistory, dir string, args []string, matched []bool) []forensics.FileHistory {
	out := fs[:0]
	for _, f := range fs {
		abs := filepath.Join(dir, filepath.FromSlash(f.File))
		keep := false
		for i, a := range args {
			var hit bool
			if filepath.IsAbs(a) {
				hit = filepath.Clean(a) == abs
			} else {
				hit = filepath.ToSlash(filepath.Clean(a)) == f.File
			}
			if hit {
				keep, matched[i] = true, true
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

// problemsOf is a log's problems; nil for no log.
func problemsOf(l *model.TranscriptLog) []historyProblem {
	if l == nil {
		return nil
	}
	return l.Problems
}

// historyText writes the history for people: per project and memory
// directory, one block per file, its writes oldest first.
func historyText(w io.Writer, dirs []historyDir, cx []codexStoreHistory, probs []historyProblem, st report.Styles, home string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	proj, dir, faint, sum := paint.New(st.Project), paint.New(st.Dir), paint.New(st.Rule), paint.New(st.Summary)
	files, writes, gone := 0, 0, 0
	var lastProject *model.Project
	for _, hd := range dirs {
		projectHeading(bw, hd.project, &lastProject, proj, home)
		bw.WriteString("  " + dir.Paint(safe.ShowLine(report.Tilde(hd.dir.Path, home))+logSpan(hd.project.Log)) + "\n")
		for _, f := range hd.files {
			files++
			writes += len(f.Writes)
			name := safe.ShowLine(f.File)
			if !f.Exists {
				gone++
				name += "  (deleted: no longer on disk)"
			}
			if len(f.Writes) == 0 && f.Heat.Uses() == 0 {
				bw.WriteString("    " + name + ": " + quiet(hd.project.Log) + "\n")
				continue
			}
			bw.WriteString("    " + name + "\n")
			if len(f.Writes) == 0 {
				bw.WriteString("      no write recorded in the transcripts\n")
			}
			for _, x := range f.Writes {
				fmt.Fprintf(bw, "      %-6s  %s\n", x.Op, safe.ShowLine(forensics.WriterLabel(x.MemWrite, hd.project.Log)))
				var more []string
				if x.Cwd != "" {
					more = append(more, "in "+report.Tilde(x.Cwd, home))
				}
				if x.ToolUseID != "" {
					more = append(more, x.ToolUseID)
				}
				if len(x.AlsoIn) > 0 {
					more = append(more, "also in the transcripts of "+strings.Join(x.AlsoIn, ", "))
				}
				if len(more) > 0 {
					bw.WriteString("              " + faint.Paint(safe.ShowLine(strings.Join(more, " · "))) + "\n")
				}
			}
			bw.WriteString("      " + heatLine(f.Heat) + "\n")
		}
	}
	cf, cg, cw := codexHistoryText(bw, cx, proj, dir, faint, home, lastProject == nil)
	files, gone, writes = files+cf, gone+cg, writes+cw
	if files == 0 {
		bw.WriteString(sum.Paint("No memory file has a history.") + "\n")
	} else {
		bw.WriteString(sum.Paint(fmt.Sprintf("%d %s (%d deleted), %d %s recorded.", files, report.Plural(files, "file", "files"), gone, writes, report.Plural(writes, "write", "writes"))) + "\n")
	}
	if len(probs) > 0 {
		fmt.Fprintf(bw, "%d %s reading the transcripts:\n", len(probs), report.Plural(len(probs), "problem", "problems"))
		for _, p := range probs {
			bw.WriteString("  " + report.ProblemLine(p, home) + "\n")
		}
	}
	return bw.Flush()
}

// logSpan says how far back a project's transcripts go, for a directory's
// line: what history cannot see is older than that.
func logSpan(l *model.TranscriptLog) string {
	switch {
	case l == nil:
		return "  (no transcripts read)"
	case l.Files == 0:
		return "  (no session transcripts)"
	case l.Oldest.IsZero():
		return ""
	}
	return "  (transcripts since " + l.Oldest.UTC().Format("2006-01-02") + ")"
}

// quiet is the line of a file nothing recorded touched.
func quiet(l *model.TranscriptLog) string {
	if l == nil {
		return "no transcripts were read for this project"
	}
	return "no write or use recorded in the transcripts"
}

// heatLine says how agents used a file, in the words of the TUI's preview.
func heatLine(h model.Heat) string {
	if h.Uses() == 0 {
		return "never read or recalled in the transcripts"
	}
	return fmt.Sprintf("%s in %d %s, last %s", forensics.HeatCounts(h), h.Sessions, report.Plural(h.Sessions, "session", "sessions"),
		h.Last.UTC().Format("2006-01-02 15:04 UTC"))
}

// historyJSON writes the history as {"version":1,"memories":[...],
// "problems":[...]}, every text from disk or a transcript masked;
// Codex's files after Claude Code's.
func historyJSON(w io.Writer, dirs []historyDir, cx []codexStoreHistory, probs []historyProblem) error {
	type writeJSON struct {
		SessionID string   `json:"session_id"`
		Title     string   `json:"title"`
		Cwd       string   `json:"cwd"`
		Branch    string   `json:"branch"`
		Tool      string   `json:"tool"`
		Op        string   `json:"op"`
		Time      string   `json:"time"`
		ToolUseID string   `json:"tool_use_id"`
		Agent     string   `json:"agent,omitempty"`
		AlsoIn    []string `json:"also_in,omitempty"`
		Command   string   `json:"command,omitempty"`
		// Transcript and Line are where the write is recorded.
		Transcript string `json:"transcript,omitempty"`
		Line       int    `json:"line,omitempty"`
	}
	type memJSON struct {
		Project    string      `json:"project"`
		MemoryDir  string      `json:"memory_dir"`
		File       string      `json:"file"`
		Exists     bool        `json:"exists"`
		Writes     []writeJSON `json:"writes"`
		Reads      int         `json:"reads"`
		ReReads    int         `json:"re_reads"`
		Recalls    int         `json:"recalls"`
		IndexLoads int         `json:"index_loads"`
		Sessions   int         `json:"read_sessions"`
		LastUsed   string      `json:"last_used,omitempty"`
		// CodingAgent is whose memory it is (claude or codex); Codex what
		// a Codex file's rollouts say.
		CodingAgent string         `json:"coding_agent"`
		Codex       *codexFileJSON `json:"codex,omitempty"`
	}
	out := struct {
		Version  int              `json:"version"`
		Memories []memJSON        `json:"memories"`
		Problems []historyProblem `json:"problems"`
	}{Version: 1, Memories: []memJSON{}, Problems: []historyProblem{}}
	m := func(s string) string { return safe.Mask(nil, s) }
	for _, hd := range dirs {
		for _, f := range hd.files {
			mj := memJSON{Project: m(hd.project.Name()), MemoryDir: m(hd.dir.Path), File: m(f.File), Exists: f.Exists, Writes: []writeJSON{},
				Reads: f.Heat.Reads, ReReads: f.Heat.Unchanged, Recalls: f.Heat.Recalls, IndexLoads: f.Heat.IndexLoads, Sessions: f.Heat.Sessions, LastUsed: rfc3339(f.Heat.Last),
				CodingAgent: app.AgentClaude}
			for _, x := range f.Writes {
				wj := writeJSON{SessionID: m(x.Session), Title: m(x.Title), Cwd: m(x.Cwd), Branch: m(x.Branch), Tool: x.Tool, Op: string(x.Op),
					Time: rfc3339(x.Time), ToolUseID: m(x.ToolUseID), Agent: m(x.Agent), Command: m(x.Command), Transcript: m(x.Transcript), Line: x.Line}
				for _, a := range x.AlsoIn {
					wj.AlsoIn = append(wj.AlsoIn, m(a))
				}
				mj.Writes = append(mj.Writes, wj)
			}
			out.Memories = append(out.Memories, mj)
		}
	}
	for _, c := range cx {
		for _, f := range c.files {
			mj := memJSON{Project: m(c.prov.Home), MemoryDir: m(c.prov.Root), File: m(f.Path), Exists: f.Exists, Writes: []writeJSON{},
				Reads: f.Reads, IndexLoads: f.Loads, Sessions: len(f.ReadBy), LastUsed: rfc3339(lastUse(f)), CodingAgent: app.AgentCodex, Codex: codexFileJSONOf(c.prov, f)}
			for _, x := range f.Writes {
				mj.Writes = append(mj.Writes, writeJSON{SessionID: m(x.ThreadID), Cwd: m(x.Cwd), Tool: m(x.Tool), Op: x.Op, Time: rfc3339(x.Time),
					ToolUseID: m(x.CallID), Transcript: m(x.Rollout), Line: x.Line})
			}
			out.Memories = append(out.Memories, mj)
		}
	}
	for _, p := range probs {
		out.Problems = append(out.Problems, historyProblem{Transcript: m(p.Transcript), Message: m(p.Message)})
	}
	return report.WriteJSON(w, out)
}

// rfc3339 is t in UTC as RFC 3339 (with the fraction the transcripts
// give), "" when unknown.
func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

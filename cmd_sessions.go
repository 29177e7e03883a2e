package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
)

// sessionsFlags are sessions' own flags.
type sessionsFlags struct {
	json  bool
	since string
}

func newSessionsCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
	var sf sessionsFlags
	c := &cobra.Command{
		Use:   "sessions",
		Short: "Show every session that read or wrote memory, and which of them raced",
		Long: `Show every session the transcripts record reading or writing each memory
directory, newest first: the session, a subagent of it, Claude Code's
background memory extraction or Dream run from it, or memtui itself. For
each: its title, branch, working directory and when it ran; the files it
read and the writes it made; the text it lost to another session's write,
or dropped of another's (a lost update, as lint's lost-update finding); and
the sessions that worked on the same directory at the same time. A session
that touched two directories is listed under each.

Codex's sessions follow, from their rollouts ($CODEX_HOME/sessions and
archived_sessions), labelled codex: what each read of the store, what its
replies cited (and whose memories), and the notes it wrote.

--since keeps the sessions still running at or after a date (2026-11-21)
or a time (RFC 3339). --project narrows it to projects, as everywhere (a
Codex session by the directory it ran in).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSessions(cmd.Context(), g, sf, stdout, stderr)
		},
	}
	c.Flags().BoolVar(&sf.json, "json", false, "print JSON")
	c.Flags().StringVar(&sf.since, "since", "", "only sessions running at or after DATE (2026-11-21 or RFC 3339)")
	return c
}

// sessionsDir is one memory directory's activities, newest first.
type sessionsDir struct {
	project *model.Project
	dir     *model.MemoryDir
	acts    []forensics.SessionActivity
}

func runSessions(ctx context.Context, g *globals, sf sessionsFlags, stdout, stderr io.Writer) error {
	if g.noTranscripts {
		return errors.New("sessions needs the session transcripts: run it without --no-transcripts")
	}
	var since time.Time
	if sf.since != "" {
		t, err := app.ParseNow(sf.since)
		if err != nil {
			return fmt.Errorf("invalid --since %q: want a date (2026-11-21) or RFC 3339", sf.since)
		}
		since = t
	}
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
	s.ReadTranscripts(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	var dirs []sessionsDir
	for _, p := range s.Scan.Projects {
		for _, d := range p.Dirs {
			if err := s.Load(ctx, d); err != nil {
				fmt.Fprintf(stderr, "memtui: %s: %s\n", safe.ShowLine(d.Path), safe.ShowLine(err.Error()))
				continue
			}
			acts := forensics.Sessions(d, p.Log, forensics.LostUpdates(d, p.Log))
			runs, text := s.Runs(d, p.Log)
			acts = forensics.WithRuns(d, acts, runs, text)
			d.DropContent() // the names are all that is shown
			kept := acts[:0]
			for _, a := range acts {
				if since.IsZero() || !a.End.Before(since) {
					kept = append(kept, a)
				}
			}
			if len(kept) > 0 {
				dirs = append(dirs, sessionsDir{project: p, dir: d, acts: kept})
			}
		}
	}
	provs, err := codexProvenance(ctx, s)
	if err != nil {
		return err
	}
	cx := codexSessions(provs, since, g.project)
	if sf.json {
		return sessionsJSON(stdout, dirs, cx)
	}
	w := colorprofile.NewWriter(stdout, environ(g.getenv))
	st := report.Styles{}
	if w.Profile != colorprofile.NoTTY {
		st = report.DefaultStyles(g.darkBackground(stdout, w.Profile))
	}
	return sessionsText(w, dirs, cx, st, g.getenv("HOME"))
}

// nameByKey names the activities of one directory by their Key.
func nameByKey(acts []forensics.SessionActivity) map[string]string {
	out := make(map[string]string, len(acts))
	for i := range acts {
		out[acts[i].Key()] = acts[i].Name()
	}
	return out
}

// sessionsText writes the sessions for people: per project and memory
// directory, each activity newest first, with what it read, wrote and lost.
func sessionsText(w io.Writer, dirs []sessionsDir, cx []codexStoreSessions, st report.Styles, home string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	proj, dir, faint, sum := paint.New(st.Project), paint.New(st.Dir), paint.New(st.Rule), paint.New(st.Summary)
	// Text from transcripts (titles, branches, lost lines) may hold a
	// secret: ShowLine masks it, then makes it safe.
	show := safe.ShowLine
	total, races := 0, 0
	var lastProject *model.Project
	for _, sd := range dirs {
		projectHeading(bw, sd.project, &lastProject, proj, home)
		bw.WriteString("  " + dir.Paint(safe.ShowLine(report.Tilde(sd.dir.Path, home))) + "\n")
		names := nameByKey(sd.acts)
		for i := range sd.acts {
			a := &sd.acts[i]
			total++
			head := a.Name() + "  " + string(a.Kind)
			if a.Title != "" {
				head += "  \u201c" + a.Title + "\u201d"
			}
			if a.Branch != "" && a.Branch != "HEAD" {
				head += " on " + a.Branch
			}
			if !a.Start.IsZero() {
				head += ", " + a.When()
			}
			bw.WriteString("    " + show(head) + "\n")
			// The working directory when it is not the project's own (a
			// subdirectory, a worktree, the memory folder).
			if a.Cwd != "" && a.Cwd != sd.project.Name() {
				bw.WriteString("      " + faint.Paint("in "+safe.ShowLine(report.Tilde(a.Cwd, home))) + "\n")
			}
			if len(a.Overlaps) > 0 {
				races++
				others := make([]string, len(a.Overlaps))
				for j, k := range a.Overlaps {
					others[j] = names[k]
				}
				bw.WriteString("      overlaps  " + show(strings.Join(others, ", ")) + " (open on this directory at the same time)\n")
			}
			if !a.RunAt.IsZero() {
				// A background run memtui's snapshots caught.
				line := "seen by memtui's snapshots: its changes are between them, no transcript records them"
				if a.LockPID > 0 {
					line += fmt.Sprintf("; the .consolidate-lock held PID %d", a.LockPID)
				}
				bw.WriteString("      run       " + faint.Paint(show(line)) + "\n")
			}
			if len(a.Read) > 0 {
				bw.WriteString("      read      " + show(strings.Join(a.Read, ", ")) + "\n")
			}
			for _, x := range a.Wrote {
				fmt.Fprintf(bw, "      %-8s  %s\n", x.Op, show(x.Path+" ("+x.Tool+", "+x.Time.UTC().Format("2006-01-02 15:04")+" UTC)"))
			}
			for _, l := range a.Lost {
				by := "a change no session recorded"
				if l.Other != "" {
					by = names[l.Other] + "'s write"
				}
				bw.WriteString("      lost      " + show(fmt.Sprintf("%d %s it wrote in %s, dropped by %s%s: %s", len(l.Lines), report.Plural(len(l.Lines), "line", "lines"), l.File, by, maybe(l.Definite), quoteLines(l.Lines))) + "\n")
			}
			for _, l := range a.Dropped {
				bw.WriteString("      dropped   " + show(fmt.Sprintf("%d %s %s wrote in %s%s: %s", len(l.Lines), report.Plural(len(l.Lines), "line", "lines"), names[l.Other], l.File, maybe(l.Definite), quoteLines(l.Lines))) + "\n")
			}
		}
	}
	total += codexSessionsText(bw, cx, proj, dir, faint, home, lastProject == nil)
	if total == 0 {
		bw.WriteString(sum.Paint("No session read or wrote memory in the transcripts.") + "\n")
		return bw.Flush()
	}
	line := fmt.Sprintf("%d %s", total, report.Plural(total, "session", "sessions"))
	if races > 0 {
		line += fmt.Sprintf(", %d of them open on a directory at the same time as another", races)
	}
	bw.WriteString(sum.Paint(line+".") + "\n")
	return bw.Flush()
}

// maybe marks a loss the transcripts leave in doubt.
func maybe(definite bool) string {
	if definite {
		return ""
	}
	return " (possibly)"
}

// quoteLines quotes lost lines on one line, the first few.
func quoteLines(ls []string) string {
	const most = 2
	q := make([]string, 0, most)
	for _, l := range ls[:min(len(ls), most)] {
		q = append(q, "\u201c"+l+"\u201d")
	}
	s := strings.Join(q, " ")
	if len(ls) > most {
		s += fmt.Sprintf(" and %d more", len(ls)-most)
	}
	return s
}

// sessionsJSON writes {"version":1,"sessions":[...]}: one object per
// session and memory directory, newest first within each directory;
// Codex's sessions after Claude Code's.
func sessionsJSON(w io.Writer, dirs []sessionsDir, cx []codexStoreSessions) error {
	type writeJSON struct {
		File string    `json:"file"`
		Op   string    `json:"op"`
		Tool string    `json:"tool"`
		Time time.Time `json:"time"`
		// Known says the text before and after the write is known (from
		// the transcript, or from memtui's snapshots for a background run):
		// what the TUI shows as a diff and a revert puts back.
		Known bool `json:"known"`
	}
	type runJSON struct {
		At      time.Time `json:"at"`
		LockPID int       `json:"lock_pid,omitempty"`
	}
	type lostJSON struct {
		File     string   `json:"file"`
		Lines    []string `json:"lines"`
		Other    string   `json:"other,omitempty"`
		Definite bool     `json:"definite"`
	}
	type sessionJSON struct {
		ID        string      `json:"id"`
		Agent     string      `json:"agent,omitempty"`
		Kind      string      `json:"kind"`
		Key       string      `json:"key"`
		Title     string      `json:"title,omitempty"`
		Project   string      `json:"project"`
		MemoryDir string      `json:"memory_dir"`
		Cwd       string      `json:"cwd,omitempty"`
		Branch    string      `json:"branch,omitempty"`
		Start     time.Time   `json:"start"`
		End       time.Time   `json:"end"`
		Read      []string    `json:"read"`
		Written   []writeJSON `json:"written"`
		Lost      []lostJSON  `json:"lost"`
		Dropped   []lostJSON  `json:"dropped"`
		Overlaps  []string    `json:"overlaps"`
		// Run is set for a background run memtui's snapshots caught.
		Run *runJSON `json:"run,omitempty"`
		// CodingAgent is whose session it is (claude or codex); Store the
		// kind of memory directory (Codex's: codex), Codex what a Codex
		// session's rollout says.
		CodingAgent string            `json:"coding_agent"`
		Store       string            `json:"store"`
		Codex       *codexSessionJSON `json:"codex,omitempty"`
	}
	// Text from transcripts and disk is masked for secrets; WriteJSON
	// escapes what JSON itself would let through (C1 controls, bidi).
	m := func(s string) string { return safe.Mask(nil, s) }
	ms := safe.MaskAll
	lost := func(ls []forensics.LostLink) []lostJSON {
		out := make([]lostJSON, len(ls))
		for i, l := range ls {
			out[i] = lostJSON{File: m(l.File), Lines: ms(l.Lines), Other: m(l.Other), Definite: l.Definite}
		}
		return out
	}
	out := struct {
		Version  int           `json:"version"`
		Sessions []sessionJSON `json:"sessions"`
	}{Version: 1, Sessions: []sessionJSON{}}
	for _, sd := range dirs {
		for i := range sd.acts {
			a := &sd.acts[i]
			sj := sessionJSON{ID: m(a.Session), Agent: m(a.Agent), Kind: string(a.Kind), Key: m(a.Key()), Title: m(a.Title),
				Project: m(sd.project.Name()), MemoryDir: m(sd.dir.Path), Cwd: m(a.Cwd), Branch: m(a.Branch),
				Start: a.Start.UTC(), End: a.End.UTC(), Read: ms(a.Read), Written: []writeJSON{},
				Lost: lost(a.Lost), Dropped: lost(a.Dropped), Overlaps: ms(a.Overlaps), CodingAgent: app.AgentClaude, Store: sd.dir.Kind.String()}
			if sj.Read == nil {
				sj.Read = []string{}
			}
			for _, x := range a.Wrote {
				known := x.HasBefore && (x.HasAfter || x.Op == forensics.OpDeleted) || x.Created && x.HasAfter
				if x.Kind == model.WriteEdit || x.Kind == model.WriteMulti {
					known = x.HasBefore && !x.TextDropped
				}
				sj.Written = append(sj.Written, writeJSON{File: m(x.Path), Op: string(x.Op), Tool: x.Tool, Time: x.Time.UTC(), Known: known && !x.TextDropped})
			}
			if !a.RunAt.IsZero() {
				sj.Run = &runJSON{At: a.RunAt.UTC(), LockPID: a.LockPID}
			}
			out.Sessions = append(out.Sessions, sj)
		}
	}
	for _, c := range cx {
		for _, s := range c.sessions {
			sj := sessionJSON{ID: m(s.ThreadID), Kind: codexKind(s), Key: m(codexKey(s)), Project: m(codexProject(c.prov, s)), MemoryDir: m(c.prov.Root),
				Cwd: m(s.Cwd), Start: s.Start.UTC(), End: s.End.UTC(), Read: ms(codexReadPaths(s)), Written: []writeJSON{}, Lost: []lostJSON{}, Dropped: []lostJSON{},
				Overlaps: []string{}, CodingAgent: app.AgentCodex, Store: app.AgentCodex, Codex: codexJSON(c.prov, s)}
			for _, x := range append(s.NoteWrites[:len(s.NoteWrites):len(s.NoteWrites)], s.Edits...) {
				if !x.Failed {
					sj.Written = append(sj.Written, writeJSON{File: m(x.Path), Op: x.Op, Tool: m(x.Tool), Time: x.Time.UTC(), Known: x.Op == "create" && x.Text != ""})
				}
			}
			out.Sessions = append(out.Sessions, sj)
		}
	}
	return report.WriteJSON(w, out)
}

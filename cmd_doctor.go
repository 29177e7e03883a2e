package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/spf13/cobra"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/codex"
)

func newDoctorCmd(g *globals, stdout, stderr io.Writer) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "doctor [PROJECT]",
		Short: "Say, for each memory store, where Claude Code keeps it, why, and what it does with it",
		Long: `For each memory store: the directory Claude Code uses for the project and
why (the variable or setting that chose it, or how the default's name is
made: the memory base, the key root of the launch folder), the settings and
variables it ignores and why; whether auto memory and autoDream are on, and
what decided it; the mode the project's sessions ran in (MEMORY.md injected,
recall by scan, or the memory-store tools), from the transcripts, and the
Claude Code versions they ran; the autoDream gate (last consolidation,
sessions since, whether it is due); .consolidate-lock and whether a live
process holds it; whether any session loads the store, or it is stranded;
team memory and its mounts. Then each Codex store: whether memories are
enabled and generated, its consolidation, the lease, and the edits pending
since Codex's baseline.

What decides a session is read from memtui's own environment and the
settings files as they stand: a Claude Code launched elsewhere, with other
flags, or under a server switch memtui cannot see may differ, and doctor
says where.

Asked from a folder (and no PROJECT named), doctor first says what a
session launched there would use: the dir, why, whether it exists yet, and
the switches; it answers on a machine with no memory yet too.

PROJECT narrows the report as --project does. --json prints
{"version":1,"stores":[...],"codex":[...],"here":{...}}.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if g.project != "" && g.project != args[0] {
					return errors.New("give the project once: as PROJECT or as --project")
				}
				g.project = args[0]
			}
			return runDoctor(cmd.Context(), g, asJSON, stdout, stderr)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func runDoctor(ctx context.Context, g *globals, asJSON bool, stdout, stderr io.Writer) error {
	// Not start: a machine with no memory yet still gets its answer (where
	// Claude Code would put it), so an empty scan is no error here. Nor
	// Upkeep: doctor only reads.
	s, err := app.OpenState(g.options(stderr))
	if err != nil {
		return err
	}
	g.cleanup = append(g.cleanup, s.Close)
	g.resolveTheme(s)
	if s.Scan, err = s.Discover(ctx); err != nil {
		return err
	}
	s.ReadTranscripts(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	// The folder doctor is asked from, as the shell names it ($PWD, which
	// keeps the links Claude Code resolves itself), for "sessions launched
	// here": not for the demo (hermetic), a named project or --memory-dir.
	cwd := ""
	if !g.demo && g.project == "" && len(g.memoryDirs) == 0 {
		if cwd = g.getenv("PWD"); cwd == "" {
			cwd, _ = os.Getwd()
		}
	}
	now := s.Now
	d, err := s.Doctor(ctx, now, cwd)
	if err != nil {
		return err
	}
	if asJSON {
		return doctorJSON(stdout, d)
	}
	w := colorprofile.NewWriter(stdout, environ(g.getenv))
	st := report.Styles{}
	if w.Profile != colorprofile.NoTTY {
		st = report.DefaultStyles(g.darkBackground(stdout, w.Profile))
	}
	return doctorText(w, d, st, g.getenv("HOME"))
}

// doctorText writes the report for people: a block per store, one fact
// per labelled line, every text from disk or the environment made safe.
func doctorText(w io.Writer, d *app.Doctor, st report.Styles, home string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	head, faint, sum := paint.New(st.Project), paint.New(st.Rule), paint.New(st.Summary)
	warn := paint.New(st.Severity[model.Warning])
	path := func(p string) string { return safe.ShowLine(report.Tilde(p, home)) }
	line := func(label, text string) {
		bw.WriteString("  " + faint.Paint(fmt.Sprintf("%-12s", label)) + " " + text + "\n")
	}
	more := func(text string) { bw.WriteString("               " + text + "\n") }
	// explain says what chose a dir, how its name is made, and what
	// Claude Code ignores on the way.
	explain := func(c *memfs.Choice) {
		line("chosen by", safe.ShowLine(c.By))
		for _, h := range c.How {
			more(faint.Paint(safe.ShowLine(report.Tilde(h, home))))
		}
		for i, ig := range c.Ignored {
			label := ""
			if i == 0 {
				label = "ignored"
			}
			loc := ig.Source
			if ig.Line > 0 {
				loc += fmt.Sprintf(":%d", ig.Line)
			}
			line(label, warn.Paint(path(loc))+": "+safe.ShowLine(ig.Why))
		}
	}

	fmt.Fprintf(bw, "memtui follows Claude Code %s. What a session does is read from this environment and the settings files as they stand;\n", claude.Version)
	bw.WriteString(faint.Paint("memtui cannot see a launch's flags (--safe-mode, --restricted, --bare), another shell's environment, workspace trust (assumed given)\n"+
		"or Claude Code's server switches (auto memory for some models, whether autoDream is offered and its default).") + "\n")
	if len(d.Env) == 0 {
		bw.WriteString("environment: no memory variable is set\n")
	} else {
		parts := make([]string, len(d.Env))
		for i, kv := range d.Env {
			parts[i] = kv[0] + "=" + kv[1]
		}
		bw.WriteString("environment: " + safe.ShowLine(strings.Join(parts, " · ")) + "\n")
	}
	shown := map[string]bool{} // sources a store's "ignored" lines name already
	for _, st := range d.Stores {
		if st.Choice != nil {
			for _, ig := range st.Choice.Ignored {
				shown[ig.Source] = true
			}
		}
	}
	for _, cp := range d.Config {
		if shown[cp.Source] {
			continue
		}
		loc := cp.Source
		if cp.Line > 0 {
			loc += fmt.Sprintf(":%d", cp.Line)
		}
		bw.WriteString(warn.Paint("config: ") + path(loc) + ": " + safe.ShowLine(cp.Detail) + "\n")
	}
	if h := d.Here; h != nil {
		bw.WriteString("\n" + head.Paint("here: "+path(h.Cwd)) + "\n")
		what := "not on disk yet: Claude Code makes it at the first session"
		if h.Exists {
			what = fmt.Sprintf("%d %s", h.Memories, model.Plural(h.Memories, "memory", "memories"))
			if h.Index {
				what += " and a MEMORY.md"
			}
		}
		line("claude uses", path(h.Choice.Dir)+" ("+what+")")
		explain(&h.Choice)
		line("auto memory", switchText(h.Choice.AutoMemory))
		line("autoDream", switchText(h.Choice.AutoDream))
	}
	for _, s := range d.Stores {
		bw.WriteString("\n" + head.Paint(safe.ShowLine(report.Tilde(s.Project.Name(), home))) + "\n")
		what := fmt.Sprintf("%d %s", s.Memories, model.Plural(s.Memories, "memory", "memories"))
		if s.Index {
			what += " and a MEMORY.md"
		}
		if !s.Dir.Exists {
			what = "not on disk"
		}
		line("store", path(s.Dir.Path)+" ("+s.Dir.Kind.String()+"; "+what+")")
		if !s.Claude {
			line("agent", safe.ShowLine(s.Project.Agent)+" keeps it (--memory-root): Claude Code does not load it")
			continue
		}
		if c := s.Choice; c != nil {
			line("claude uses", path(c.Dir))
			explain(c)
		}
		agentMem := s.Dir.Kind == model.DirAgentUser || s.Dir.Kind == model.DirAgentProject || s.Dir.Kind == model.DirAgentLocal
		if !agentMem {
			line("auto memory", switchText(s.AutoMemory))
		}
		loaded := string(s.Loaded) + ": " + safe.ShowLine(report.Tilde(s.LoadedWhy, home))
		if s.Loaded == app.No {
			loaded = warn.Paint(loaded)
		}
		line("loaded", loaded)
		if s.Strand != nil && s.Strand.To != "" {
			more("its memories belong in " + path(s.Strand.To))
		}
		if ss := s.Sessions; ss != nil {
			line("sessions", doctorSessionsText(ss))
			if len(ss.Versions) > 0 {
				line("versions", versionsText(ss.Versions))
			}
		} else if !agentMem && s.Project.TranscriptDir == "" {
			line("sessions", faint.Paint("no transcript folder beside it (not a projects/<slug>/memory dir)"))
		} else if !agentMem {
			line("sessions", faint.Paint("transcripts not read"))
		}
		if s.Gate != nil {
			line("autoDream", switchText(s.AutoDream))
			more(gateText(*s.Gate, d.Now, s.Sessions != nil))
		}
		if s.Lock != nil {
			line("lock", lockText(s.Lock))
		}
		if t := s.Team; t != nil {
			tx := path(t.Dir) + ": "
			if t.Exists {
				tx += fmt.Sprintf("%d %s", t.Memories, model.Plural(t.Memories, "memory", "memories"))
			} else {
				tx += "not on disk"
			}
			if t.Enabled {
				tx += "; mounted by CLAUDE_MEMORY_STORES"
			} else {
				tx += "; Claude Code mounts no team store here (it needs auto memory on and a team entry in CLAUDE_MEMORY_STORES)"
			}
			line("team", tx)
			for _, m := range t.Mounts {
				ex := "on disk"
				if !m.Exists {
					ex = "not on disk"
				}
				more(safe.ShowLine(m.Mount) + " (" + safe.ShowLine(m.Mode) + ") at " + path(m.Path) + ", " + ex)
			}
		}
	}
	for _, c := range d.Codex {
		doctorCodexText(bw, c, d.Now, head, faint, warn, path, line, more)
	}
	n, other := 0, 0
	for _, s := range d.Stores {
		if s.Claude {
			n++
		} else {
			other++
		}
	}
	total := fmt.Sprintf("%d Claude Code %s, %d Codex %s", n, model.Plural(n, "store", "stores"), len(d.Codex), model.Plural(len(d.Codex), "store", "stores"))
	if other > 0 {
		total += fmt.Sprintf(", %d other agents' %s", other, model.Plural(other, "store", "stores"))
	}
	bw.WriteString("\n" + sum.Paint(total+".") + "\n")
	return bw.Flush()
}

func doctorCodexText(bw *bufio.Writer, c app.DoctorCodex, now time.Time, head, faint, warn paint.Painter,
	path func(string) string, line func(string, string), more func(string)) {
	s := c.Store
	bw.WriteString("\n" + head.Paint("codex "+path(s.Home)) + "\n")
	what := fmt.Sprintf("%d %s", c.Memories, model.Plural(c.Memories, "memory", "memories"))
	if !s.Exists {
		what = "not on disk"
	}
	line("store", path(s.Root)+" ("+what+")")
	cfg := "off by default; " + path(s.ConfigPath) + " does not turn it on"
	switch {
	case s.Config.EnabledSet && s.Config.Enabled:
		cfg = "on: [features] memories = true in " + path(s.ConfigPath)
	case s.Config.EnabledSet:
		cfg = "off: [features] memories = false in " + path(s.ConfigPath)
	case !s.ConfigFound:
		cfg = "off by default (no " + path(s.ConfigPath) + ")"
	}
	line("enabled", cfg)
	gen := "yes (generate_memories): new threads feed the store"
	if !s.Config.Generate {
		gen = warn.Paint("no: generate_memories = false, new threads no longer feed the store")
	}
	line("generated", gen)
	use := "yes (use_memories): sessions get the summary"
	if !s.Config.Use {
		use = "no: use_memories = false"
	}
	line("used", use)
	line("consolidation", codexStatusText(c.Status, now))
	lease := "none held"
	if c.Lease != "" {
		lease = warn.Paint(safe.ShowLine(c.Lease))
	}
	line("lease", lease)
	if c.Diff != "" {
		line("pending diff", warn.Paint(safe.ShowLine(c.Diff)))
	} else {
		line("pending diff", "none ("+codex.DiffFile+" is absent)")
	}
	if s.Baseline == nil {
		line("since base", faint.Paint("no baseline (memories/.git) to compare with"))
	} else if len(c.Pending) == 0 {
		line("since base", "no file changed since Codex's last consolidation")
	} else {
		var a, m, dl int
		for _, p := range c.Pending {
			switch p.Status {
			case 'A':
				a++
			case 'D':
				dl++
			default:
				m++
			}
		}
		line("since base", fmt.Sprintf("%d %s changed since Codex's last consolidation (%d added, %d modified, %d deleted): its next run folds them in",
			len(c.Pending), model.Plural(len(c.Pending), "file", "files"), a, m, dl))
		for i, p := range c.Pending {
			if i == 8 {
				more(fmt.Sprintf("… and %d more", len(c.Pending)-i))
				break
			}
			more(string(p.Status) + " " + safe.ShowLine(p.Path))
		}
	}
}

func codexStatusText(c codex.Consolidation, now time.Time) string {
	var parts []string
	switch {
	case c.Job == nil:
		parts = append(parts, "never queued (no global job in the state database)")
	case c.Running && c.LeaseHeld:
		parts = append(parts, "running now")
	case c.Running:
		parts = append(parts, "marked running, but its lease ran out (its worker died; another may take over)")
	case c.Failed && c.Exhausted:
		parts = append(parts, "the last run failed, with no retries left")
	case c.Failed:
		parts = append(parts, "the last run failed; it will be retried")
	case c.Pending && c.NeverRan:
		parts = append(parts, "queued, never ran")
	case c.Pending:
		parts = append(parts, "queued")
	}
	if !c.LastSuccess.IsZero() {
		parts = append(parts, "last succeeded "+agoWords(now.Sub(c.LastSuccess)))
	}
	if c.CooldownLeft > 0 {
		parts = append(parts, "cooling down for "+durWords(c.CooldownLeft))
	}
	if n := len(c.Stage1Exhausted); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s never memorized (extraction failed, no retries left)", n, model.Plural(n, "thread", "threads")))
	}
	if len(parts) == 0 {
		return "done"
	}
	return strings.Join(parts, "; ")
}

func switchText(s claude.Switch) string {
	on := "off"
	if s.On {
		on = "on"
	}
	// The caveats are the same for every store: the header says them once.
	return on + ": " + safe.ShowLine(s.By)
}

func doctorSessionsText(s *app.DoctorSessions) string {
	if s.Total == 0 {
		return "no session in the transcripts"
	}
	t := fmt.Sprintf("%d %s", s.Total, model.Plural(s.Total, "session", "sessions"))
	if s.Mode != "" {
		t += ", mostly " + s.Mode
	}
	t += fmt.Sprintf(": MEMORY.md injected in %d, recall by scan in %d, memory-store tools in %d, no load recorded in %d", s.Index, s.Recall, s.Tools, s.None)
	return t
}

func versionsText(vs []app.DoctorVersion) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		t := fmt.Sprintf("%s ×%d", safe.ShowLine(v.Version), v.Sessions)
		switch {
		case v.LacksChanges:
			t += fmt.Sprintf(" (older: lacks the %d memory changes since %s)", len(claude.Changes), claude.ComparedWith)
		case v.Relation == "older":
			t += " (older than " + claude.Version + ": may lack some of its memory changes)"
		case v.Relation == "newer":
			t += " (newer than " + claude.Version + ": memtui may not know its changes)"
		}
		parts[i] = t
	}
	return strings.Join(parts, ", ")
}

func gateText(g model.DreamGate, now time.Time, transcripts bool) string {
	last := "never consolidated"
	if !g.LastConsolidated.IsZero() {
		last = "consolidated " + agoWords(now.Sub(g.LastConsolidated))
	}
	if !transcripts {
		return last + "; sessions since unknown (transcripts not read)"
	}
	n := len(g.Sessions)
	t := fmt.Sprintf("%s; %d %s since", last, n, model.Plural(n, "session", "sessions"))
	switch {
	case g.WouldFire():
		return t + "; due (both gates open): the next session's end may run it"
	case !g.TimeOpen:
		left := g.LastConsolidated.Add(time.Duration(g.MinHours) * time.Hour).Sub(now)
		return t + fmt.Sprintf("; not due for %s (%d-hour gate)", durWords(left), g.MinHours)
	}
	k := g.MinSessions - n
	return t + fmt.Sprintf("; waiting for %d more %s (%d-session gate)", k, model.Plural(k, "session", "sessions"), g.MinSessions)
}

func lockText(l *app.DoctorLock) string {
	switch {
	case !l.Present:
		return "none: never consolidated here (or the lock was removed)"
	case l.Problem != "":
		return "could not be read: " + safe.ShowLine(l.Problem)
	case !l.HasPID:
		return fmt.Sprintf("no PID in it (rolled back), %s old: free", durWords(l.Age))
	case l.Held:
		return fmt.Sprintf("held by live PID %d (taken %s ago): a consolidation may be running; memtui waits or refuses to write", l.PID, durWords(l.Age))
	case l.Alive:
		return fmt.Sprintf("PID %d is alive, but the lock is %s old (over an hour): free", l.PID, durWords(l.Age))
	}
	return fmt.Sprintf("PID %d is not running; taken %s ago: free", l.PID, durWords(l.Age))
}

// durWords says a duration the way a person would, to the unit that
// matters: "40 min", "5 h", "3 days".
func durWords(d time.Duration) string {
	switch {
	case d < 0:
		d = 0
	}
	switch {
	case d < time.Minute:
		return "under a minute"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d/time.Hour))
	}
	return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
}

func agoWords(d time.Duration) string {
	if d < 0 {
		return "in the future (" + durWords(-d) + " ahead of now)"
	}
	return durWords(d) + " ago"
}

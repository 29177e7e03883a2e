package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/internal/demo"
	"github.com/memtui/memtui/memfs"
)

// TestTmux runs the real binary in a real terminal, tmux, the way a person
// would: it types keys and reads the screen with capture-pane. tmux runs on
// a private socket (-L) with its own config, so the user's tmux server and
// settings are never touched.
func TestTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("tmux not installed; .ci/run installs it")
		}
		t.Fatalf("tmux not installed, and CI must run this test: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "memtui")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	t.Run("120x40", func(t *testing.T) {
		s := startTmux(t, bin, 120, 40)
		checkFrame(t, s.waitScreen("-home-dev-dotfiles", "/home/dev/acme-api", "/home/dev/kefu_platform", "agent-memory",
			"● live · 9 projects"), 120, 40)
		demoDir := s.demoDir()

		// Down to acme-api; its memories fill the middle pane once read.
		s.keys("j")
		s.waitScreen("Memories (92)", "api-errors") // feedback-api-errors, under feedback

		// Its index as the agent loads it: 209 lines against the 200 cap...
		s.keys("i")
		s.waitScreen("209 / 200", "9 over", "✗ cut: 5 of its lines never reach the agent")
		// ...the cut, then the five lines the agent never sees, in order.
		s.keys("G")
		screen := s.waitScreen("✂── the agent stops reading here: the 200-line cap", "Never seen by the agent: 5 lines")
		lines := strings.Split(screen, "\n")
		at := -1
		for i, l := range lines {
			if strings.Contains(l, "Never seen by the agent: 5 lines") {
				at = i
			}
		}
		if at < 0 || at+5 >= len(lines) {
			t.Fatalf("the dropped lines do not follow the heading:\n%s", screen)
		}
		for i, n := range []string{"201", "203", "205", "207", "209"} {
			if l := strings.TrimSpace(lines[at+1+i]); !strings.HasPrefix(l, n+" ✗ ") {
				t.Errorf("dropped line %d reads %q, want file line %s", i+1, l, n)
			}
		}
		if !strings.Contains(lines[at+1], "Standup 2026-11-18") {
			t.Errorf("the first dropped line is %q, want the Standup 2026-11-18 entry", lines[at+1])
		}

		// Back to browsing.
		s.keys("Escape")
		s.waitScreen("Projects (9)", "Memories (92)", "api-errors")

		// An agent saves a memory while memtui is open: it shows up.
		note := "---\nname: user-coffee\ndescription: Drinks flat whites, no sugar\ntype: user\n---\n\nThe user drinks flat whites, no sugar.\n"
		path := filepath.Join(demoDir, "projects", "-home-dev-acme-api", "memory", "user_coffee.md")
		if err := os.WriteFile(path, []byte(note), 0o644); err != nil {
			t.Fatal(err)
		}
		s.waitScreen("Memories (93)", " coffee ") // user-coffee, under user

		// Open the memories pane, filter to the new memory, read it.
		s.keys("Enter", "/", "coffee", "Enter")
		s.waitScreen("Memories (93) /coffee", "The user drinks flat whites, no sugar.")

		s.quit()
	})

	t.Run("after a session", func(t *testing.T) {
		s := startTmux(t, bin, 120, 40)
		s.waitScreen("/home/dev/ml-pipeline", "● live · 9 projects")
		demoDir := s.demoDir()
		// ml-pipeline: its MEMORY.md lost an entry to a racing session.
		s.keys("j", "j", "j", "j")
		s.waitScreen("Memories (23)", "dream 4/5", "lost:", "e7a9c1d3", "last written by session f8b0d2e4")
		// Use counts, and the order by use.
		s.keys("Tab", "o")
		s.waitScreen("Memories (23) · by use", "1×", "0×")
		// The first run shows the race as changes since the review before
		// it: the index both sessions wrote, the memory one created.
		s.keys("C")
		s.waitScreen("Changes (2)", "~ MEMORY.md", "f8b0d2e4", "+ project_eval_metrics.md", "e7a9c1d3",
			"-- [GPU budget](project_gpu_budget.md): monthly GPU hours", "changed since the review of 2026-11-10 18:00")
		// An agent changes a memory: the changes view shows it as a diff.
		path := filepath.Join(demoDir, "projects", "-home-dev-ml-pipeline", "memory", "feedback_uv.md")
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("Run tools with uv run, never a bare pip install.\n")
		f.Close()
		s.waitScreen("Changes (3)", "~ feedback_uv.md")
		s.keys("j")
		s.waitScreen("+Run tools with uv run, never a bare pip install.")
		// The project marked reviewed, they are gone.
		s.keys("M")
		s.waitScreen("Nothing changed since the last review")
		s.quit()
	})

	t.Run("review", func(t *testing.T) {
		s := startTmux(t, bin, 120, 40)
		s.waitScreen("/home/dev/acme-api", "● live · 9 projects")
		// The proposals, filtered to one project, all accepted and written
		// at once: one plan per directory, so none conflicts with another.
		s.keys("p")
		s.waitScreen("30 proposals in 6 projects")
		s.keys("/", "acme", "Enter")
		s.waitScreen("7 of 30 proposals in 6 projects matching “acme”")
		s.keys("A")
		s.waitScreen("7 accepted")
		s.keys("w")
		s.waitScreen("Write 7 proposals")
		s.keys("y")
		s.waitScreen("7 applied · 0 conflict · 0 failed", "any key closes")
		// Nothing accepted is left unwritten: q quits at once (once the
		// summary is closed: an esc and a q sent together read as alt+q).
		s.keys("Escape")
		s.waitScreen("last write: 7 applied", "Diff · unified")
		s.quit()
	})

	t.Run("decisions survive a restart", func(t *testing.T) {
		// A tree of the user's own (a copy of the demo's), not the demo:
		// the demo's state is scratch and goes when it exits.
		home := newTmuxHome(t)
		tree := filepath.Join(home, "tree")
		if err := memfs.CopyTree(demo.FS(), tree); err != nil {
			t.Fatal(err)
		}
		args := []string{"--config-dir", tree, "--now", "2026-11-21"}
		s := startTmuxIn(t, bin, 120, 40, home, args...)
		s.waitScreen("/home/dev/acme-api", "● live · 9 projects")
		s.keys("p")
		s.waitScreen("26 proposals in 5 projects · 0 accepted · 0 rejected")
		s.keys("/", "prune bundle", "Enter")
		s.waitScreen("1 of 26 proposals in 5 projects matching “prune bundle”")
		s.keys("a")
		s.waitScreen("1 accepted · 0 rejected")
		s.keys("Escape")
		s.waitScreen("26 proposals in 5 projects · 1 accepted")
		s.keys("/", "merge payments", "Enter")
		s.waitScreen("1 of 26 proposals in 5 projects matching “merge payments”")
		s.keys("x")
		s.waitScreen("1 accepted · 1 rejected")
		// q asks first: an accepted proposal is not written yet.
		s.keys("q")
		s.waitScreen("Quit with 1 accepted proposal not written?", "the next start shows them accepted")
		s.keys("y")
		s.waitExit()

		// The next start shows both decisions as they were left.
		s = startTmuxIn(t, bin, 120, 40, home, args...)
		s.waitScreen("/home/dev/acme-api", "● live · 9 projects")
		s.keys("p")
		s.waitScreen("26 proposals in 5 projects · 1 accepted · 1 rejected")
		s.keys("/", "prune bundle", "Enter")
		s.waitScreen("✓ prune")
		// Written, the prune is gone from the list, and quitting asks
		// nothing.
		s.keys("w")
		s.waitScreen("Write 1 proposal")
		s.keys("y")
		s.waitScreen("1 applied · 0 conflict · 0 failed", "any key closes")
		s.keys("Escape")
		s.waitScreen("last write: 1 applied")
		s.quit()
		if _, err := os.Stat(filepath.Join(tree, "projects", "-home-dev-webshop", "memory", "project_bundle_pricing.md")); !os.IsNotExist(err) {
			t.Errorf("the accepted prune, written after the restart, left the file: %v", err)
		}
	})

	t.Run("every list filters", func(t *testing.T) {
		s := startTmux(t, bin, 120, 40)
		s.waitScreen("/home/dev/acme-api", "● live · 9 projects")
		// Browse: the memories of a project.
		s.keys("Enter", "/", "deploy", "Enter")
		s.waitScreen("/deploy")
		s.keys("Escape")
		time.Sleep(300 * time.Millisecond)
		// Findings.
		s.keys("f")
		s.waitScreen("findings")
		s.keys("/", "secret", "Enter")
		s.waitScreen("matching “secret”")
		s.keys("Escape")
		time.Sleep(300 * time.Millisecond)
		// Changes: ml-pipeline's race, one file of two.
		s.keys("C")
		s.waitScreen("Changes (2)")
		s.keys("/", "eval", "Enter")
		s.waitScreen("1 of 2 changes matching “eval”", "+ project_eval_metrics.md")
		s.keys("Escape")
		time.Sleep(300 * time.Millisecond)
		// By a session: every file it wrote, though another wrote one of
		// them after it.
		s.keys("/", "e7a9c1d3", "Enter")
		s.waitScreen("2 of 2 changes matching “e7a9c1d3”")
		s.keys("Escape")
		s.waitScreen("2 changes in 1 project since the last review")
		time.Sleep(300 * time.Millisecond)
		// Sessions: the one on feat/eval.
		s.keys("t")
		s.waitScreen("Sessions (15)")
		s.keys("/", "feat/eval", "Enter")
		s.waitScreen("1 of 15 sessions matching “feat/eval”", "e7a9c1d3")
		s.keys("Escape")
		time.Sleep(300 * time.Millisecond)
		// Journal: after a write of two proposals, one of them.
		s.keys("p")
		s.waitScreen("30 proposals in 6 projects")
		s.keys("/", "kefu", "Enter")
		s.waitScreen("matching “kefu”")
		s.keys("A")
		s.waitScreen("accepted")
		s.keys("w")
		s.waitScreen("Write ")
		s.keys("y")
		s.waitScreen("any key closes")
		s.keys("Escape")
		time.Sleep(300 * time.Millisecond)
		s.keys("L")
		s.waitScreen("Journal (")
		s.keys("/", "reindex", "Enter")
		s.waitScreen("matching “reindex”")
		s.quit()
	})

	// memtui's config file: the light theme, one key rebound and one
	// rebinding onto the index editor's H, left out with a note. The TUI
	// answers to the new key, its help shows it, and stderr has the note.
	t.Run("config", func(t *testing.T) {
		home := newTmuxHome(t)
		writeFile(t, filepath.Join(home, "config", "memtui", "config.yaml"), "theme: light\nkeys:\n  views.findings: [F]\n  global.help: [H]\n")
		s := startTmuxIn(t, bin, 120, 40, home, "--demo", "--now", "2026-11-21")
		s.waitScreen("/home/dev/acme-api", "● live · 9 projects", "F all findings • ? help")
		s.keys("F")
		s.waitScreen("of 102 findings · all severities")
		// The light palette: its accent (#1F4FA8) on the title, not the
		// dark one's.
		if top := strings.SplitN(s.tmux("capture-pane", "-p", "-e", "-t", "memtui"), "\n", 2)[0]; !strings.Contains(top, "\x1b[1m\x1b[38;5;25mmemtui") {
			t.Errorf("the title is not drawn in the light palette: %q", top)
		}
		s.quit()
		if errs, _ := os.ReadFile(s.errPath); !strings.Contains(string(errs), `line 4: keys: global.help: "H" is also the key of editor.edit_hook`) {
			t.Errorf("stderr lacks the note on global.help:\n%s", errs)
		}
	})

	// The TUI discovers while it starts; a machine with no Claude Code
	// memory is told what the other commands tell it, once it has quit.
	t.Run("empty machine", func(t *testing.T) {
		s := startTmuxIn(t, bin, 80, 24, newTmuxHome(t))
		deadline := time.Now().Add(10 * time.Second)
		for exec.Command("tmux", "-L", s.sock, "has-session", "-t", "memtui").Run() == nil {
			if time.Now().After(deadline) {
				t.Fatalf("memtui still runs on an empty machine:\n%s", s.tmux("capture-pane", "-p", "-t", "memtui"))
			}
			time.Sleep(100 * time.Millisecond)
		}
		code, _ := os.ReadFile(filepath.Join(s.dir, "exit.txt"))
		errs, _ := os.ReadFile(s.errPath)
		if strings.TrimSpace(string(code)) != "2" || !strings.Contains(string(errs), "memtui --demo") {
			t.Errorf("exit %q, stderr %q: want 2 and the advice to try --demo", code, errs)
		}
	})

	t.Run("80x24", func(t *testing.T) {
		s := startTmux(t, bin, 80, 24)
		screen := s.waitScreen("-home-dev-dotfiles", "/home/dev/acme-api", "/home/dev/kefu_platform", "agent-memory",
			"● live · 9 projects")
		checkFrame(t, screen, 80, 24)
		s.quit()
	})

	// Codex's store, at 80x24 and wide: its row, its list by kind and by
	// project, its summary as a session loads it, and a note written
	// through the journal, with nothing but the note appearing in it.
	t.Run("codex", func(t *testing.T) {
		for _, size := range [][2]int{{80, 24}, {140, 45}} {
			s := startTmux(t, bin, size[0], size[1])
			s.waitScreen("codex · ", "● live · 9 projects")
			memories := filepath.Join(s.demoDir(), ".codex", "memories")
			s.keys("G")
			checkFrame(t, s.waitScreen("Last consolidated", "memory_summary.md"), size[0], size[1])
			s.keys("Tab")
			s.waitScreen("Loaded into every session", "Handbook", "Notes")
			s.keys("o")
			s.waitScreen("acme-api", "  database migrations", "  publishing", "scopes in memory_summa")
			s.keys("o", "i")
			s.waitScreen("bytes", "tokens", "/ 10000", "▲ near the cap")
			// (esc and n apart: together they read as alt+n)
			s.keys("Escape")
			s.waitScreen("Loaded into every session")
			s.keys("n")
			s.waitScreen("note for Codex:")
			s.tmux("send-keys", "-t", "memtui", "-l", "Prefer uv over pip")
			s.keys("Enter")
			s.waitScreen("Add a note?", "create  extensions/ad_hoc/notes/")
			s.keys("y")
			s.waitScreen("Done", "✓ applied")
			notes, _ := filepath.Glob(filepath.Join(memories, "extensions", "ad_hoc", "notes", "*-prefer-uv-over-pip.md"))
			if len(notes) != 1 {
				t.Errorf("%dx%d: the note was not written: %v", size[0], size[1], notes)
			}
			if left, _ := filepath.Glob(filepath.Join(memories, ".memtui*")); len(left) > 0 {
				t.Errorf("memtui left files in Codex's store: %v", left)
			}
			s.keys("Escape") // the result's dialog
			s.waitScreen("Memories (6)", "prefer-uv")
			s.quit()
		}
	})
}

// checkFrame checks a browse screen fits a w×h terminal: no line wider
// than w, and the frame whole: the title bar on top, the help at the
// bottom, and every line between them a row of boxes whose right border
// is in the last column. A line the app drew too wide would wrap and push
// the frame down, or be clipped and lose its border.
func checkFrame(t *testing.T, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d cells wide, more than the terminal's %d: %q", i+1, lw, w, l)
		}
	}
	if len(lines) != h || !strings.HasPrefix(lines[0], "memtui") || !strings.Contains(lines[h-1], "q quit") {
		t.Fatalf("the frame does not fill the %d lines from title bar to help:\n%s", h, screen)
	}
	for i, l := range lines[1 : h-1] {
		r := []rune(l)
		if ansi.StringWidth(l) != w || !strings.ContainsRune("╭│╰", r[0]) || !strings.ContainsRune("╮│╯", r[len(r)-1]) {
			t.Errorf("line %d is not a row of boxes %d cells wide: %q", i+2, w, l)
		}
	}
}

// tmuxSession is the app running in a detached tmux session.
type tmuxSession struct {
	t       *testing.T
	sock    string
	dir     string // the test's files: stderr, exit status
	errPath string
}

// startTmux starts bin --demo in a w×h tmux session on a private server,
// in a home of its own.
func startTmux(t *testing.T, bin string, w, h int) *tmuxSession {
	t.Helper()
	return startTmuxIn(t, bin, w, h, newTmuxHome(t), "--demo", "--now", "2026-11-21")
}

// newTmuxHome makes a private HOME, config dir and TMPDIR (where --demo
// copies its tree) under one directory, so neither the user's memtui
// config and state nor a leftover copy is involved. Sessions started in
// the same home share memtui's state: a restart.
func newTmuxHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{"home", "config", "tmp"} {
		if err := os.Mkdir(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// startTmuxIn starts bin with args in a w×h tmux session on a private
// server, in home (newTmuxHome).
func startTmuxIn(t *testing.T, bin string, w, h int, home string, args ...string) *tmuxSession {
	t.Helper()
	dir := t.TempDir()
	s := &tmuxSession{
		t:       t,
		sock:    fmt.Sprintf("memtui-test-%d-%d", os.Getpid(), time.Now().UnixNano()),
		dir:     dir,
		errPath: filepath.Join(dir, "stderr.txt"),
	}
	// No status line (the pane gets all h rows); the pane closes, and the
	// server with it, when the app exits.
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g status off\nset -g remain-on-exit off\nset -g exit-empty on\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shq(a)
	}
	cmd := fmt.Sprintf("env HOME=%s XDG_CONFIG_HOME=%s XDG_STATE_HOME= XDG_CACHE_HOME= TMPDIR=%s %s %s 2>%s; echo $? >%s",
		shq(filepath.Join(home, "home")), shq(filepath.Join(home, "config")), shq(filepath.Join(home, "tmp")),
		shq(bin), strings.Join(quoted, " "), shq(s.errPath), shq(filepath.Join(dir, "exit.txt")))
	// The server leaves its socket file behind when it exits: remove it
	// too. It is where tmux -L puts it, unless the server says otherwise.
	tmpdir := os.Getenv("TMUX_TMPDIR")
	if tmpdir == "" {
		tmpdir = "/tmp"
	}
	socket := filepath.Join(tmpdir, fmt.Sprintf("tmux-%d", os.Getuid()), s.sock)
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-L", s.sock, "kill-server").Run()
		if filepath.Base(socket) == s.sock {
			_ = os.Remove(socket)
		}
	})
	s.tmux("-f", conf, "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "-s", "memtui", cmd)
	if out, err := exec.Command("tmux", "-L", s.sock, "display-message", "-p", "#{socket_path}").Output(); err == nil {
		socket = strings.TrimSpace(string(out))
	}
	return s
}

func (s *tmuxSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.sock}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends tmux key names (Enter, Escape) or literal text, one argument
// at a time.
func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		s.tmux("send-keys", "-t", "memtui", k)
	}
}

// waitScreen polls the screen until it shows every string in want, and
// returns it.
func (s *tmuxSession) waitScreen(want ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, err := exec.Command("tmux", "-L", s.sock, "capture-pane", "-p", "-t", "memtui").CombinedOutput()
		if err != nil {
			// The pane is gone: the app exited (or crashed) on its own.
			s.t.Fatalf("waiting for %q: capture-pane: %v %s%s", want, err, out, s.appReport())
		}
		screen := string(out)
		missing := ""
		for _, w := range want {
			if !strings.Contains(screen, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("after 10s the screen still does not show %q:\n%s%s", missing, screen, s.appReport())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

var demoCopied = regexp.MustCompile(`memtui: demo tree copied to (.+) \(any writes go there`)

// demoDir is where the app copied the demo tree, from its stderr.
func (s *tmuxSession) demoDir() string {
	s.t.Helper()
	errs, err := os.ReadFile(s.errPath)
	if err != nil {
		s.t.Fatal(err)
	}
	m := demoCopied.FindSubmatch(errs)
	if m == nil {
		s.t.Fatalf("stderr does not say where the demo went:\n%s", errs)
	}
	return string(m[1])
}

// quit presses q and waits until the app has exited with status 0 and
// the session is gone.
func (s *tmuxSession) quit() {
	s.t.Helper()
	s.keys("q")
	s.waitExit()
}

// waitExit waits until the app has exited with status 0 and the session
// is gone.
func (s *tmuxSession) waitExit() {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for exec.Command("tmux", "-L", s.sock, "has-session", "-t", "memtui").Run() == nil {
		if time.Now().After(deadline) {
			s.t.Fatalf("the session is still there 10s after q:\n%s", s.tmux("capture-pane", "-p", "-t", "memtui"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code, err := os.ReadFile(filepath.Join(s.dir, "exit.txt")); err != nil || strings.TrimSpace(string(code)) != "0" {
		s.t.Fatalf("memtui did not exit with status 0%s", s.appReport())
	}
}

// appReport is the app's exit status, if it has exited, and its stderr.
func (s *tmuxSession) appReport() string {
	code, err := os.ReadFile(filepath.Join(s.dir, "exit.txt"))
	status := "still running"
	if err == nil {
		status = "exit status " + strings.TrimSpace(string(code))
	}
	errs, _ := os.ReadFile(s.errPath)
	return fmt.Sprintf("\nmemtui: %s; stderr:\n%s", status, errs)
}

// shq quotes s for sh.
func shq(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

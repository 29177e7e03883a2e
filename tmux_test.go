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
			"● live · 8 projects"), 120, 40)
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
		s.waitScreen("Projects (8)", "Memories (92)", "api-errors")

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
		s.waitScreen("/home/dev/ml-pipeline", "● live · 8 projects")
		demoDir := s.demoDir()
		// ml-pipeline: its MEMORY.md lost an entry to a racing session.
		s.keys("j", "j", "j", "j")
		s.waitScreen("Memories (23)", "dream 4/5", "lost:", "e7a9c1d3", "last written by session f8b0d2e4")
		// Use counts, and the order by use.
		s.keys("Tab", "o")
		s.waitScreen("Memories (23) · by use", "1×", "0×")
		// An agent changes a memory: the changes view shows it as a diff.
		path := filepath.Join(demoDir, "projects", "-home-dev-ml-pipeline", "memory", "feedback_uv.md")
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("Run tools with uv run, never a bare pip install.\n")
		f.Close()
		s.keys("C")
		s.waitScreen("Changes (1)", "~ feedback_uv.md", "+Run tools with uv run, never a bare pip install.")
		// Marked seen, it is gone.
		s.keys("m")
		s.waitScreen("Nothing changed since the last review")
		s.quit()
	})

	t.Run("review", func(t *testing.T) {
		s := startTmux(t, bin, 120, 40)
		s.waitScreen("/home/dev/acme-api", "● live · 8 projects")
		// The proposals, filtered to one project, all accepted and written
		// at once: one plan per directory, so none conflicts with another.
		s.keys("p")
		s.waitScreen("24 proposals in 5 projects")
		s.keys("/", "acme", "Enter")
		s.waitScreen("7 of 24 proposals in 5 projects matching “acme”")
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

	t.Run("80x24", func(t *testing.T) {
		s := startTmux(t, bin, 80, 24)
		screen := s.waitScreen("-home-dev-dotfiles", "/home/dev/acme-api", "/home/dev/kefu_platform", "agent-memory",
			"● live · 8 projects")
		checkFrame(t, screen, 80, 24)
		s.quit()
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

// startTmux starts bin --demo in a w×h tmux session on a private server.
func startTmux(t *testing.T, bin string, w, h int) *tmuxSession {
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
	for _, d := range []string{"home", "config", "tmp"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A private HOME, config dir and TMPDIR (where --demo copies its tree),
	// so neither the user's memtui config nor a leftover copy is involved.
	cmd := fmt.Sprintf("env HOME=%s XDG_CONFIG_HOME=%s TMPDIR=%s %s --demo --now 2026-11-21 2>%s; echo $? >%s",
		shq(filepath.Join(dir, "home")), shq(filepath.Join(dir, "config")), shq(filepath.Join(dir, "tmp")),
		shq(bin), shq(s.errPath), shq(filepath.Join(dir, "exit.txt")))
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

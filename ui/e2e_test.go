package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// End-to-end tests: the root model runs in a real tea.Program (teatest)
// and the tests read what the renderer writes. That output is a stream of
// repaints, not a screen: a frame only redraws the cells that changed, and
// each waitFor consumes what it reads. So every wait looks, with the escape
// codes stripped, for a short string that the key just sent paints fresh.

// startE2E runs the TUI on cfg in a 120×40 terminal.
func startE2E(t *testing.T, cfg Config) *teatest.TestModel {
	t.Helper()
	m := New(cfg)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	t.Cleanup(func() {
		// A test that failed half-way leaves the program running: stop it,
		// give it a moment to return, then stop the model's background work.
		_ = tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second), teatest.WithTimeoutFn(func(testing.TB) {}))
		m.Close()
	})
	return tm
}

// waitFor waits until the output read from now on shows every string in
// want (after stripping escape codes). It returns as soon as they show; the
// bound is generous because the race run shares two cores with other
// packages, and a slow frame is not a failure.
func waitFor(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		s := ansi.Strip(string(b))
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func press(tm *teatest.TestModel, keys ...tea.KeyPressMsg) {
	for _, k := range keys {
		tm.Send(k)
	}
}

var (
	keyJ     = tea.KeyPressMsg{Code: 'j', Text: "j"}
	keyI     = tea.KeyPressMsg{Code: 'i', Text: "i"}
	keyQ     = tea.KeyPressMsg{Code: 'q', Text: "q"}
	keyEnter = tea.KeyPressMsg{Code: tea.KeyEnter}
	keyEsc   = tea.KeyPressMsg{Code: tea.KeyEscape}
)

// selectAcme waits for the first screen (the project list and anything
// in also), moves to ~/acme-api and waits until its memories fill the
// middle pane, which means it has been read.
func selectAcme(t *testing.T, tm *teatest.TestModel, also ...string) {
	t.Helper()
	waitFor(t, tm, append([]string{"-home-dev-dotfiles", "~/acme-api", "~/kefu_platform", "agent-memory"}, also...)...)
	press(tm, keyJ)
	// Only acme-api has this memory (feedback-api-errors, under the
	// feedback heading), and its rows are new on screen.
	waitFor(t, tm, "api-errors")
}

func TestE2EIndexCutAndFilter(t *testing.T) {
	cfg, _ := demoConfig(t)
	tm := startE2E(t, cfg)
	selectAcme(t, tm)

	// The index as the agent loads it: the meters at the top, and (a cut
	// index opens at its cut) the cut and the lines the agent never sees.
	press(tm, keyI)
	waitFor(t, tm, "209 / 200", "9 over", "✗ cut: 5 of its lines never reach the agent",
		"✂── the agent stops reading here: the 200-line cap",
		"Never seen by the agent: 5 lines", "201 ✗", "Standup 2026-11-18", "209 ✗")

	// Back to browsing, then filter the projects.
	press(tm, keyEsc)
	waitFor(t, tm, "api-errors")
	tm.Type("/kefu")
	press(tm, keyEnter)
	// kefu_platform's memories replace acme-api's.
	waitFor(t, tm, "wecom-bot", "im-channel")

	press(tm, keyQ)
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))

	// The last frame: the filter kept, kefu_platform the only project.
	screen := ansi.Strip(tm.FinalModel(t).(*Model).View().Content)
	if !strings.Contains(screen, "Projects (9) /kefu") || !strings.Contains(screen, "~/kefu_platform") {
		t.Errorf("the filtered list is not on screen:\n%s", screen)
	}
	for _, other := range []string{"dotfiles", "~/acme-api", "~/blog", "~/ml-pipeline", "~/scratch", "~/webshop", "agent-memory"} {
		if strings.Contains(screen, other) {
			t.Errorf("%s still shows with the filter /kefu:\n%s", other, screen)
		}
	}
}

func TestE2ELiveNewMemory(t *testing.T) {
	cfg, dir := demoConfig(t)
	cfg.Watch = true
	tm := startE2E(t, cfg)
	// The title says so once the watcher runs and everything is read.
	selectAcme(t, tm, "● live")

	// An agent saves a memory while memtui is open.
	note := "---\nname: user-coffee\ndescription: Drinks flat whites, no sugar\ntype: user\n---\n\nThe user drinks flat whites.\n"
	path := filepath.Join(dir, "projects", "-home-dev-acme-api", "memory", "user_coffee.md")
	if err := os.WriteFile(path, []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	// Its row (user-coffee reads "coffee" under the user heading) takes
	// the place of editor's: wait for the name, found nowhere else in the
	// demo, then read the whole last frame.
	waitFor(t, tm, "coffee")

	press(tm, keyQ)
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	screen := ansi.Strip(tm.FinalModel(t).(*Model).View().Content)
	if !strings.Contains(screen, "Memories (93)") || !strings.Contains(screen, " coffee ") {
		t.Errorf("the new memory is not among acme-api's:\n%s", screen)
	}
}

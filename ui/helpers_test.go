package ui

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/memfs/transcript"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/demo"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// testNow pins "today" for the demo tree, as the CLI tests do.
var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// demoConfig copies the embedded demo tree to a temp dir and returns a
// hermetic configuration for it.
func demoConfig(t testing.TB) (Config, string) {
	t.Helper()
	dir := t.TempDir()
	if err := memfs.CopyTree(demo.FS(), dir); err != nil {
		t.Fatal(err)
	}
	if err := demo.CodexBaseline(dir); err != nil {
		t.Fatal(err)
	}
	if err := demo.CodexDatabases(dir); err != nil {
		t.Fatal(err)
	}
	// As --demo sets it up: its repositories' git metadata (the stranded
	// worktree store), its scratch state, the snapshot taken before the
	// Dream run.
	repos := filepath.Join(dir, demo.ReposDir)
	if err := memfs.CopyTree(demo.Repos(), repos); err != nil {
		t.Fatal(err)
	}
	ws := &app.Workspace{
		ScanOpts: memfs.Options{ConfigDirs: []string{dir}, Getenv: demo.Getenv(func(string) string { return "" }), Home: dir,
			ManagedSettings: filepath.Join(dir, "none.json"), IncludeAgentMemory: true, Chroot: repos},
		CheckOpts: consolidate.Options{Now: testNow, Paths: &memfs.PathProbe{}},
		State:     memfs.ScratchStateDirs(dir),
		// Its Codex store, as --demo finds it under its HOME.
		CodexHomes: []string{filepath.Join(dir, ".codex")},
	}
	if err := ws.RecordDemoSnapshots(dir); err != nil {
		t.Fatal(err)
	}
	return Config{
		Workspace: &app.Workspace{
			ScanOpts:   ws.ScanOpts,
			CheckOpts:  ws.CheckOpts,
			State:      ws.State,
			CodexHomes: ws.CodexHomes,
			// The demo's transcripts, read for real (no cache: each test
			// has its own copy).
			Transcripts: func(ctx context.Context, p *model.Project) (*model.TranscriptLog, error) {
				return transcript.Read(ctx, p, transcript.Options{Home: dir})
			},
		},
		NoColor: false,
		Home:    "/home/dev",
		Clock:   func() time.Time { return testNow },
	}, dir
}

// driver runs a Model without a terminal: it feeds messages to Update and
// runs the returned commands synchronously, as Bubble Tea would.
type driver struct {
	t testing.TB
	m *Model
}

func newDriver(t testing.TB, cfg Config, w, h int) *driver {
	t.Helper()
	d := &driver{t: t, m: New(cfg)}
	t.Cleanup(d.m.Close)
	d.run(d.m.Init())
	d.send(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

// send delivers msg and runs everything it causes.
func (d *driver) send(msg tea.Msg) {
	d.t.Helper()
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

// run executes cmd and every command that follows from it. Commands that
// wait on the terminal (the background-colour query) are skipped.
func (d *driver) run(cmd tea.Cmd) {
	d.t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100000 {
			d.t.Fatal("commands never settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			if strings.HasPrefix(reflect.TypeOf(msg).String(), "tea.") && !isTeaMsgWeHandle(msg) {
				continue
			}
			_, next := d.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func isTeaMsgWeHandle(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.WindowSizeMsg, tea.BackgroundColorMsg, tea.KeyPressMsg, tea.MouseClickMsg, tea.MouseWheelMsg, tea.QuitMsg:
		return true
	}
	return false
}

// keys types each key: single characters as text, names ("enter", "esc",
// "tab", "down", "up") as special keys.
func (d *driver) keys(ks ...string) {
	d.t.Helper()
	for _, k := range ks {
		d.send(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(k)[0]
	if r >= 'A' && r <= 'Z' {
		return tea.KeyPressMsg{Code: r + 32, ShiftedCode: r, Text: k, Mod: tea.ModShift}
	}
	return tea.KeyPressMsg{Code: r, Text: k}
}

// screen is the current frame without escape codes.
func (d *driver) screen() string {
	return ansi.Strip(d.m.View().Content)
}

// typeText types a string into the filter box.
func (d *driver) typeText(s string) {
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

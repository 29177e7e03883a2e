package ui

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/memfs"
)

// Keys rebound in the config file (keymap.With, as app applies them)
// drive the TUI: the new key does what the binding does, the old one no
// longer does, and the help shows the new key beside the binding's words.
func TestConfiguredKeysDriveTheTUI(t *testing.T) {
	cfg, _ := demoConfig(t)
	keys, probs := keymap.Default().With([]keymap.Override{
		{Name: "views.findings", Keys: []string{"F"}},
		{Name: "quit", Keys: []string{"ctrl+q"}},
	})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	cfg.Keys = &keys
	d := newDriver(t, cfg, 140, 50)
	d.keys("f")
	if d.m.view == viewFindings {
		t.Error("f still opens the findings view after findings moved to F")
	}
	d.keys("F")
	if d.m.view != viewFindings {
		t.Fatalf("F (views.findings rebound) did not open the findings view:\n%s", d.screen())
	}
	d.keys("?")
	help := d.screen()
	if !regexp.MustCompile(`F +all findings`).MatchString(help) || !regexp.MustCompile(`ctrl\+q +quit`).MatchString(help) {
		t.Errorf("the help does not show the rebound keys (F all findings, ctrl+q quit):\n%s", help)
	}
	if regexp.MustCompile(`(^|\s)(f +all findings|q +quit)`).MatchString(help) {
		t.Errorf("the help still shows a key taken away:\n%s", help)
	}
	if pressQuits(d, keyMsg("q")) {
		t.Error("q still quits after quit moved to ctrl+q")
	}
	if !pressQuits(d, tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl}) {
		t.Error("ctrl+q (quit rebound) does not quit")
	}
}

// pressQuits reports whether k makes the model quit.
func pressQuits(d *driver, k tea.KeyPressMsg) bool {
	_, cmd := d.m.Update(k)
	return quits(cmd)
}

// Under --readonly a rebound key that writes is off like its default, and
// pressing it says so by its new name.
func TestConfiguredKeysReadOnly(t *testing.T) {
	cfg, _ := demoConfig(t)
	keys, probs := keymap.Default().With([]keymap.Override{{Name: "proposals.accept", Keys: []string{"Y"}}})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	cfg.Keys = &keys
	cfg.Workspace.ReadOnly = true
	d := newDriver(t, cfg, 140, 50)
	d.keys("p")
	if d.m.view != viewProposals {
		t.Fatalf("p did not open the proposals view:\n%s", d.screen())
	}
	d.keys("Y")
	if want := "--readonly: Y (accept proposal) is off"; !strings.Contains(d.screen(), want) {
		t.Errorf("a rebound writing key under --readonly: want %q in\n%s", want, d.screen())
	}
}

type darkBg struct{}

func (darkBg) RGBA() (r, g, b, a uint32) { return 0, 0, 0, 0xffff }

// A theme the user chose is drawn from the first frame; the terminal is
// not asked, and its answer, should one come, changes nothing. With no
// choice (the control), the terminal is asked and heeded.
func TestChosenThemeIsKept(t *testing.T) {
	for _, c := range []struct {
		theme       memfs.Theme
		dark, fixed bool
	}{{memfs.ThemeLight, false, true}, {memfs.ThemeDark, true, true}, {"", true, false}, {memfs.ThemeAuto, true, false}} {
		cfg, _ := demoConfig(t)
		cfg.Theme = c.theme
		m := New(cfg)
		if asks := asksBackground(m.Init()); asks == c.fixed {
			t.Errorf("theme %q: asks the terminal's background = %v", c.theme, asks)
		}
		m.Close()
		d := newDriver(t, cfg, 120, 40)
		if d.m.dark != c.dark || (d.m.c.st.Theme.Name == "dark") != c.dark {
			t.Errorf("theme %q: first frame dark = %v (styles %s)", c.theme, d.m.dark, d.m.c.st.Theme.Name)
		}
		// The answer opposite to what is drawn.
		if c.dark {
			d.send(tea.BackgroundColorMsg{Color: lightBg{}})
		} else {
			d.send(tea.BackgroundColorMsg{Color: darkBg{}})
		}
		if changed := d.m.dark != c.dark; changed == c.fixed {
			t.Errorf("theme %q: the terminal's answer changed the palette = %v", c.theme, changed)
		}
	}
}

// asksBackground reports whether cmd (Init's) asks the terminal for its
// background colour.
func asksBackground(cmd tea.Cmd) bool {
	ask := reflect.ValueOf(tea.RequestBackgroundColor).Pointer()
	if cmd == nil {
		return false
	}
	if reflect.ValueOf(cmd).Pointer() == ask {
		return true
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			if c != nil && reflect.ValueOf(c).Pointer() == ask {
				return true
			}
		}
	}
	return false
}

// Text that names a key names it as rebound: the proposals view's hint,
// a question's hint and the footer under it.
func TestTextNamesReboundKeys(t *testing.T) {
	cfg, _ := reviewConfig(t)
	keys, probs := keymap.Default().With([]keymap.Override{
		{Name: "proposals.write", Keys: []string{"ctrl+w"}},
		{Name: "proposals.accept", Keys: []string{"+"}},
		{Name: "dialog.confirm", Keys: []string{"Y"}},
	})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	cfg.Keys = &keys
	d := newDriver(t, cfg, 160, 48)
	d.openProposals()
	if s := d.screen(); !strings.Contains(s, "space/+/x decide · ctrl+w write") {
		t.Errorf("the proposals hint must name the rebound keys:\n%s", s)
	}
	d.selectProposal(sunsetTitle)
	d.keys("+")
	d.send(tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl})
	s := d.screen()
	if d.m.dialog == nil || !strings.Contains(s, "Y write · m write and mark") || !strings.Contains(s, "the answer is No unless you press Y") {
		t.Errorf("the write question must name Y, the rebound yes:\n%s", s)
	}
	if strings.Contains(s, "y write ·") {
		t.Errorf("the question still names y:\n%s", s)
	}
}

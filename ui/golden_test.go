package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
)

// Golden frames of the stable views, at the smallest supported terminal
// and a wide one, dark and light. The frames keep their escape codes, so a
// colour that changes shows in the diff. Run with -update to rewrite.
func TestGoldenViews(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		for _, dark := range []bool{true, false} {
			theme := "dark"
			if !dark {
				theme = "light"
			}
			for _, view := range []string{"browse", "index", "findings", "proposals", "proposals_split"} {
				name := fmt.Sprintf("%s_%dx%d_%s", view, size[0], size[1], theme)
				t.Run(name, func(t *testing.T) {
					cfg, dir := demoConfig(t)
					cfg.Home = dir // paths show as ~/projects/..., the same on every machine
					// The demo's one configuration finding quotes the temp
					// dir in its message; frames must not depend on it.
					if err := os.Remove(filepath.Join(dir, "settings.json")); err != nil {
						t.Fatal(err)
					}
					d := newDriver(t, cfg, size[0], size[1])
					if !dark {
						d.send(tea.BackgroundColorMsg{Color: lightBg{}})
					}
					d.selectProject("acme-api")
					switch view {
					case "browse":
						d.keys("enter")
						d.selectMemory("project_load_test")
					case "index":
						d.keys("i")
					case "findings":
						d.keys("f", "j", "j")
					case "proposals":
						// The diff focused, at its hunk: the word
						// highlights show.
						d.openProposals()
						d.selectProposal(sunsetTitle)
						d.keys("tab", "n")
					case "proposals_split":
						d.openProposals()
						d.selectProposal(loadTestTitle)
						d.keys("d")
					}
					out := d.m.View().Content
					if strings.Contains(out, dir) {
						t.Fatalf("the frame shows the temp dir %s", dir)
					}
					golden.RequireEqual(t, []byte(out))
				})
			}
		}
	}
}

// The index editor at the smallest supported terminal, dark: acme-api's
// MEMORY.md opened at its cut.
func TestGoldenIndexEditor(t *testing.T) {
	cfg, dir := demoConfig(t)
	cfg.Home = dir
	if err := os.Remove(filepath.Join(dir, "settings.json")); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, cfg, 80, 24)
	d.selectProject("acme-api")
	d.keys("i", "E")
	out := d.m.View().Content
	if strings.Contains(out, dir) {
		t.Fatalf("the frame shows the temp dir %s", dir)
	}
	golden.RequireEqual(t, []byte(out))
}

// Under NO_COLOR the frame has no colour codes at all, and the selection is
// still visible (reverse video).
func TestNoColorFrame(t *testing.T) {
	cfg, _ := demoConfig(t)
	cfg.NoColor = true
	d := newDriver(t, cfg, 120, 40)
	d.selectProject("acme-api")
	d.keys("enter")
	d.selectMemory("project_load_test")
	out := d.m.View().Content
	for _, code := range []string{"38;2;", "48;2;", "38;5;", "48;5;"} {
		if strings.Contains(out, code) {
			t.Fatalf("NO_COLOR frame has colour code %q", code)
		}
	}
	if !strings.Contains(out, "\x1b[7m") {
		t.Error("the selected row must be drawn in reverse video without colour")
	}
}

// Frames the views above do not show: under NO_COLOR, where attributes
// replace colours (the preview's date and secret highlights, the diff's
// marks and word highlights), and a replaced word in every theme (the
// removed word's highlight appears in no other frame).
func TestGoldenHighlights(t *testing.T) {
	cases := []struct{ view, theme string }{
		{"browse", "nocolor"}, {"proposals_split", "nocolor"},
		{"proposals", "nocolor"}, {"proposals", "dark"}, {"proposals", "light"},
	}
	for _, c := range cases {
		t.Run(c.view+"_"+c.theme, func(t *testing.T) {
			cfg, dir := demoConfig(t)
			cfg.Home = dir
			cfg.NoColor = c.theme == "nocolor"
			if err := os.Remove(filepath.Join(dir, "settings.json")); err != nil {
				t.Fatal(err)
			}
			d := newDriver(t, cfg, 160, 48)
			if c.theme == "light" {
				d.send(tea.BackgroundColorMsg{Color: lightBg{}})
			}
			d.selectProject("acme-api")
			switch c.view {
			case "browse":
				d.keys("enter")
				d.selectMemory("project_load_test")
			case "proposals":
				// At the hunk where "tomorrow" becomes a date: a
				// removed word and an added one.
				d.openProposals()
				d.selectProposal(loadTestTitle)
				d.keys("tab", "n")
			case "proposals_split":
				d.openProposals()
				d.selectProposal(loadTestTitle)
				d.keys("d", "tab", "n")
			}
			out := d.m.View().Content
			if strings.Contains(out, dir) {
				t.Fatalf("the frame shows the temp dir %s", dir)
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}

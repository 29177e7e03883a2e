package ui

import (
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/themes"
)

// pane is what every part of the screen implements: it takes messages and
// changes itself (no model to hand back), draws into the size it was
// given, and says which keys it answers to.
type pane interface {
	Update(tea.Msg) tea.Cmd
	View() string
	SetSize(w, h int)
	// ShortHelp is the few keys the footer names while the pane has them.
	ShortHelp() []key.Binding
	// scope names the groups of keys live while the pane has them: the
	// help screen lists them (keymap.Live), and a scope of a text input or
	// an overlay sets the root's input mode.
	scope() keymap.Scope
}

// shared is what every pane reads and the root owns: styles (rebuilt when
// the background is known), keys, the clock and where home is.
type shared struct {
	st   themes.Styles
	keys keymap.KeyMap
	// now is "today" for the files' ages and dates (pinned by --now);
	// clock is the wall clock, for what moves while memtui is open: the
	// dream gate, when a memory was last used, reviews.
	now      time.Time
	clock    func() time.Time
	home     string
	readonly bool
	// editor is the command that edits a file ($VISUAL, $EDITOR, a
	// default: see editorCmd).
	editor string
}

// key1 is what the help calls binding b's key, for text that names it: a
// key rebound in the config file is named as rebound.
func key1(b key.Binding) string { return b.Help().Key }

// sevBadge is the one-cell worst-severity mark for a set of findings.
func sevBadge(fs []model.Finding) (string, int) {
	w, ok := worstOf(fs)
	if !ok {
		return " ", -1
	}
	return sevSymbol(w), int(w)
}

// age says how long ago t was, briefly.
func age(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	d := now.Sub(t)
	switch {
	case d < -24*time.Hour:
		return "future"
	case d < time.Hour:
		return "now"
	case d < 24*time.Hour:
		return itoa(int(d.Hours())) + "h"
	case d < 14*24*time.Hour:
		return itoa(int(d.Hours()/24)) + "d"
	case d < 60*24*time.Hour:
		return itoa(int(d.Hours()/24/7)) + "w"
	case d < 365*24*time.Hour:
		return itoa(int(d.Hours()/24/30)) + "mo"
	}
	return itoa(int(d.Hours()/24/365)) + "y"
}

func itoa(n int) string { return strconv.Itoa(n) }

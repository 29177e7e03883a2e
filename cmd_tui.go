package main

import (
	"context"
	"io"
	"time"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/ui"
)

// runTUI starts the terminal UI. Bad flags are reported before it starts;
// it discovers the tree itself, so that the terminal's setup and the
// first frame's wait overlap discovery (about a fifth of the time to the
// first frame on a large tree), and an empty machine is reported as the
// other commands report it, once it has quit. Everything else shows
// inside it.
func runTUI(ctx context.Context, g *globals, stdout, stderr io.Writer) error {
	s, err := app.OpenState(g.options(stderr))
	if err != nil {
		return err
	}
	g.cleanup = append(g.cleanup, s.Close)
	g.resolveTheme(s)
	s.Upkeep()
	editor := g.getenv("VISUAL")
	if editor == "" {
		editor = g.getenv("EDITOR")
	}
	var clock func() time.Time // the wall clock, unless --now pins it
	if s.Pinned {
		clock = func() time.Time { return s.Now }
	}
	return ui.Run(ctx, ui.Config{
		Workspace: s,
		NoColor:   g.getenv("NO_COLOR") != "",
		Theme:     g.theme,
		Keys:      &s.Keys,
		Home:      g.getenv("HOME"),
		Editor:    editor,
		Watch:     true,
		Clock:     clock,

		QuitIfEmpty: true,
	}, stdout, environ(g.getenv))
}

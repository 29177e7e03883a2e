package main

import (
	"context"
	"io"
	"time"

	"github.com/memtui/memtui/ui"
)

// runTUI starts the terminal UI. Bad flags and an empty machine are
// reported before it starts; everything after shows inside it.
func runTUI(ctx context.Context, g *globals, stdout, stderr io.Writer) error {
	s, err := start(ctx, g, stderr)
	if err != nil {
		return err
	}
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
	}, stdout, environ(g.getenv))
}

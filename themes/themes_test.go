package themes

import (
	"testing"

	"charm.land/glamour/v2/styles"
)

func TestForPicksByBackgroundAndNoColor(t *testing.T) {
	if th := For(true, false); !th.Dark || th.Glamour != styles.DarkStyle {
		t.Errorf("dark background: got %+v", th)
	}
	if th := For(false, false); th.Dark || th.Glamour != styles.LightStyle {
		t.Errorf("light background: got %+v", th)
	}
	for _, dark := range []bool{true, false} {
		th := For(dark, true)
		if !th.NoColor || th.Text != nil || th.Error != nil || th.Glamour != styles.AsciiStyle {
			t.Errorf("NO_COLOR must win and carry no colours: %+v", th)
		}
	}
}

// Under NO_COLOR the selection, dates and secrets must still be visible, so
// they are drawn with attributes rather than colours.
func TestNoColorStylesUseAttributes(t *testing.T) {
	s := NewStyles(NoColor())
	if !s.Selected.GetReverse() {
		t.Error("the selected row needs reverse video without colour")
	}
	if !s.Date.GetUnderline() || !s.Secret.GetReverse() {
		t.Error("dates and secrets need attributes without colour")
	}
	if s.Pane.GetBorderStyle() == s.PaneFocus.GetBorderStyle() {
		t.Error("the focused pane must have a different border without colour")
	}
	d := NewDiffStyles(NoColor())
	if !d.AddWord.GetReverse() || !d.DelWord.GetUnderline() {
		t.Error("the words a diff changes need attributes without colour")
	}
	if hasColour(d.Add.GetForeground()) || hasColour(d.Del.GetForeground()) {
		t.Error("a NO_COLOR diff must not colour its lines")
	}
	c := NewStyles(Dark())
	if !hasColour(c.Selected.GetBackground()) {
		t.Error("the dark theme's selection needs a background colour")
	}
}

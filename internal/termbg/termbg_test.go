package termbg

import (
	"image/color"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		reply    string
		done, bg bool
		dark     bool
	}{
		{"", false, false, false},
		{"\x1b]11;rgb:0000/0000/0000\x07", false, true, true},
		{"\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c", true, true, false},
		{"\x1b]11;rgb:1e1e/1e1e/2e2e\x07\x1b[?1;2c", true, true, true},
		{"\x1b]11;rgb:fdfd/f6f6/e3e3\x07\x1b[?6", false, true, false}, // DA1 still arriving
		{"\x1b[?1;2c", true, false, false},                            // no OSC 11 support
	}
	for _, c := range cases {
		bg, done := parse([]byte(c.reply))
		if done != c.done || (bg != nil) != c.bg {
			t.Errorf("parse(%q) = %v, done %v; want colour %v, done %v", c.reply, bg, done, c.bg, c.done)
			continue
		}
		if bg != nil && isDark(bg) != c.dark {
			t.Errorf("parse(%q): dark %v, want %v", c.reply, isDark(bg), c.dark)
		}
	}
	if isDark(color.White) || !isDark(color.Black) {
		t.Error("white must read light and black dark")
	}
}

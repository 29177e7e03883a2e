// Package termbg asks a terminal what colour its background is, so the
// command-line report can pick colours that read on it.
//
// lipgloss has such a query, but it waits two seconds for each of stdin and
// stdout, so a terminal that never answers (script(1), some serial and
// editor terminals) stalled every run by four seconds. This one asks once,
// follows the question with a device-attributes request that every terminal
// answers (so a terminal without OSC 11 support is known at once), and gives
// up after the caller's timeout.
package termbg

import (
	"bytes"
	"image/color"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// query asks for the background colour (OSC 11), then for the primary
// device attributes (DA1), which terminals answer in order.
const query = ansi.RequestBackgroundColor + ansi.RequestPrimaryDeviceAttributes

// parse reads a terminal's reply so far. done is true once the DA1 answer
// has arrived: nothing more is coming. bg is the OSC 11 colour, if any.
func parse(reply []byte) (bg color.Color, done bool) {
	if i := bytes.Index(reply, []byte("\x1b]11;")); i >= 0 {
		rest := reply[i+5:]
		end := bytes.IndexAny(rest, "\x07\x1b")
		if end >= 0 {
			bg = ansi.XParseColor(string(rest[:end]))
		}
	}
	// DA1 answer: CSI ? ... c
	for s := string(reply); ; {
		i := strings.Index(s, "\x1b[?")
		if i < 0 {
			break
		}
		s = s[i+3:]
		j := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == ';') })
		if j >= 0 && s[j] == 'c' {
			return bg, true
		}
	}
	return bg, false
}

// isDark is lightness below one half, as lipgloss judges it.
func isDark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	hi, lo := max(r, g, b), min(r, g, b)
	return (float64(hi)+float64(lo))/2/0xffff < 0.5
}

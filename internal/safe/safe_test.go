package safe

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// unescape reverses Line (block false) or Block (block true): the proof that
// the escaping is unambiguous is that the input comes back.
func unescape(t testing.TB, s string, block bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			i++
			continue
		}
		hex := func(n int) uint64 {
			if i+2+n > len(s) {
				t.Fatalf("truncated escape in %q at %d", s, i)
			}
			v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32)
			if err != nil {
				t.Fatalf("bad escape in %q at %d: %v", s, i, err)
			}
			return v
		}
		switch s[i+1] {
		case '\\':
			b.WriteByte('\\')
			i += 2
		case 'n':
			b.WriteByte('\n')
			i += 2
		case 'r':
			b.WriteByte('\r')
			i += 2
		case 't':
			b.WriteByte('\t')
			i += 2
		case 'x':
			b.WriteByte(byte(hex(2)))
			i += 4
		case 'u':
			b.WriteRune(rune(hex(4)))
			i += 6
		case 'U':
			b.WriteRune(rune(hex(8)))
			i += 10
		default:
			b.WriteByte('\\') // a lone backslash, shown as it is
			i++
		}
	}
	return b.String()
}

// unsafeIn reports the first thing in out a terminal could act on or that
// hides text: a control byte (newline and tab allowed in a block), DEL, a
// C1 control, a bidi or other format character, invalid UTF-8.
func unsafeIn(out string, block bool) string {
	if !utf8.ValidString(out) {
		return "invalid UTF-8"
	}
	for _, r := range out {
		switch {
		case block && (r == '\n' || r == '\t'):
		case r < 0x20 || r == 0x7f:
			return "control " + strconv.QuoteRune(r)
		case r >= 0x80 && r < 0xa0:
			return "C1 control " + strconv.QuoteRune(r)
		case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029:
			return "bidi control or separator " + strconv.QuoteRune(r)
		case unicode.Is(unicode.Cf, r) && !(block && (r == 0x200c || r == 0x200d)):
			return "format character " + strconv.QuoteRune(r)
		}
	}
	return ""
}

func TestLineShowsAttacksVisibly(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain name.md", "plain name.md"},
		{"a\x1b]52;c;ZWNobyBwd25lZA==\ab", `a\x1b]52;c;ZWNobyBwd25lZA==\x07b`},
		{"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"x\x1b[2Jy", `x\x1b[2Jy`},
		{"\x1b]8;;https://evil\x1b\\link\x1b]8;;\x1b\\", `\x1b]8;;https://evil\x1b\link\x1b]8;;\x1b\`},
		{"\u009b31m", `\u009b31m`},
		{"evil\u202egpj.md", `evil\u202egpj.md`},
		{"\u2066iso\u2069", `\u2066iso\u2069`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{"line1\nline2", `line1\nline2`},
		{"cr\rover", `cr\rover`},
		{"tab\there", `tab\there`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"del\x7f", `del\x7f`},
		{"tag\U000E0041", `tag\U000e0041`},
		{`C:\Users\bob`, `C:\\Users\bob`},
		{`a\nb`, `a\\nb`},
		{`end\`, `end\`},
		{"é ü 日本 😀", "é ü 日本 😀"},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBlockKeepsLinesAndTabs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\n\tb\n", "a\n\tb\n"},
		{"crlf\r\nline\r\n", "crlf\nline\n"},
		{"stray\rcr", `stray\rcr`},
		{"end\r", `end\r`},
		{"x\x1b[2J\ny", "x\\x1b[2J\ny"},
		{"emoji 👨\u200d👩\u200d👧", "emoji 👨\u200d👩\u200d👧"},
		{"rtl \u202e", `rtl \u202e`},
		{"\\\n", "\\\n"},
		{"\\\r\n", "\\\n"},
		{"\\\r", `\\\r`},
	} {
		if got := Block(tc.in); got != tc.want {
			t.Errorf("Block(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestShowMasksSecretsBeforeEscaping(t *testing.T) {
	const tok = "ghp_" + "R2d2C3poB8dRk5Yq7LmN0pQ1sT4uV6wX8yZ0"
	for _, got := range []string{
		Show("token: " + tok + "\x1b]52;c;x\a\n"),
		ShowLine("notes-" + tok + "\n.md"),
		Mask(nil, tok),
	} {
		if strings.Contains(got, tok) || strings.Contains(got, tok[4:20]) {
			t.Errorf("a secret shows: %q", got)
		}
		if strings.ContainsAny(got, "\x1b\a") {
			t.Errorf("a control byte shows: %q", got)
		}
	}
}

func TestWriterEscapesEachWrite(t *testing.T) {
	var b strings.Builder
	w := Writer(&b)
	in := []byte("progress\x1b]0;title\x07\n")
	if n, err := w.Write(in); err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if got, want := b.String(), "progress\\x1b]0;title\\x07\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

var sgrSeq = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// FuzzSanitize checks what every output relies on: Line's result holds no
// control byte at all and Block's none but newline and tab; neither holds
// ESC, DEL, a C1 control, a bidi or other format character or invalid
// UTF-8; both are injective (Block up to CRLF, shown as LF), checked by
// decoding the escapes back to the input; and KeepSGR leaves no control
// character outside well-formed SGR sequences.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b]52;c;aGk=\a", "\x1b[2J", "\u009b2J", "a\u202eb", "x\ny\r\nz\r",
		`\x1b`, `\\`, "\\\x1b", "\\\n", "\\\r\n", "\xff\xfe", "\xe2\x80", "\U000E0041", `C:\Users`, "\x1b[1mbold\x1b[0m\x1b]8;;x\a", "\x1b[",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		line, block := Line(in), Block(in)
		if why := unsafeIn(line, false); why != "" {
			t.Fatalf("Line(%q) = %q: %s", in, line, why)
		}
		if why := unsafeIn(block, true); why != "" {
			t.Fatalf("Block(%q) = %q: %s", in, block, why)
		}
		// KeepSGR leaves nothing but SGR sequences that a terminal acts on.
		kept := sgrSeq.ReplaceAllString(KeepSGR(in), "")
		if !utf8.ValidString(kept) || strings.ContainsFunc(kept, func(r rune) bool {
			return r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0)
		}) {
			t.Fatalf("KeepSGR(%q) = %q leaves a control character", in, KeepSGR(in))
		}
		if back := unescape(t, line, false); back != in {
			t.Fatalf("Line(%q) = %q reads back as %q", in, line, back)
		}
		if back, want := unescape(t, block, true), strings.ReplaceAll(in, "\r\n", "\n"); back != want {
			t.Fatalf("Block(%q) = %q reads back as %q, want %q", in, block, back, want)
		}
	})
}

// BenchmarkLine is the per-cell cost: an ASCII name (the fast path) and
// one with escapes to show.
func BenchmarkLine(b *testing.B) {
	b.Run("ascii", func(b *testing.B) {
		s := "project_deploy_notes.md: how the staging deploy works"
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			Line(s)
		}
	})
	b.Run("unicode", func(b *testing.B) {
		s := "réunion_notes.md: \u202etxt.exe \x1b]52;c;aGk=\a"
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			Line(s)
		}
	})
}

// BenchmarkShowLine is a cell's cost with the secret scan in front.
func BenchmarkShowLine(b *testing.B) {
	s := "project_deploy_notes.md: how the staging deploy works"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		ShowLine(s)
	}
}

// BenchmarkBlock is a memory body's cost.
func BenchmarkBlock(b *testing.B) {
	s := strings.Repeat("The deploy runs from CI; see runbook.md for the rollback steps.\n", 200)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Block(s)
	}
}

func TestKeepSGRDropsAllButColour(t *testing.T) {
	in := "\x1b[1;38;2;1;2;3mbold\x1b[0m \x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x07 " +
		"\x1b]52;c;aGk=\x07\x1b[2J\x1b[?1049h\u009b2Jx\x1b7\x00\x7f\n\ttail\x1b]0;unterminated"
	got := KeepSGR(in)
	want := "\x1b[1;38;2;1;2;3mbold\x1b[0m link x\n\ttail"
	if got != want {
		t.Errorf("KeepSGR = %q, want %q", got, want)
	}
	if plain := "no escapes here\n"; KeepSGR(plain) != plain {
		t.Errorf("KeepSGR changed plain text")
	}
}

func TestJSONEscapesWhatEncodingJSONLeaves(t *testing.T) {
	in := "x\u009b2J \u202eevil\U000E0041 é \x1b"
	b, err := json.Marshal(map[string]string{"title": in})
	if err != nil {
		t.Fatal(err)
	}
	got := JSON(b)
	if why := unsafeIn(string(got), false); why != "" {
		t.Errorf("JSON(%s) = %s: %s", b, got, why)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["title"] != in {
		t.Errorf("JSON changed the value: %v %q", err, back["title"])
	}
	if !strings.Contains(string(got), "é") {
		t.Errorf("JSON escaped a plain letter: %s", got)
	}
}

// BenchmarkKeepSGR is the pass over a rendered 2 KB memory: all SGR, so
// nothing is copied.
func BenchmarkKeepSGR(b *testing.B) {
	s := strings.Repeat("\x1b[38;2;200;200;200mThe deploy runs from CI\x1b[0m; see \x1b[1mrunbook.md\x1b[22m.\n", 30)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		KeepSGR(s)
	}
}

// TestMaskAll masks each text whole and gives JSON a list even for none.
func TestMaskAll(t *testing.T) {
	key := "ghp_" + "R2d2C3poB8dRk5Yq7LmN0pQ1sT4uV6wX8yZ0"
	got := MaskAll([]string{"plain", "token " + key})
	if len(got) != 2 || got[0] != "plain" || strings.Contains(got[1], key) || got[1] != Mask(nil, "token "+key) {
		t.Errorf("MaskAll = %q", got)
	}
	if got := MaskAll(nil); got == nil || len(got) != 0 {
		t.Errorf("MaskAll(nil) = %#v, want an empty, non-nil slice", got)
	}
}

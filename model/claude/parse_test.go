package claude

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
	"gopkg.in/yaml.v3"
)

func TestParseDocShapes(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		status   model.FMStatus
		fmName   string
		desc     string
		typ      string
		typeKey  string
		gen      model.Generation
		open     int
		close    int
		bodyLine int
		body     string
	}{
		{
			name:   "legacy top-level type",
			in:     "---\nname: Deploy command\ndescription: how we deploy\ntype: feedback\n---\n\nDeploy with make ship.\n",
			status: model.FMOK, fmName: "Deploy command", desc: "how we deploy", typ: "feedback", typeKey: "type", gen: model.GenLegacy,
			open: 1, close: 5, bodyLine: 7, body: "Deploy with make ship.\n",
		},
		{
			name:   "current shape with trailing space after metadata",
			in:     "---\nname: repro\ndescription: contains a quote “ here\nmetadata: \n  node_type: memory\n  type: feedback\n  originSessionId: 6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\n  modified: 2026-08-15T18:58:28.638Z\n---\n\nBody text.\n",
			status: model.FMOK, fmName: "repro", desc: "contains a quote “ here", typ: "feedback", typeKey: "metadata.type", gen: model.GenCurrent,
			open: 1, close: 9, bodyLine: 11, body: "Body text.\n",
		},
		{
			name:   "unquoted colon in description is recovered",
			in:     "---\nname: staging\ndescription: Staging host: acme-stg, VPN required\ntype: reference\n---\nbody\n",
			status: model.FMTolerant, fmName: "staging", desc: "Staging host: acme-stg, VPN required", typ: "reference", typeKey: "type", gen: model.GenLegacy,
			open: 1, close: 5, bodyLine: 6, body: "body\n",
		},
		{
			name:   "quoted values take the YAML path",
			in:     "---\nname: \"x: y\"\ndescription: 'it''s fine'\ntype: user\n---\n",
			status: model.FMOK, fmName: "x: y", desc: "it's fine", typ: "user", typeKey: "type", gen: model.GenLegacy,
			open: 1, close: 5, bodyLine: 6,
		},
		{
			name:   "CRLF",
			in:     "---\r\nname: crlf\r\ndescription: windows file\r\ntype: project\r\n---\r\n\r\nBody\r\n",
			status: model.FMOK, fmName: "crlf", desc: "windows file", typ: "project", typeKey: "type", gen: model.GenLegacy,
			open: 1, close: 5, bodyLine: 7, body: "Body\r\n",
		},
		{
			name:   "no frontmatter",
			in:     "# Notes\n\nJust text.\n",
			status: model.FMNone, bodyLine: 1, body: "# Notes\n\nJust text.\n",
		},
		{
			name:   "horizontal rule later is not frontmatter",
			in:     "# Notes\n\nSome text.\n\n---\n\nMore text.\n",
			status: model.FMNone, bodyLine: 1,
		},
		{
			name:   "comment before the fence",
			in:     "<!-- generated -->\n---\nname: late\ndescription: after a comment\ntype: user\n---\nbody\n",
			status: model.FMNotAtStart, fmName: "late", desc: "after a comment", typ: "user", typeKey: "type", gen: model.GenLegacy,
			open: 2, close: 6, bodyLine: 7,
		},
		{
			name:   "no closing fence",
			in:     "---\nname: open\ndescription: never closed\n\nbody text\n",
			status: model.FMUnclosed, open: 1, bodyLine: 1,
		},
		{
			name:   "closing fence beyond 30 lines",
			in:     "---\nname: long\n" + strings.Repeat("k: v\n", 30) + "---\nbody\n",
			status: model.FMUnclosed, open: 1, bodyLine: 1,
		},
		{
			name:   "empty frontmatter",
			in:     "---\n---\nbody\n",
			status: model.FMOK, open: 1, close: 2, bodyLine: 3, body: "body\n",
		},
		{
			name:   "garbage that nothing recovers",
			in:     "---\n\t[this is: {not yaml\n\t- ] at all\n---\nbody\n",
			status: model.FMInvalid, open: 1, close: 4, bodyLine: 5,
		},
		{
			name:   "both type keys: metadata.type wins, as Claude Code overlays metadata on the top-level keys",
			in:     "---\nname: both\ndescription: d\ntype: user\nmetadata:\n  type: project\n---\n",
			status: model.FMOK, fmName: "both", desc: "d", typ: "project", typeKey: "metadata.type", gen: model.GenCurrent,
			open: 1, close: 7, bodyLine: 8,
		},
		{
			name:   "empty name value",
			in:     "---\nname:\ndescription: has no name\ntype: user\n---\n",
			status: model.FMOK, desc: "has no name", typ: "user", typeKey: "type", gen: model.GenLegacy,
			open: 1, close: 5, bodyLine: 6,
		},
		{
			name:   "closing --- mid-line closes the block, as the regexp does",
			in:     "---\nname: dash\ndescription: a --- b\n---\nbody\n",
			status: model.FMOK, fmName: "dash", desc: "a", open: 1, close: 3, bodyLine: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDoc([]byte(tt.in))
			if d.Status != tt.status {
				t.Fatalf("status = %v (%s), want %v", d.Status, d.Problem, tt.status)
			}
			if d.FM.Name != tt.fmName || d.FM.Description != tt.desc || d.FM.Type != tt.typ || d.FM.TypeKey != tt.typeKey {
				t.Errorf("fields = %q %q %q %q, want %q %q %q %q", d.FM.Name, d.FM.Description, d.FM.Type, d.FM.TypeKey, tt.fmName, tt.desc, tt.typ, tt.typeKey)
			}
			if d.FM.Generation != tt.gen {
				t.Errorf("generation = %v, want %v", d.FM.Generation, tt.gen)
			}
			if d.Open != tt.open || d.Close != tt.close || d.BodyLine != tt.bodyLine {
				t.Errorf("open/close/body line = %d/%d/%d, want %d/%d/%d", d.Open, d.Close, d.BodyLine, tt.open, tt.close, tt.bodyLine)
			}
			if tt.body != "" && string(d.Body([]byte(tt.in))) != tt.body {
				t.Errorf("body = %q, want %q", d.Body([]byte(tt.in)), tt.body)
			}
			if (d.Status == model.FMTolerant || d.Status == model.FMInvalid || d.Status == model.FMNotAtStart || d.Status == model.FMUnclosed) && d.Problem == "" {
				t.Error("a non-OK status must explain itself")
			}
		})
	}
}

func TestParseDocMetadataFields(t *testing.T) {
	in := "---\nname: m\ndescription: d\nmetadata:\n  node_type: memory\n  type: reference\n  originSessionId: 0e5f6a7b-8c9d-4e0f-8a1b-3c4d5e6f7a8b\n  modified: 2026-08-15T18:58:28.638Z\n---\nx\n"
	d := ParseDoc([]byte(in))
	if d.FM.OriginSessionID != "0e5f6a7b-8c9d-4e0f-8a1b-3c4d5e6f7a8b" {
		t.Errorf("originSessionId = %q", d.FM.OriginSessionID)
	}
	want := time.Date(2026, 8, 15, 18, 58, 28, 638e6, time.UTC)
	if !d.FM.ModifiedTime.Equal(want) {
		t.Errorf("modified = %v, want %v", d.FM.ModifiedTime, want)
	}
	if got := strings.Join(d.FM.Keys, ","); got != "name,description,metadata" {
		t.Errorf("keys = %s", got)
	}
}

func TestParseDocBOM(t *testing.T) {
	in := "\ufeff---\nname: bom\ndescription: d\ntype: user\n---\nbody\n"
	d := ParseDoc([]byte(in))
	if !d.BOM {
		t.Fatal("BOM not noticed")
	}
	if d.Status != model.FMOK || d.FM.Name != "bom" {
		t.Errorf("status %v name %q: the fields behind a BOM must still be read", d.Status, d.FM.Name)
	}
}

func TestParseDocNeverPanics(t *testing.T) {
	for _, in := range []string{"", "-", "---", "---\n", "---\n---", "\xff\xfe---\n", "---\n\x00\x00\n---\n", "---   \n\n\n---", "\ufeff"} {
		ParseDoc([]byte(in))
	}
}

// FuzzParseDoc checks ParseDoc never panics, keeps its offsets in range, and
// that whenever the fast path accepts a block, yaml.v3 reads the same fields.
func FuzzParseDoc(f *testing.F) {
	seeds := []string{
		"---\nname: a\ndescription: b\ntype: user\n---\nbody\n",
		"---\nname: a\ndescription: b: c\n---\n",
		"---\nmetadata: \n  type: project\n  modified: 2026-01-01T00:00:00.000Z\n---\n",
		"<!-- x -->\n---\nname: a\n---\n",
		"---\r\nname: a\r\n---\r\n",
		"---\nname: -x\ndescription: 12\ntype: true\n---\n",
		"---\nname: a #b\n---\n",
		"---\nname: 12\ndescription: true\ntype: 1.5\n---\n",
		"---\nname: .5\ndescription: 0x1F\nmetadata:\n  claudeCodeItem: x\n---\n",
		"---\nname: 3 ways\ndescription: 2001-12-14 21:59:43.10 -5\n---\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		d := ParseDoc(in)
		if d.BodyStart < 0 || d.BodyStart > len(in) {
			t.Fatalf("BodyStart %d out of range", d.BodyStart)
		}
		if d.Close != 0 && d.Close < d.Open {
			t.Fatalf("close %d before open %d", d.Close, d.Open)
		}
		// Fast path agreement: take the block the way ParseDoc did.
		if d.Status != model.FMOK || d.Open != 1 || d.BOM {
			return
		}
		head := headLines(in, 0, model.FrontmatterMaxLines)
		open, _ := matchOpen(head)
		inner := head[open:]
		end := strings.Index(string(inner), "---")
		if end < 0 {
			return
		}
		block := inner[:end]
		fast, ok := fastParse(block)
		if !ok {
			return
		}
		var node yaml.Node
		if err := yaml.Unmarshal(block, &node); err != nil {
			t.Fatalf("fast path accepted %q but YAML rejects it: %v", block, err)
		}
		slow, ok := fromNode(&node)
		if !ok {
			t.Fatalf("fast path accepted %q but YAML does not read a mapping", block)
		}
		if fast.Name != slow.Name || fast.Description != slow.Description || fast.Type != slow.Type || fast.TypeKey != slow.TypeKey || fast.Modified != slow.Modified && !fast.ModifiedTime.Equal(slow.ModifiedTime) ||
			!reflect.DeepEqual(fast.NotText, slow.NotText) || fast.HasName != slow.HasName || fast.HasDesc != slow.HasDesc || fast.Item != slow.Item {
			t.Fatalf("fast and YAML disagree on %q:\nfast %+v\nyaml %+v", block, fast, slow)
		}
	})
}

// parseDocRef is ParseDoc as first written: the 30-line window cut line by
// line before anything is matched. ParseDoc now matches first and counts
// lines after; FuzzParseDocWindow checks the two agree.
func parseDocRef(content []byte) model.Doc {
	d := model.Doc{BodyLine: 1}
	start := 0
	if bytes.HasPrefix(content, bom) {
		d.BOM = true
		start = len(bom)
	}
	head := headLines(content, start, model.FrontmatterMaxLines)
	if open, ok := matchOpen(head); ok {
		d.Open = 1
		parseBlock(&d, content, start, start+open, head)
		return d
	}
	if late, ok := lateFrontmatter(content, start, d.BOM); ok {
		return late
	}
	d.Status = model.FMNone
	return d
}

func FuzzParseDocWindow(f *testing.F) {
	seeds := []string{
		"---\nname: a\ndescription: b\ntype: user\n---\nbody\n",
		"---" + strings.Repeat("\n", 29) + "---\n",
		"---" + strings.Repeat("\n", 30) + "---\n",
		"---" + strings.Repeat("\n", 31) + "---\n",
		"---\n" + strings.Repeat("a: b\n", 28) + "---\n",
		"---\n" + strings.Repeat("a: b\n", 29) + "---\n",
		"---\n" + strings.Repeat("x\n", 29) + "--",
		"\ufeff---\nname: a\n---\n",
		"---  \n \n\t\n" + strings.Repeat(" \n", 30) + "name: a\n---\n",
		"---\nname: a\nname: b\n---\n",
		"---\nmetadata:\n  type: user\n  type: x\n---\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, want := ParseDoc(in), parseDocRef(in)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseDoc(%q):\n got %+v\nwant %+v", in, got, want)
		}
	})
}

// safePlainRef is safePlain as first written, one search per condition.
func safePlainRef(v []byte) bool {
	switch v[0] {
	case '\'', '"', '[', ']', '{', '}', '>', '|', '*', '&', '!', '%', '@', '`', '#', ',', '?', ':', '-':
		if v[0] == '-' && len(v) > 1 && v[1] != ' ' && v[1] != '-' {
			break
		}
		return false
	}
	if v[len(v)-1] == ':' || bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) {
		return false
	}
	for _, c := range v {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	if bytes.Equal(v, []byte("~")) || bytes.EqualFold(v, []byte("null")) {
		return false
	}
	return utf8.Valid(v) && !bytes.ContainsRune(v, 0xFEFF)
}

func FuzzSafePlain(f *testing.F) {
	for _, s := range []string{"a", "a: b", "a:b", "a #b", "a#b", "x:", "~", "NULL", "caf\u00e9", "\ufeffx", "\xff", "a\x7f", "-x", "- x", "a :", " #",
		"abcdefg #x", "abcdefg: x", "abcdefgh: x", "abcdefghijklmno #", "abcdefgh\x01", "abcdefg\xc3\xa9", "abcdefghijklmnop\xef\xbb\xbf"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if len(v) == 0 {
			return
		}
		if got, want := safePlain(v), safePlainRef(v); got != want {
			t.Fatalf("safePlain(%q) = %v, want %v", v, got, want)
		}
	})
}

// FuzzRequotedFastParse checks that whenever the fast path reads a block as
// requote would rewrite it, YAML reads the rewritten block the same way.
func FuzzRequotedFastParse(f *testing.F) {
	for _, s := range []string{
		"name: a\ndescription: Release: links and commands\ntype: project\n",
		"name: a\ndescription: x: y\nmetadata:\n  type: user\n  modified: 2026-01-01T00:00:00Z\n",
		"name: it's: fine\n", "name: a # b: c\n", "name: ~\ndescription: null: x\n", "k: 'q': x\n",
		"metadata:\n  type: a: b\n  type: c\n", "a: b\n  c: d\n", "name:\ndescription: \"x\": y\n",
		"name: a\r\ndescription: b: c\r\n", "name: a:\n", "name: -x: y\n", "name: - x: y\n", "name: @x: y\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, block []byte) {
		fast, ok := fastParseAs(block, true)
		if !ok {
			return
		}
		requoted, _ := requote(block)
		var node yaml.Node
		if err := yaml.Unmarshal(requoted, &node); err != nil {
			t.Fatalf("fast path read %q as requoted, but YAML rejects %q: %v", block, requoted, err)
		}
		slow, ok := fromNode(&node)
		if !ok {
			t.Fatalf("fast path read %q as requoted, but YAML does not read a mapping from %q", block, requoted)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast and YAML disagree on requoted %q:\nfast %+v\nyaml %+v", requoted, fast, slow)
		}
	})
}

// TestParseDocTopLevelOrigin: Claude Code 2.1.118-2.1.138 stamped
// originSessionId as the last top-level key and dropped the blank line
// after the fence (transcripts §9.7); one folder mixes that with the
// nested form, and both name the writing session.
func TestParseDocTopLevelOrigin(t *testing.T) {
	const id = "7c1e4b2a-9d3f-4e6a-8b5c-2f0d1e3a4b5c"
	for _, in := range []string{
		"---\nname: Deploy command\ndescription: Deploy with make ship\ntype: feedback\noriginSessionId: " + id + "\n---\nDeploy with `make ship`.\n",
		"---\nname: Deploy command\ndescription: Deploy with make ship\nmetadata: \n  node_type: memory\n  type: feedback\n  originSessionId: " + id + "\n---\n\nDeploy with `make ship`.\n",
	} {
		d := ParseDoc([]byte(in))
		if d.Status != model.FMOK || d.FM.OriginSessionID != id || d.FM.Type != "feedback" {
			t.Errorf("%q: status %v, originSessionId %q, type %q", in, d.Status, d.FM.OriginSessionID, d.FM.Type)
		}
		if body := string(d.Body([]byte(in))); strings.TrimLeft(body, "\n") != "Deploy with `make ship`.\n" {
			t.Errorf("%q: body %q", in, body)
		}
	}
}

// TestJSSpaceIsECMAScriptWhiteSpace: jsSpace, which frontmatter parsing
// (\s in Claude Code's regexps) and the load pipeline (trim()) share, is
// exactly ECMAScript's WhiteSpace and LineTerminator: TAB, VT, FF, BOM,
// every Zs character, LF, CR, U+2028 and U+2029. Not NEL (U+0085) and not
// the zero-width space, which Go's unicode.IsSpace and a guess would take.
func TestJSSpaceIsECMAScriptWhiteSpace(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		want := unicode.Is(unicode.Zs, r)
		switch r {
		case '\t', '\v', '\f', 0xFEFF, '\n', '\r', 0x2028, 0x2029:
			want = true
		}
		if got := jsSpace(r); got != want {
			t.Errorf("jsSpace(%U) = %v, want %v", r, got, want)
		}
	}
}

package claude

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
)

// TestTypeAsClaudeReadsIt: metadata.type wins over a top-level type, the
// value is not trimmed, and only one of the four strings, exactly, is a
// type (facts doc 2.2, "Parsing on read", step 4).
func TestTypeAsClaudeReadsIt(t *testing.T) {
	tests := []struct {
		name, block     string
		typ, key        string
		valid           bool
		status          model.FMStatus
		claudeSeesNone  bool
		claudeType      string // what Doc.Claude() holds
		claudeTypeValid bool
	}{
		{"top level only", "type: user\n", "user", "type", true, model.FMOK, false, "user", true},
		{"metadata only", "metadata:\n  type: feedback\n", "feedback", "metadata.type", true, model.FMOK, false, "feedback", true},
		{"both, disagreeing: metadata wins", "type: user\nmetadata:\n  type: project\n", "project", "metadata.type", true, model.FMOK, false, "project", true},
		{"both, metadata first: metadata still wins", "metadata:\n  type: reference\ntype: user\n", "reference", "metadata.type", true, model.FMOK, false, "reference", true},
		{"padded string is not trimmed", "type: \" user \"\n", " user ", "type", false, model.FMOK, false, " user ", false},
		{"padded under metadata", "metadata:\n  type: ' feedback'\n", " feedback", "metadata.type", false, model.FMOK, false, " feedback", false},
		{"a list is no type", "type: [user]\n", "[user]", "type", false, model.FMOK, false, "[user]", false},
		{"a block list is no type", "metadata:\n  type:\n    - user\n", "- user", "metadata.type", false, model.FMOK, false, "- user", false},
		{"a number is no type", "type: 1\n", "1", "type", false, model.FMOK, false, "1", false},
		{"wrong case is no type", "type: User\n", "User", "type", false, model.FMOK, false, "User", false},
		{"metadata.pinned is just another key", "metadata:\n  pinned: true\n  type: user\n", "user", "metadata.type", true, model.FMOK, false, "user", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := "---\nname: n\ndescription: d\n" + tt.block + "---\nbody\n"
			d := ParseDoc([]byte(in))
			if d.Status != tt.status || d.ClaudeSeesNone != tt.claudeSeesNone {
				t.Fatalf("status %v (claude sees none %v), want %v (%v): %s", d.Status, d.ClaudeSeesNone, tt.status, tt.claudeSeesNone, d.Problem)
			}
			if d.FM.Type != tt.typ || d.FM.TypeKey != tt.key {
				t.Errorf("type %q from %q, want %q from %q", d.FM.Type, d.FM.TypeKey, tt.typ, tt.key)
			}
			if _, ok := model.ParseType(d.FM.Type); ok != tt.valid {
				t.Errorf("valid %v, want %v", ok, tt.valid)
			}
			c := d.Claude()
			if _, ok := model.ParseType(c.Type); c.Type != tt.claudeType || ok != tt.claudeTypeValid {
				t.Errorf("Claude() type %q (valid %v), want %q (%v)", c.Type, ok, tt.claudeType, tt.claudeTypeValid)
			}
		})
	}
}

// TestNameAndDescriptionAsClaudeReadsThem: only top-level strings count,
// not trimmed; metadata.name and metadata.description are never fallbacks.
func TestNameAndDescriptionAsClaudeReadsThem(t *testing.T) {
	tests := []struct {
		name, block      string
		fmName, desc     string
		hasName, hasDesc bool
		notText          string
	}{
		{"plain", "name: a\ndescription: b\n", "a", "b", true, true, ""},
		{"a blank description counts, untrimmed", "name: a\ndescription: \" \"\n", "a", " ", true, true, ""},
		{"padded name is kept as written", "name: ' a '\ndescription: b\n", " a ", "b", true, true, ""},
		{"metadata.name and metadata.description are not read", "metadata:\n  name: m\n  description: md\n  type: user\n", "", "", false, false, ""},
		{"a number is no name", "name: 12\ndescription: b\n", "", "b", true, true, "name"},
		{"a boolean is no description", "name: a\ndescription: true\n", "a", "", true, true, "description"},
		{"a list is no description", "name: a\ndescription: [x, y]\n", "a", "", true, true, "description"},
		{"null is no value, but not another kind", "name:\ndescription: ~\n", "", "", true, true, ""},
		{"a date is text", "name: a\ndescription: 2026-11-21\n", "a", "2026-11-21", true, true, ""},
		{"a quoted number is text", "name: \"12\"\ndescription: b\n", "12", "b", true, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDoc([]byte("---\n" + tt.block + "---\nbody\n"))
			if d.Status != model.FMOK {
				t.Fatalf("status %v: %s", d.Status, d.Problem)
			}
			fm := d.FM
			if fm.Name != tt.fmName || fm.Description != tt.desc || fm.HasName != tt.hasName || fm.HasDesc != tt.hasDesc {
				t.Errorf("name %q (%v) description %q (%v), want %q (%v) %q (%v)", fm.Name, fm.HasName, fm.Description, fm.HasDesc, tt.fmName, tt.hasName, tt.desc, tt.hasDesc)
			}
			if got := strings.Join(fm.NotText, ","); got != tt.notText {
				t.Errorf("not text %q, want %q", got, tt.notText)
			}
		})
	}
}

// TestBOMWithFrontmatter: Claude Code strips one BOM before it matches, so
// a BOM'd file's frontmatter is read as usual; two BOMs defeat the match.
func TestBOMWithFrontmatter(t *testing.T) {
	d := ParseDoc([]byte("\ufeff---\nname: bom\ndescription: d\nmetadata:\n  type: user\n---\nbody\n"))
	if !d.BOM || d.Status != model.FMOK || d.Claude().Name != "bom" || d.Claude().Type != "user" {
		t.Errorf("one BOM: BOM %v status %v Claude() %+v", d.BOM, d.Status, d.Claude())
	}
	d = ParseDoc([]byte("\ufeff\ufeff---\nname: bom\ndescription: d\n---\nbody\n"))
	if d.Claude().Name != "" {
		t.Errorf("two BOMs: Claude() reads %+v", d.Claude())
	}
}

// TestClaudeRetry: strict YAML first, then one retry that double-quotes
// top-level plain values holding a special character or ": ". Where that
// fails too, Claude Code sees no name, description or type, even when
// memtui's tolerant reading recovers them.
func TestClaudeRetry(t *testing.T) {
	tests := []struct {
		name, in   string
		status     model.FMStatus
		claudeNone bool
		desc       string // FM.Description (memtui's reading)
		claudeName string // Claude().Name
	}{
		{"unquoted colon: the retry reads it", "---\nname: s\ndescription: Staging host: acme-stg\ntype: reference\n---\n", model.FMTolerant, false, "Staging host: acme-stg", "s"},
		{"a backslash and a quote survive the retry", "---\nname: s\ndescription: a: \"b\" c\\d\n---\n", model.FMTolerant, false, `a: "b" c\d`, "s"},
		{"trailing spaces go inside the quotes", "---\nname: s\ndescription: a: b  \n---\n", model.FMTolerant, false, "a: b  ", "s"},
		{"CRLF: the retry's line pattern never matches", "---\r\nname: s\r\ndescription: Staging host: acme-stg\r\ntype: reference\r\n---\r\n", model.FMTolerant, true, "Staging host: acme-stg", ""},
		{"nested value: the retry quotes top-level lines only", "---\nname: s\ndescription: d\nmetadata:\n  type: user\n  note: a: b\n---\n", model.FMTolerant, true, "d", ""},
		{"a key with a digit is not retried", "---\nname: s\nkey2: a: b\n---\n", model.FMTolerant, true, "", ""},
		{"no special character: nothing to quote", "---\nname: s\ndescription: \"open\n---\n", model.FMTolerant, true, `"open`, ""},
		{"a number stays a number in the retry", "---\nname: 12\ndescription: a: b\n---\n", model.FMTolerant, false, "a: b", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDoc([]byte(tt.in))
			if d.Status != tt.status || d.ClaudeSeesNone != tt.claudeNone {
				t.Fatalf("status %v, Claude sees none %v; want %v, %v (%s)", d.Status, d.ClaudeSeesNone, tt.status, tt.claudeNone, d.Problem)
			}
			if d.FM.Description != tt.desc {
				t.Errorf("description %q, want %q", d.FM.Description, tt.desc)
			}
			if got := d.Claude().Name; got != tt.claudeName {
				t.Errorf("Claude() name %q, want %q", got, tt.claudeName)
			}
			if tt.claudeNone && !strings.Contains(d.Problem, "Claude Code's retry") {
				t.Errorf("problem %q does not say Claude Code's retry fails", d.Problem)
			}
			if tt.claudeNone && (d.Claude().Description != "" || d.Claude().TypeKey != "") {
				t.Errorf("Claude() = %+v, want nothing", d.Claude())
			}
		})
	}
}

func TestClaudeRequoteLines(t *testing.T) {
	for in, want := range map[string]string{
		"a: b: c":         `a: "b: c"`,
		"a:  x{y}":        `a: "x{y}"`,
		"a:\tx*":          `a: "x*"`,
		"a: 'x: y'":       "a: 'x: y'",
		`a: "x: y"`:       `a: "x: y"`,
		`a: "x: y`:        `a: "\"x: y"`,
		"a: 12:34":        "a: 12:34",
		"a: http://x":     "a: http://x",
		"  a: b: c":       "  a: b: c",
		"a:b: c":          "a:b: c",
		"a1: b: c":        "a1: b: c",
		"a-b_c: x@y":      `a-b_c: "x@y"`,
		"a: b: c\r":       "a: b: c\r",
		"a: b: c\u2028d":  "a: b: c\u2028d",
		"a: \\ #":         `a: "\\ #"`,
		"- a: b: c":       "- a: b: c",
		"a:   ":           "a:   ",
		"a:\u00a0b: c":    `a: "b: c"`,
		"a: b: c\nd: e|f": "a: \"b: c\"\nd: \"e|f\"",
	} {
		got, _ := claudeRequote([]byte(in))
		if string(got) != want {
			t.Errorf("claudeRequote(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHeadWindow: the scan reads the first 30 lines, at most 65,536
// bytes; a closing fence past either is no fence.
func TestHeadWindow(t *testing.T) {
	pad := func(n int) string { return "description: " + strings.Repeat("x", n) + "\n" }
	head := "---\nname: a\n"
	// The fence's three bytes end exactly at byte 65,536.
	fill := model.FrontmatterMaxBytes - len(head) - len("description: \n") - 3
	in := head + pad(fill) + "---\nbody\n"
	if d := ParseDoc([]byte(in)); d.Status != model.FMOK {
		t.Errorf("fence ending at byte %d: status %v (%s)", model.FrontmatterMaxBytes, d.Status, d.Problem)
	}
	in = head + pad(fill+1) + "---\nbody\n"
	if d := ParseDoc([]byte(in)); d.Status != model.FMUnclosed || !strings.Contains(d.Problem, "65536 bytes") || d.Claude().Name != "" {
		t.Errorf("fence ending at byte %d: status %v (%s)", model.FrontmatterMaxBytes+1, d.Status, d.Problem)
	}
	// A BOM counts in the bytes.
	in = "\ufeff" + head + pad(fill) + "---\nbody\n"
	if d := ParseDoc([]byte(in)); d.Status != model.FMUnclosed {
		t.Errorf("BOM + fence ending at byte %d: status %v", model.FrontmatterMaxBytes+3, d.Status)
	}
	// 30 lines: the fence on line 30 is read, on line 31 it is not.
	lines := func(n int) string { return "---\n" + strings.Repeat("k: v\n", n) + "---\n" }
	if d := ParseDoc([]byte(lines(28))); d.Status != model.FMOK {
		t.Errorf("fence on line 30: %v", d.Status)
	}
	if d := ParseDoc([]byte(lines(29))); d.Status != model.FMUnclosed {
		t.Errorf("fence on line 31: %v", d.Status)
	}
}

const itemFM = "---\nname: n\ndescription: d\nmetadata: \n  node_type: memory\n  type: feedback\n" +
	"  claudeCodeItem: \n    id: 0b5c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90\n    state: acked\n    consent: on\n    src: typed\n    scope: repo\n" +
	"    typed: \n      session: 6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d\n      generation: null\n      turn: 3\n      prompt: \"remember: deploy tomorrow\"\n" +
	"    promoted: \n      - account_path: CLAUDE.md\n        line_hash: " + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + "\n        at: 2026-11-20T10:00:00.000Z\n" +
	"      - account_path: notes/CLAUDE.md\n        line_hash: " + "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210" + "\n        at: 2026-11-21T10:00:00.000Z\n" +
	"    ids: \n      - 0b5c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90\n" +
	"  modified: 2026-11-21T10:00:00.000Z\n---\n\nBody.\n"

func TestClaudeCodeItem(t *testing.T) {
	d := ParseDoc([]byte(itemFM))
	if d.Status != model.FMOK {
		t.Fatalf("status %v: %s", d.Status, d.Problem)
	}
	it := d.FM.Item
	if !it.Valid() || it.Key != "metadata.claudeCodeItem" || it.State != "acked" || it.Consent != "on" || it.Promoted != 2 || it.IDs != 1 {
		t.Errorf("item %+v", it)
	}
	if got := it.Summary(); got != "state acked, consent on, 2 promoted, 1 id" {
		t.Errorf("summary %q", got)
	}
	if d.FM.Type != "feedback" || d.FM.Modified == "" {
		t.Errorf("the keys around the block: type %q modified %q", d.FM.Type, d.FM.Modified)
	}
	for _, tt := range []struct{ from, to, problem string }{
		{"state: acked", "state: done", "state"},
		{"consent: on", "consent: true", "consent"},
		{"id: 0b5c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90\n", "id: 0B5C2A8E-1D7B-4C3E-9A46-0B8E2F1D7C90\n", "id"},
		{"turn: 3", "turn: -1", "turn"},
		{"line_hash: 0123", "line_hash: x0123", "line_hash"},
	} {
		d := ParseDoc([]byte(strings.Replace(itemFM, tt.from, tt.to, 1)))
		if d.FM.Item.Valid() || !strings.Contains(d.FM.Item.Problem, tt.problem) {
			t.Errorf("%s → %s: item %+v", tt.from, tt.to, d.FM.Item)
		}
	}
	if d := ParseDoc([]byte("---\nname: n\nmetadata:\n  claudeCodeItem: x\n---\n")); !d.FM.Item.Present || d.FM.Item.Valid() {
		t.Errorf("a scalar block: %+v", d.FM.Item)
	}
	if d := ParseDoc([]byte("---\nname: n\nmetadata:\n  type: user\n---\n")); d.FM.Item.Present {
		t.Errorf("no block: %+v", d.FM.Item)
	}
}

func TestItemSpans(t *testing.T) {
	spans := ItemSpans([]byte(itemFM))
	if len(spans) != 1 {
		t.Fatalf("spans %v", spans)
	}
	got := itemFM[spans[0][0]:spans[0][1]]
	if !strings.HasPrefix(got, "  claudeCodeItem: \n") || !strings.HasSuffix(got, "      - 0b5c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90\n") || strings.Contains(got, "modified") {
		t.Errorf("span %q", got)
	}
	for _, tt := range []struct {
		name, in string
		want     []string
	}{
		{"top level, last key", "---\nname: n\nclaudeCodeItem:\n  state: acked\n---\n", []string{"claudeCodeItem:\n  state: acked\n"}},
		{"compact list at the key's indentation", "---\nmetadata:\n  claudeCodeItem:\n    ids:\n    - a\n    - b\n  type: user\n---\n", []string{"  claudeCodeItem:\n    ids:\n    - a\n    - b\n"}},
		{"flow map", "---\nmetadata:\n  type: user\n  claudeCodeItem: {state: acked,\n    consent: on}\n---\n", []string{"  claudeCodeItem: {state: acked,\n    consent: on}\n"}},
		{"CRLF and a blank line inside", "---\r\nmetadata:\r\n  claudeCodeItem:\r\n    state: acked\r\n\r\n    consent: on\r\n\r\n  type: user\r\n---\r\n", []string{"  claudeCodeItem:\r\n    state: acked\r\n\r\n    consent: on\r\n"}},
		{"both places", "---\nclaudeCodeItem:\n  state: pending\nmetadata:\n  claudeCodeItem:\n    state: acked\n---\n", []string{"claudeCodeItem:\n  state: pending\n", "  claudeCodeItem:\n    state: acked\n"}},
		{"deeper keys of that name are not blocks", "---\nmetadata:\n  other:\n    claudeCodeItem: x\n---\n", nil},
		{"in the body, not frontmatter", "---\nname: n\n---\nclaudeCodeItem:\n  state: acked\n", nil},
		{"behind a BOM, past 30 lines", "\ufeff---\n" + strings.Repeat("k: v\n", 40) + "claudeCodeItem:\n  state: acked\n---\n", []string{"claudeCodeItem:\n  state: acked\n"}},
	} {
		var got []string
		for _, s := range ItemSpans([]byte(tt.in)) {
			got = append(got, tt.in[s[0]:s[1]])
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: spans %q, want %q", tt.name, got, tt.want)
		}
	}
	changed := strings.Replace(itemFM, "state: acked", "state: pending", 1)
	moved := strings.Replace(itemFM, "Body.", "Body, longer.", 1)
	if ItemsIntact([]byte(itemFM), []byte(changed)) || !ItemsIntact([]byte(itemFM), []byte(moved)) {
		t.Error("ItemsIntact")
	}
}

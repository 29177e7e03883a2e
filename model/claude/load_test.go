package claude

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"github.com/memtui/memtui/internal/testgen"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
)

// claudeLoadJS re-implements, from the facts doc (section 3.2), the
// MEMORY.md load pipeline in JavaScript on top of the real marked lexer, so
// that SimulateLoad can be compared with it. It reads base64 inputs as a
// JSON array on stdin and writes one result per input.
const claudeLoadJS = `
const { Lexer, Tokenizer } = require('marked');
const MAX_LINES = 200, MAX_UNITS = 25000;
const MID = '. Only part of it was loaded: ';
const TAIL = '. Keep index entries to one line under ~200 chars; move detail into topic files.';

// Parsing on read, steps 1-2: one BOM goes, then the frontmatter regexp.
function afterFrontmatter(s) {
  const t = s.charCodeAt(0) === 0xFEFF ? s.slice(1) : s;
  if (t.indexOf('---', 3) < 0) return s;
  const m = /^---\s*\n([\s\S]*?)---\s*\n?/.exec(t);
  return m ? t.slice(m[0].length) : s;
}

// Top-level html tokens that are comments go, their residue kept if it
// has text; the rest is sliced from the CR-normalised source. The real
// lexer tells where each top-level token starts: its html tokenizer is
// wrapped to record the offset of the source it was given (a suffix of g at
// the top level; nested calls get other strings, but nested tokens are
// never looked up).
function withoutBlockComments(s) {
  if (s.indexOf('<!--') < 0) return s;
  const g = s.replace(/\r\n|\r/g, '\n');
  const lexer = new Lexer({ gfm: false });
  const at = new Map();
  lexer.tokenizer.html = function (src) {
    const tok = Tokenizer.prototype.html.call(this, src);
    if (tok) at.set(tok, g.length - src.length);
    return tok;
  };
  let out = '', last = 0, any = false;
  for (const tok of lexer.lex(s)) {
    if (tok.type !== 'html' || !at.has(tok)) continue;
    const lead = tok.raw.trimStart();
    if (!(lead.startsWith('<!--') && lead.includes('-->'))) continue;
    const p = at.get(tok), e = p + tok.raw.length;
    any = true;
    out += g.slice(last, p);
    const rest = g.slice(p, e).replace(/<!--[\s\S]*?-->/g, '');
    if (rest.trim() !== '') out += rest;
    last = e;
  }
  return any ? out + g.slice(last) : s;
}

function size(n) {
  const oneDecimal = v => v.toFixed(1).replace(/\.0$/, '');
  if (n < 1024) return n + ' bytes';
  if (n < 1024 * 1024) return oneDecimal(n / 1024) + 'KB';
  if (n < 1024 * 1024 * 1024) return oneDecimal(n / 1024 / 1024) + 'MB';
  return oneDecimal(n / 1024 / 1024 / 1024) + 'GB';
}

// The quote of the first line cut off (facts §3.2 step 6, PW).
function clip(s, n) {
  if (s.length <= n) return s;
  let c = s.slice(0, n - 1);
  const last = c.charCodeAt(c.length - 1);
  if (last >= 0xD800 && last <= 0xDBFF) c = c.slice(0, -1);
  let w = -1;
  for (let i = c.length - 1; i >= 0; i--) if (/\s/.test(c[i])) { w = i; break; }
  if (w > n / 2) c = c.slice(0, w);
  return c.trimEnd() + '\u2026';
}

// The sanitiser (facts §3.2 step 7), written with JavaScript's own Unicode
// property classes.
function sanitize(s) {
  s = s.replace(/\r\n|\r|\u2028|\u2029/g, '\n');
  s = s.replace(/(?![\t\n\u200C\u200D\uFE0E\uFE0F])[\x00-\x1F\x7F-\x9F\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu, '');
  s = Buffer.from(s, 'utf-8').toString('utf-8');
  return s.replace(/<(\/?)(system-reminder|persisted-output|function_results|tool_use_error|sandbox_violations|user-prompt-submit-hook)(?![\w\-:.])/gi, '<\\$1$2');
}

function load(text) {
  const trimmed = text.trim();
  const lines = trimmed.split('\n');
  const lineCount = lines.length, byteCount = trimmed.length;
  const overLines = lineCount > MAX_LINES, overSize = byteCount > MAX_UNITS;
  const res = { trimmed, lineCount, byteCount, wasLineTruncated: overLines, wasByteTruncated: overSize, content: sanitize(trimmed).trim() };
  if (!overLines && !overSize) return res;
  let kept = overLines ? lines.slice(0, MAX_LINES).join('\n') : trimmed;
  if (kept.length > MAX_UNITS) {
    const nl = kept.lastIndexOf('\n', MAX_UNITS);
    kept = kept.slice(0, nl > 0 ? nl : MAX_UNITS);
  }
  let why;
  if (overSize && !overLines) why = size(byteCount) + ' (limit: ' + size(MAX_UNITS) + ') — index entries are too long';
  else if (overLines && !overSize) why = lineCount + ' lines (limit: ' + MAX_LINES + ')';
  else why = lineCount + ' lines and ' + size(byteCount);
  let detail;
  if (trimmed[kept.length] === '\n') {
    const c = kept.split('\n').length;
    detail = (lineCount - c) + ' of ' + lineCount + ' lines were cut off, starting at line ' + (c + 1);
    const q = lines[c].trim();
    if (q !== '') detail += ' ("' + clip(q, 80) + '")';
  } else {
    detail = 'everything after the first ' + kept.length + ' characters of line 1 was cut off';
  }
  res.content = sanitize(kept + '\n\n> WARNING: MEMORY.md is ' + why + MID + detail + TAIL).trim();
  return res;
}

let input = '';
process.stdin.on('data', d => input += d);
process.stdin.on('end', () => {
  const docs = JSON.parse(input).map(b64 => Buffer.from(b64, 'base64').toString('utf-8'));
  process.stdout.write(JSON.stringify(docs.map(d => load(withoutBlockComments(afterFrontmatter(d))))));
});
`

type jsLoad struct {
	Content          string `json:"content"`
	Trimmed          string `json:"trimmed"`
	LineCount        int    `json:"lineCount"`
	ByteCount        int    `json:"byteCount"`
	WasLineTruncated bool   `json:"wasLineTruncated"`
	WasByteTruncated bool   `json:"wasByteTruncated"`
}

// runClaudeJS runs the JavaScript pipeline over docs, or skips the test when
// MEMTUI_MARKED_DIR (a directory whose node_modules holds marked 17) or node
// is missing.
func runClaudeJS(t *testing.T, docs [][]byte) []jsLoad {
	t.Helper()
	dir := os.Getenv("MEMTUI_MARKED_DIR")
	if dir == "" && os.Getenv("CI") != "" {
		t.Fatal("CI must compare with the real lexer: .ci/run installs marked@17 and sets MEMTUI_MARKED_DIR")
	}
	if dir == "" {
		t.Skip("set MEMTUI_MARKED_DIR to a directory with node_modules/marked (npm install marked@17) to compare with the real lexer")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	script := filepath.Join(t.TempDir(), "load.js")
	if err := os.WriteFile(script, []byte(claudeLoadJS), 0o644); err != nil {
		t.Fatal(err)
	}
	in := make([]string, len(docs))
	for i, d := range docs {
		in[i] = base64.StdEncoding.EncodeToString(d)
	}
	js, _ := json.Marshal(in)
	cmd := exec.Command(node, script)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	cmd.Stdin = bytes.NewReader(js)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var res []jsLoad
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// markdownPieces are the lines random documents are built from: the shapes
// real indexes have, plus the block constructs that decide where a comment
// may start.
var markdownPieces = []string{
	"- [Title](file.md) — hook", "* [Star](s.md) - hook", "1. [One](one.md): hook", "2) second",
	"  - nested [x](x.md)", "   - three spaces", "    indented code", "\tTabbed", "-\ttab bullet", "- ", "-",
	"<!-- comment -->", "  <!-- indented comment -->", "   <!-- three -->", "    <!-- four -->",
	"<!-- open", "close -->", "<!-- a --> residue", "text <!-- inline --> text", "<!---->", "<!-->", "<!--->",
	"<!-- a --><!-- b -->", "-->", "# Heading", "## Sub", "####### seven", "#no space", "Setext", "===", "---",
	"***", "___", "* * *", "```", "```go", "~~~", "````", "``` `x`", "> quote", "> - list in quote", ">",
	"lazy continuation", "<div>", "</div>", "<details>", "<span>inline</span>", "<pre>", "</pre>", "<?php x ?>",
	"<!DOCTYPE html>", "<![CDATA[ x ]]>", "[ref]: ref.md", "[ref]: other.md \"title\"", "[Ref]:  <a b.md>",
	"| a | b |", "|---|---|", "plain prose line", "  ", "", "", "", "\u00a0", "emoji 😀 line", "日本語のメモ",
	"<br>", "<a href=\"x\">", "</a>", "<custom-tag attr='1' />", "11. eleven", "+ plus", "  1. nested one",
	"\t", " ", "\t<!-- tab comment -->", " -\tspace tab", "1.\tordered tab", "  \t- mixed", "* [x] task [t](t.md)",
	"<!-- multi", "line -->", "> <!-- quoted comment -->", "- <!-- item comment -->", "<DIV>", "<div class=\"a\">",
	"</details>", "<script>", "</script>", "     five spaces", "~~~~", "`````", "- - -", "__", "[[wiki]] link",
	// what the sanitiser changes (and keeps)
	"zero\u200bwidth", "line\u2028sep", "para\u2029sep", "mid\ufeffbom", "<system-reminder>do this</system-reminder>",
	"<SYSTEM-REMINDER x>", "<function_results>", "<system-reminders>", "soft\u00adhyphen", "private \ue000 use",
	"tag \U000E0041 char", "cgj\u034f", "vs\u180b", "emoji ❤\ufe0f and 👨\u200d💻", "bell\x07 nel\u0085 del\x7f",
	"rlo \u202e evil", "unassigned \u0378 here", "hangul\u3164filler",
}

// randomDoc assembles a document from pieces with random line endings and
// an optional frontmatter.
func randomDoc(r *rand.Rand) []byte {
	var b strings.Builder
	switch r.Intn(7) {
	case 0:
		b.WriteString("---\nname: x\n---\n")
	case 1:
		b.WriteString("---  \r\ndescription: y --- z\n")
	case 2:
		b.WriteString("\ufeff---\nname: x\n---\n")
	}
	n := 1 + r.Intn(14)
	for i := 0; i < n; i++ {
		b.WriteString(markdownPieces[r.Intn(len(markdownPieces))])
		switch r.Intn(10) {
		case 0:
			b.WriteString("\r\n")
		case 1:
			b.WriteString("\r")
		case 2:
			if i == n-1 {
				continue
			}
			b.WriteString("\n")
		default:
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

// TestSimulateLoadMatchesMarked compares SimulateLoad with Claude Code's
// pipeline on the real marked lexer over thousands of random documents and
// the boundary cases.
func TestSimulateLoadMatchesMarked(t *testing.T) {
	seed, n := int64(1), 4000
	if v := os.Getenv("MEMTUI_DIFF_SEED"); v != "" {
		seed, n = int64(len(v))*7919+int64(v[0]), 40000
	}
	r := rand.New(rand.NewSource(seed))
	var docs [][]byte
	for len(docs) < n {
		docs = append(docs, randomDoc(r))
	}
	docs = append(docs, boundaryDocs()...)
	res := runClaudeJS(t, docs)
	bad := 0
	for i, d := range docs {
		got := SimulateLoad(d)
		want := res[i]
		if got.Text != want.Content || got.Trimmed != want.Trimmed || got.LineCount != want.LineCount ||
			got.Units != want.ByteCount || got.LineTruncated != want.WasLineTruncated || got.SizeTruncated != want.WasByteTruncated {
			bad++
			if bad <= 5 || os.Getenv("MEMTUI_DIFF_ALL") != "" {
				t.Errorf("doc %d %q:\n got  %q (%d lines, %d units)\n want %q (%d lines, %d units)\n sent %q\n want %q", i, d, got.Trimmed, got.LineCount, got.Units, want.Trimmed, want.LineCount, want.ByteCount, got.Text, want.Content)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d documents differ", bad, len(docs))
	}
	t.Logf("%d documents compared", len(docs))
}

// boundaryDocs are the cap boundaries, as documents.
func boundaryDocs() [][]byte {
	line := strings.Repeat("x", 99)
	var docs [][]byte
	for _, n := range []int{199, 200, 201, 300} {
		docs = append(docs, []byte(strings.Repeat(line+"\n", n)))
	}
	for _, n := range []int{24999, 25000, 25001, 30000} {
		docs = append(docs, []byte(strings.Repeat("y", n)))
		docs = append(docs, []byte(strings.Repeat("z", n-10)+"\n"+strings.Repeat("w", 9)))
	}
	docs = append(docs, []byte(strings.Repeat("a", 24999)+"😀tail"))
	docs = append(docs, []byte(strings.Repeat("a", 24998)+"😀tail"))
	docs = append(docs, []byte(strings.Repeat("é", 20000)+"\n"+strings.Repeat("b", 6000)))
	docs = append(docs, []byte("<!-- "+strings.Repeat("c", 30000)+" -->\nshort"))
	docs = append(docs, []byte(strings.Repeat("- [e](e.md) — hook\r\n", 250)))
	docs = append(docs, []byte(strings.Repeat("- [e](e.md) — hook\r\n", 250)+"<!-- x -->"))
	docs = append(docs, []byte("ok\xff\xfe bad \xe2\x82 bytes \xf0\x9f\x98 end"))
	docs = append(docs, []byte("---\nname: x\n---\n\n\n  - [a](a.md)\n"))
	docs = append(docs, []byte("---\nname: a---b\n---\nbody"))
	docs = append(docs, []byte("\ufeff---\nname: x\n---\nbody"))
	docs = append(docs, []byte("[a]: a.md\n\n[A]: b.md \"t\"\n<!-- c -->\n[a]:  c.md\nend"))
	docs = append(docs, []byte("para\n[a]: a.md\n[a]: b.md\n<!-- c -->"))
	// 2.1.332's boundaries: CJK at the unit cap, a hard cut through a
	// surrogate pair, CRLF with and without a comment, a BOM before the
	// frontmatter, and quotes of the first line cut off.
	docs = append(docs, []byte(strings.Repeat("記", 25000)), []byte(strings.Repeat("記", 25001)))
	docs = append(docs, []byte(strings.Repeat("記", 24999)+"😀"), []byte(strings.Repeat("a", 100)+"\n"+strings.Repeat("記", 24999)+"😀"))
	docs = append(docs, []byte(strings.Repeat("- [e](e.md) — hook\r\n", 201)), []byte("<!-- x -->\r\n"+strings.Repeat("- [e](e.md) — hook\r\n", 201)))
	docs = append(docs, []byte("\ufeff---\nname: x\n---\n"+strings.Repeat("- [e](e.md)\n", 201)))
	docs = append(docs, []byte(strings.Repeat("[a]: a.md\n", 201)+"<!-- c -->"))
	for _, q := range []string{strings.Repeat("w", 100), strings.Repeat("word ", 30), strings.Repeat("w", 78) + "😀x", "  " + strings.Repeat("ab ", 40), strings.Repeat("x", 30) + " " + strings.Repeat("y", 60), strings.Repeat("y", 41) + " " + strings.Repeat("z", 50), strings.Repeat("y", 40) + " " + strings.Repeat("z", 50)} {
		docs = append(docs, []byte(strings.Repeat("- [e](e.md)\n", 200)+q+"\nmore"))
	}
	return docs
}

// ---- acceptance tests of the load pipeline ----

const warnTail = ". Keep index entries to one line under ~200 chars; move detail into topic files."

// warnText is the 2.1.332 warning for a reason and a detail.
func warnText(reason, detail string) string {
	return "> WARNING: MEMORY.md is " + reason + ". Only part of it was loaded: " + detail + warnTail
}

func seq(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

func TestSimulateLoadLineCap(t *testing.T) {
	for _, tc := range []struct {
		name      string
		content   string
		truncated bool
		lines     int
		dropped   []int
		warning   string
	}{
		{"200 lines load whole", testgen.Entries(200, "\n"), false, 200, nil, ""},
		{"201 lines lose the last", testgen.Entries(201, "\n"), true, 201, []int{201}, warnText("201 lines (limit: 200)", `1 of 201 lines were cut off, starting at line 201 ("- [Entry 201](entry-201.md) — hook 201")`)},
		{"no final newline", strings.TrimSuffix(testgen.Entries(201, "\n"), "\n"), true, 201, []int{201}, warnText("201 lines (limit: 200)", `1 of 201 lines were cut off, starting at line 201 ("- [Entry 201](entry-201.md) — hook 201")`)},
		{"trailing blank run does not count", testgen.Entries(200, "\n") + "\n\n   \n\t\n\n", false, 200, nil, ""},
		{"leading blank run does not count", "\n\n  \n" + testgen.Entries(200, "\n"), false, 200, nil, ""},
		{"CRLF counts the same lines", testgen.Entries(201, "\r\n"), true, 201, []int{201}, warnText("201 lines (limit: 200)", `1 of 201 lines were cut off, starting at line 201 ("- [Entry 201](entry-201.md) — hook 201")`)},
		{"250 lines", testgen.Entries(250, "\n"), true, 250, seq(201, 250), warnText("250 lines (limit: 200)", `50 of 250 lines were cut off, starting at line 201 ("- [Entry 201](entry-201.md) — hook 201")`)},
		{"a blank first line cut off is not quoted", testgen.Entries(200, "\n") + "\n" + testgen.Entries(1, "\n"), true, 202, []int{202}, warnText("202 lines (limit: 200)", "2 of 202 lines were cut off, starting at line 201")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ld := SimulateLoad([]byte(tc.content))
			if ld.LineTruncated != tc.truncated || ld.SizeTruncated || ld.LineCount != tc.lines {
				t.Fatalf("lines=%d lineTrunc=%v sizeTrunc=%v, want %d %v false", ld.LineCount, ld.LineTruncated, ld.SizeTruncated, tc.lines, tc.truncated)
			}
			if ld.Warning != tc.warning {
				t.Errorf("warning %q\nwant    %q", ld.Warning, tc.warning)
			}
			if !reflect.DeepEqual(ld.Dropped, tc.dropped) {
				t.Errorf("dropped %v, want %v", ld.Dropped, tc.dropped)
			}
			if tc.truncated {
				if ld.LoadedLines != model.IndexMaxLines || ld.LastLine != model.IndexMaxLines || ld.LastLineCut {
					t.Errorf("loaded %d lines up to line %d (cut %v)", ld.LoadedLines, ld.LastLine, ld.LastLineCut)
				}
				if ld.Text != strings.ReplaceAll(ld.Loaded, "\r", "")+"\n\n"+ld.Warning || ld.Sent+"\n\n"+ld.Warning != ld.Text {
					t.Errorf("text is not loaded + warning")
				}
			} else if ld.Text != ld.Trimmed || ld.Loaded != ld.Trimmed {
				t.Errorf("untruncated text differs from the trimmed index")
			}
		})
	}
}

func TestSimulateLoadCRLFKeepsCarriageReturns(t *testing.T) {
	ld := SimulateLoad([]byte(testgen.Entries(201, "\r\n")))
	// JavaScript splits on "\n" only: each loaded line keeps its "\r",
	// which counts as a unit.
	if !strings.HasSuffix(ld.Loaded, "hook 200\r") || strings.Count(ld.Loaded, "\r") != 200 {
		t.Errorf("loaded text should keep its carriage returns: ...%q", ld.Loaded[len(ld.Loaded)-20:])
	}
	lf := SimulateLoad([]byte(testgen.Entries(201, "\n")))
	if ld.Units != lf.Units+200 {
		t.Errorf("CRLF units %d, LF units %d: each \\r should count one", ld.Units, lf.Units)
	}
	// A block comment that is stripped sends the output through marked's
	// CR-normalised source: then the carriage returns no longer count. A
	// comment that is not a top-level block (inline, in code) strips
	// nothing, and the original text, CRs and all, is measured.
	withComment := SimulateLoad([]byte("<!-- note -->\r\n" + testgen.Entries(10, "\r\n")))
	if strings.Contains(withComment.Trimmed, "\r") || withComment.Units != SimulateLoad([]byte(testgen.Entries(10, "\n"))).Units {
		t.Errorf("comment stripping should normalise CRLF: %q", withComment.Trimmed[:40])
	}
	inline := SimulateLoad([]byte("x <!-- note --> y\r\n" + testgen.Entries(10, "\r\n")))
	if strings.Count(inline.Trimmed, "\r") != 10 || inline.CommentsStripped {
		t.Errorf("an inline comment strips nothing, so CRLF stays: %q", inline.Trimmed[:40])
	}
	// What the agent receives has no CR either way: the sanitiser turns
	// CRLF into LF after the counts.
	if strings.Contains(ld.Text, "\r") || strings.Contains(inline.Text, "\r") {
		t.Errorf("sanitised text keeps a CR")
	}
	if got := SimulateLoad([]byte("a\r\nb")); got.Units != 4 || got.LineCount != 2 {
		t.Errorf("a\\r\\nb: %d units, %d lines; want 4, 2", got.Units, got.LineCount)
	}
}

func TestSimulateLoadSizeCap(t *testing.T) {
	sizeWarn := func(detail string) string {
		return warnText("24.4KB (limit: 24.4KB) — index entries are too long", detail)
	}
	hardWarn := sizeWarn("everything after the first 25000 characters of line 1 was cut off")
	b79 := strings.Repeat("b", 79) + "…"
	c74 := "<!-- " + strings.Repeat("c", 74) + "…"
	for _, tc := range []struct {
		name    string
		content string
		trunc   bool
		units   int
		loaded  int // units of the loaded text
		warning string
		hard    bool
	}{
		{"25,000 units load whole", strings.Repeat("a", 25000), false, 25000, 25000, "", false},
		{"25,001 units are cut hard at 25,000", strings.Repeat("a", 25001), true, 25001, 25000, hardWarn, true},
		{"cut at the last newline before 25,000", strings.Repeat("a", 20000) + "\n" + strings.Repeat("b", 5000), true, 25001, 20000,
			sizeWarn(`1 of 2 lines were cut off, starting at line 2 ("` + b79 + `")`), false},
		{"a newline at unit 25,000 still counts", strings.Repeat("a", 25000) + "\nb", true, 25002, 25000,
			sizeWarn(`1 of 2 lines were cut off, starting at line 2 ("b")`), false},
		{"CJK over 25,000 bytes but under 25,000 units", strings.Repeat("日本語のメモ", 4000), false, 24000, 24000, "", false},
		{"25,000 CJK units load whole", strings.Repeat("記", 25000), false, 25000, 25000, "", false},
		{"25,001 CJK units are cut hard", strings.Repeat("記", 25001), true, 25001, 25000, hardWarn, true},
		{"CJK lines cut at a newline", strings.Repeat(strings.Repeat("記", 199)+"\n", 126) + "終", true, 25201, 24999,
			warnText("24.6KB (limit: 24.4KB) — index entries are too long", `2 of 127 lines were cut off, starting at line 126 ("`+strings.Repeat("記", 79)+`…")`), false},
		{"emoji count two units: 12,500 fit", strings.Repeat("😀", 12500), false, 25000, 25000, "", false},
		{"emoji count two units: 12,501 do not", strings.Repeat("😀", 12501), true, 25002, 25000, hardWarn, true},
		{"frontmatter is not counted", "---\nname: x\ndescription: " + strings.Repeat("d", 30000) + "\n---\n- [a](a.md) — hook", false, 18, 18, "", false},
		{"a big comment block is not counted", "# Index\n<!--\n" + strings.Repeat("notes\n", 5000) + "-->\n- [a](a.md) — hook", false, 26, 26, "", false},
		{"a comment inside fenced code counts", "```\n<!-- " + strings.Repeat("c", 25000) + " -->\n```", true, 25017, 3,
			sizeWarn(`2 of 3 lines were cut off, starting at line 2 ("` + c74 + `")`), false},
		{"an indented comment in a list item counts", "- [a](a.md)\n  <!-- " + strings.Repeat("c", 25000) + " -->", true, 25023, 11,
			sizeWarn(`1 of 2 lines were cut off, starting at line 2 ("` + c74 + `")`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ld := SimulateLoad([]byte(tc.content))
			if ld.SizeTruncated != tc.trunc || ld.LineTruncated || ld.Units != tc.units || ld.LoadedUnits != tc.loaded {
				t.Fatalf("units=%d loaded=%d sizeTrunc=%v lineTrunc=%v; want %d %d %v false", ld.Units, ld.LoadedUnits, ld.SizeTruncated, ld.LineTruncated, tc.units, tc.loaded, tc.trunc)
			}
			if ld.Warning != tc.warning || ld.HardCut != tc.hard {
				t.Errorf("warning %q hard=%v\nwant    %q hard=%v", ld.Warning, ld.HardCut, tc.warning, tc.hard)
			}
			if !utf8.ValidString(ld.Text) {
				t.Errorf("text is not valid UTF-8")
			}
		})
	}
}

func TestSimulateLoadSurrogateSplit(t *testing.T) {
	// JavaScript's slice(0, 25000) splits the emoji at units 24,999-25,000;
	// the lone high surrogate becomes U+FFFD, keeping 25,000 units.
	ld := SimulateLoad([]byte(strings.Repeat("a", 24999) + "😀tail"))
	if !ld.SizeTruncated || !ld.HardCut || !strings.HasSuffix(ld.Loaded, "a\uFFFD") || ld.LoadedUnits != 25000 {
		t.Errorf("loaded ...%q (%d units, hard %v)", ld.Loaded[len(ld.Loaded)-5:], ld.LoadedUnits, ld.HardCut)
	}
	if ld.LastLine != 1 || !ld.LastLineCut || len(ld.Dropped) != 0 {
		t.Errorf("last line %d cut %v dropped %v", ld.LastLine, ld.LastLineCut, ld.Dropped)
	}
	// The sanitiser deletes the lone surrogate (\p{Cs}): the agent gets
	// 24,999 a's, then the warning, which counts the surrogate.
	want := strings.Repeat("a", 24999) + "\n\n" + warnText("24.4KB (limit: 24.4KB) — index entries are too long", "everything after the first 25000 characters of line 1 was cut off")
	if ld.Text != want || ld.Sent != strings.Repeat("a", 24999) {
		t.Errorf("text ...%q, sent %d bytes", ld.Text[24990:], len(ld.Sent))
	}
}

func TestSimulateLoadBothCaps(t *testing.T) {
	// 300 lines of 100 characters: over both caps, but after the line cut
	// the text fits, so only the line cut applies (20,199 units sent).
	content := strings.Repeat(strings.Repeat("x", 100)+"\n", 300)
	ld := SimulateLoad([]byte(content))
	if !ld.LineTruncated || !ld.SizeTruncated {
		t.Fatalf("flags %v %v", ld.LineTruncated, ld.SizeTruncated)
	}
	if want := warnText("300 lines and 29.6KB", `100 of 300 lines were cut off, starting at line 201 ("`+strings.Repeat("x", 79)+`…")`); ld.Warning != want {
		t.Errorf("warning %q\nwant    %q", ld.Warning, want)
	}
	if ld.LoadedUnits != 20199 || ld.LoadedLines != 200 || ld.HardCut {
		t.Errorf("loaded %d units %d lines", ld.LoadedUnits, ld.LoadedLines)
	}
	if !reflect.DeepEqual(ld.Dropped, seq(201, 300)) || len(ld.DroppedBySize) != 0 {
		t.Errorf("dropped %v by size %v", ld.Dropped, ld.DroppedBySize)
	}

	// 150 lines of 200 characters: the size cut drops lines the line cap
	// would have kept.
	long := strings.Repeat(strings.Repeat("y", 200)+"\n", 150)
	ld = SimulateLoad([]byte(long))
	if ld.LineTruncated || !ld.SizeTruncated || ld.LoadedLines != 124 || !reflect.DeepEqual(ld.DroppedBySize, seq(125, 150)) {
		t.Errorf("long lines: %d lines loaded, dropped by size %v", ld.LoadedLines, ld.DroppedBySize)
	}

	// Over both, and the size cut still bites after the line cut.
	both := strings.Repeat(strings.Repeat("z", 150)+"\n", 250)
	ld = SimulateLoad([]byte(both))
	if !reflect.DeepEqual(ld.DroppedBySize, seq(166, 200)) || !reflect.DeepEqual(ld.Dropped, seq(166, 250)) {
		t.Errorf("both cuts: dropped %v..., by size %v...", head(ld.Dropped), head(ld.DroppedBySize))
	}
}

func head(s []int) []int { return s[:min(len(s), 3)] }

func TestSimulateLoadMapsDroppedLinesToTheFile(t *testing.T) {
	// 5 lines of frontmatter, a 10-line comment block, then 205 entries:
	// lines 1-15 never count, so the cut falls after file line 215.
	content := "---\nname: index\ndescription: x\ntype: reference\n---\n<!--\n" + strings.Repeat("note\n", 8) + "-->\n" + testgen.Entries(205, "\n")
	ld := SimulateLoad([]byte(content))
	if ld.LineCount != 205 || !ld.LineTruncated {
		t.Fatalf("lines %d truncated %v", ld.LineCount, ld.LineTruncated)
	}
	if ld.LastLine != 215 || !reflect.DeepEqual(ld.Dropped, seq(216, 220)) {
		t.Errorf("last line %d, dropped %v; want 215, 216-220", ld.LastLine, ld.Dropped)
	}
	if ld.FrontmatterEnd != 51 || !ld.CommentsStripped {
		t.Errorf("frontmatter end %d, comments stripped %v", ld.FrontmatterEnd, ld.CommentsStripped)
	}
	// Comments between entries shift the mapping too.
	mixed := testgen.Entries(150, "\n") + "<!-- a -->\n<!-- b -->\n" + testgen.Entries(60, "\n")
	ld = SimulateLoad([]byte(mixed))
	if ld.LastLine != 202 || ld.Dropped[0] != 203 || len(ld.Dropped) != 10 {
		t.Errorf("mixed: last %d dropped %v", ld.LastLine, ld.Dropped)
	}
}

func TestSimulateLoadComments(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<!-- hidden -->\n# Index\n- [a](a.md)", "# Index\n- [a](a.md)"},
		{"# Index\n<!-- one -->\n<!-- two\nlines -->\n- [a](a.md)", "# Index\n- [a](a.md)"},
		{"- [a](a.md)\n<!-- between -->\n- [b](b.md)", "- [a](a.md)\n- [b](b.md)"},
		{"   <!-- three spaces -->\nx", "x"},
		{"    <!-- four spaces is code -->\nx", "<!-- four spaces is code -->\nx"},
		{"text <!-- inline --> text", "text <!-- inline --> text"},
		{"para\n  <!-- indented continuation -->", "para\n  <!-- indented continuation -->"},
		{"para\n<!-- interrupts -->\nafter", "para\nafter"},
		{"<!-- note --> residue kept\nx", "residue kept\nx"},
		{"<!-- unclosed\nrest", "<!-- unclosed\nrest"},
		{"```\n<!-- in code -->\n```", "```\n<!-- in code -->\n```"},
		{"> <!-- in a quote -->", "> <!-- in a quote -->"},
	} {
		if got := SimulateLoad([]byte(tc.in)); got.Text != tc.want {
			t.Errorf("%q:\n got  %q\n want %q", tc.in, got.Text, tc.want)
		}
	}
}

func TestJSFrontmatterEnd(t *testing.T) {
	for _, tc := range []struct {
		in   string
		body string
	}{
		{"---\nname: x\n---\nbody", "body"},
		{"---\nname: x\n---\n\n\n  body", "body"},                  // the closing \s* eats blank lines and indentation
		{"---\r\nname: x\r\n---\r\nbody", "body"},                  // CRLF
		{"---  \n\nname: x\n---body", "body"},                      // no newline needed after the closing ---
		{"---\nname: a---b\n---\nbody", "b\n---\nbody"},            // the lazy match closes mid-line
		{"--- x\nname: y\n---\nbody", "--- x\nname: y\n---\nbody"}, // text after the opening ---
		{"---\nname: never closed", "---\nname: never closed"},
		{"\ufeff---\nname: x\n---\nbody", "\ufeff---\nname: x\n---\nbody"}, // a BOM defeats the match
		{"x\n---\nname: x\n---\n", "x\n---\nname: x\n---\n"},
		{"---\n---\nbody", "body"},
		{"---\u00a0\nname: x\n---\u3000\nbody", "body"}, // JavaScript \s includes Unicode spaces
	} {
		if got := string([]byte(tc.in)[jsFrontmatterEnd([]byte(tc.in)):]); got != tc.body {
			t.Errorf("%q: body %q, want %q", tc.in, got, tc.body)
		}
	}
}

func TestFormatFileSize(t *testing.T) {
	for n, want := range map[int]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1KB", 1536: "1.5KB", 1280: "1.3KB", // 1.25 rounds up, as toFixed does
		17500: "17.1KB", 20000: "19.5KB", 25000: "24.4KB", 25001: "24.4KB", 30299: "29.6KB",
		1048524: "1023.9KB", 1048575: "1024KB", 1048576: "1MB", 5 << 30: "5GB",
	} {
		if got := FormatFileSize(n); got != want {
			t.Errorf("FormatFileSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestLoadPercentages(t *testing.T) {
	for _, tc := range []struct {
		content        string
		near           bool
		linePct        float64
		overLines      int
		overUnits      int
		usedPctAtLeast float64
	}{
		{testgen.Entries(159, "\n"), false, 79.5, 19, 0, 79.5},
		{testgen.Entries(160, "\n"), true, 80, 20, 0, 80},
		{testgen.Entries(200, "\n"), true, 100, 60, 0, 100},
		{testgen.Entries(201, "\n"), false, 100.5, 61, 0, 100.5}, // over: not "near"
		{strings.Repeat("u", 20000), true, 0.5, 0, 2500, 80},
		{strings.Repeat("u", 19999), false, 0.5, 0, 2499, 79.9},
		{"", false, 0.5, 0, 0, 0.5},
	} {
		ld := SimulateLoad([]byte(tc.content))
		if ld.NearLimit() != tc.near || ld.LinePercent() != tc.linePct || ld.LinesOverTarget() != tc.overLines ||
			ld.UnitsOverTarget() != tc.overUnits || ld.UsedPercent() < tc.usedPctAtLeast {
			t.Errorf("%d lines %d units: near %v line%% %v over %d/%d used %v", ld.LineCount, ld.Units, ld.NearLimit(), ld.LinePercent(), ld.LinesOverTarget(), ld.UnitsOverTarget(), ld.UsedPercent())
		}
	}
}

func TestSimulateLoadEmptyAndInvalid(t *testing.T) {
	for _, in := range []string{"", "   \n\t\n", "---\nname: x\n---\n", "<!-- only a comment -->\n", "\ufeff"} {
		ld := SimulateLoad([]byte(in))
		if !ld.Empty || ld.Text != "" || ld.LastLine != 0 || ld.LoadedLines != 0 || ld.Truncated() {
			t.Errorf("%q: %+v", in, ld)
		}
	}
	// Node decodes invalid UTF-8 to one U+FFFD per maximal subpart.
	ld := SimulateLoad([]byte("a\xe2\x82b\xffc"))
	if ld.Text != "a\uFFFDb\uFFFDc" || ld.Units != 5 {
		t.Errorf("invalid UTF-8: %q (%d units)", ld.Text, ld.Units)
	}
}

// TestSimulateLoadDroppedAroundComments checks the dropped lines when the
// part past the cut holds block comments (which Claude Code strips, so
// their lines are never listed), comments inside a paragraph (kept), lone
// "\r" line ends (a line break to marked, not to the file's line count) and
// Unicode blanks.
func TestSimulateLoadDroppedAroundComments(t *testing.T) {
	for _, tc := range []struct {
		name          string
		in            string
		last          int
		dropped, size []int
	}{
		{"comments past the line cut",
			testgen.Entries(198, "\n") + "<!-- a\nb -->\n" + testgen.Entries(4, "\n") + "x <!-- c\nd --> y\n" + "<!--\n\n-->\n" + testgen.Entries(2, "\n"),
			202, []int{203, 204, 205, 206, 210, 211}, nil},
		{"lone carriage returns",
			testgen.Entries(198, "\r\n") + "tail\rmore\r\n" + testgen.Entries(5, "\r") + "<!-- z -->\r" + testgen.Entries(2, "\r\n"),
			199, []int{200, 201}, nil},
		{"comments past the size cut",
			strings.Repeat("- [Long](l.md) — "+strings.Repeat("w", 400)+"\n", 62) + "<!-- k\n -->\n" + "last \u3000 line\n\u2028\n  \nend",
			59, []int{60, 61, 62, 65, 68}, []int{60, 61, 62, 65, 68}},
	} {
		ld := SimulateLoad([]byte(tc.in))
		if ld.LastLine != tc.last || ld.LastLineCut || !reflect.DeepEqual(ld.Dropped, tc.dropped) || !reflect.DeepEqual(ld.DroppedBySize, tc.size) {
			t.Errorf("%s: last %d (cut %v), dropped %v, by size %v; want %d, %v, %v", tc.name, ld.LastLine, ld.LastLineCut, ld.Dropped, ld.DroppedBySize, tc.last, tc.dropped, tc.size)
		}
	}
}

// utf16UnitsRef is utf16Units one character at a time, as the reference for
// its ASCII fast path.
func utf16UnitsRef(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		r, sz := jsDecode(b, i)
		n++
		if r >= 0x10000 {
			n++
		}
		i += sz
	}
	return n
}

func TestUTF16Units(t *testing.T) {
	pieces := []string{"a", "abcdefgh", "0123456789abcdef", "é", "—", "😀", "\xff", "\xe2\x82", "\xf0\x9f", "\r\n", " "}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		var b []byte
		for k := r.Intn(12); k > 0; k-- {
			b = append(b, pieces[r.Intn(len(pieces))]...)
		}
		if got, want := utf16Units(b), utf16UnitsRef(b); got != want {
			t.Fatalf("utf16Units(%q) = %d, want %d", b, got, want)
		}
	}
}

// TestUnitPrefix: the end of JavaScript's slice(0, n), n in UTF-16 units,
// at its edges: ASCII (the eight-byte stride up to and across n), CJK
// (one unit, three bytes) at 25,000 and 25,001 units, a surrogate pair
// across the cut (split: only its high half is unit n) and just before it,
// and invalid UTF-8 (one unit per maximal subpart, as Node decodes).
func TestUnitPrefix(t *testing.T) {
	cjk := strings.Repeat("記", model.IndexMaxUnits)
	for _, tc := range []struct {
		name  string
		in    string
		n     int
		end   int
		split bool
	}{
		{"empty", "", 5, 0, false},
		{"n 0", "abc", 0, 0, false},
		{"ASCII fits", "abcdefghij", 10, 10, false},
		{"ASCII cut inside the stride", "abcdefghijklmnop", 11, 11, false},
		{"ASCII cut at the stride", "abcdefghijklmnop", 8, 8, false},
		{"ASCII 25,001 at 25,000", strings.Repeat("a", model.IndexMaxUnits+1), model.IndexMaxUnits, model.IndexMaxUnits, false},
		{"CJK 25,000 at 25,000", cjk, model.IndexMaxUnits, len(cjk), false},
		{"CJK 25,001 at 25,000", cjk + "記", model.IndexMaxUnits, len(cjk), false},
		{"CJK 25,001 at 25,001", cjk + "記", model.IndexMaxUnits + 1, len(cjk) + 3, false},
		{"pair across the cut", strings.Repeat("a", 9) + "😀b", 10, 9, true},
		{"pair ending at the cut", strings.Repeat("a", 8) + "😀b", 10, 12, false},
		{"pair across unit 25,000", strings.Repeat("記", model.IndexMaxUnits-1) + "😀", model.IndexMaxUnits, 3 * (model.IndexMaxUnits - 1), true},
		{"pair after the cut", strings.Repeat("a", 10) + "😀", 10, 10, false},
		{"invalid subpart is one unit", "\xe0\xa0" + "ab", 2, 3, false},
		{"invalid bytes are one unit each", "\xff\xfe" + "ab", 2, 2, false},
	} {
		end, split := unitPrefix([]byte(tc.in), tc.n)
		if end != tc.end || split != tc.split {
			t.Errorf("%s: unitPrefix(…, %d) = %d, %v; want %d, %v", tc.name, tc.n, end, split, tc.end, tc.split)
		}
	}
}

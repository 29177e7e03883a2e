package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// What an attacker plants in memory files, transcripts and proposals; each
// does something to a terminal that shows it raw.
const (
	atkClipboard = "\x1b]52;c;cHduZWQ=\a"
	atkTitle     = "\x1b]0;owned\a"
	atkClear     = "\x1b[2J"
	atkLink      = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\"
	atkC1        = "\u009b2J"
	atkBidi      = "\u202e"
	atkToken     = "ghp_" + "Zq8Vt3Lm9Xw2Rb7Kc4Np6Hs1Jd5Fg0Ay3Ue8"
	atkPEM       = "-----BEGIN RSA PRIVATE KEY-----\n" +
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n" +
		"VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n" +
		"LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo\n" +
		"9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvre\n" +
		"-----END RSA PRIVATE KEY-----\n"
	// atkCwd's slug: every character but [a-zA-Z0-9] becomes "-".
	atkCwd  = "/work/pwn" + atkTitle + atkBidi
	atkSlug = "-work-pwn--0-owned--"
)

var sgrOnly = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// frameHarm says what in a frame, once our own SGR colour codes are
// removed, a terminal would act on or would hide text with, or which
// fragment of a planted secret it shows.
func frameHarm(frame string) string {
	s := sgrOnly.ReplaceAllString(frame, "")
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for i, r := range s {
		bad := ""
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f:
			bad = "control"
		case r >= 0x80 && r < 0xa0:
			bad = "C1 control"
		case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			bad = "bidi control"
		}
		if bad != "" {
			return fmt.Sprintf("%s %U: %q", bad, r, s[max(i-40, 0):min(i+40, len(s))])
		}
	}
	secrets := []string{atkToken, atkToken[4:24]}
	for _, l := range strings.Split(atkPEM, "\n") {
		if len(l) > 40 && !strings.HasPrefix(l, "-----") {
			secrets = append(secrets, l[:24], l[40:])
		}
	}
	for _, sec := range secrets {
		if strings.Contains(s, sec) {
			return "the secret fragment " + sec
		}
	}
	return ""
}

// hostileConfig writes a tree whose file names, frontmatter, bodies, index
// lines, transcript (cwd, branch, title) and journal carry the attacks, and
// a review baseline from before a session wrote a key into plain.md.
func hostileConfig(t *testing.T) (Config, string) {
	t.Helper()
	dir := t.TempDir()
	mem := filepath.Join(dir, "projects", atkSlug, "memory")
	clip := "clip" + atkClipboard + ".md"
	tokenFile := "deploy_" + atkToken + ".md"
	plainV1 := "---\nname: plain\ndescription: A plain memory\ntype: user\n---\n\nWe launch tomorrow.\n"
	files := map[string]string{
		clip: "---\nname: deploy" + atkTitle + "\ndescription: How to deploy " + atkClipboard + atkBidi + "\ntype: project\n---\n\n" +
			"Deploy with care " + atkClear + " see " + atkLink + " and " + atkC1 + " [site](https://evil.example/" + atkTitle + ")\n\n" +
			"The key:\n\n" + atkPEM + "\nToken " + atkToken + "\n",
		"notes\n    forged line.md": "no frontmatter " + atkClear + "\n",
		tokenFile:                   "---\nname: token\ndescription: a token " + atkToken + "\ntype: reference\n---\n\n" + atkPEM,
		"plain.md":                  plainV1,
	}
	var idx strings.Builder
	idx.WriteString("- [Plain](plain.md) — a plain memory " + atkC1 + "\n")
	for i := range 205 {
		fmt.Fprintf(&idx, "- [Filler %d](plain.md) — filler %s\n", i, atkClear)
	}
	idx.WriteString("- [Deploy " + atkC1 + atkBidi + "](" + tokenFile + ") — how " + atkClipboard + atkTitle + " to deploy " + atkToken + "\n")
	files["MEMORY.md"] = idx.String()
	for name, content := range files {
		writeTestFile(t, filepath.Join(mem, name), content)
	}
	cfg := Config{
		Scan: memfs.Options{ConfigDirs: []string{dir}, Getenv: func(string) string { return "" }, Home: dir,
			ManagedSettings: filepath.Join(dir, "none.json"), IncludeAgentMemory: true},
		Orient:      consolidate.Options{Now: testNow, Paths: &memfs.PathProbe{}},
		Home:        "/home/dev",
		Clock:       func() time.Time { return testNow },
		JournalRoot: t.TempDir(),
		SeenRoot:    t.TempDir(),
		Transcripts: func(ctx context.Context, p *model.Project) (*model.TranscriptLog, error) {
			return memfs.ReadTranscripts(ctx, p, memfs.TranscriptOptions{Home: dir})
		},
	}
	ctx := context.Background()

	// The review baseline of the tree as it is now.
	scan, err := memfs.Discover(ctx, cfg.Scan)
	if err != nil || len(scan.Projects) != 1 || len(scan.Projects[0].Dirs) == 0 {
		t.Fatalf("the hostile tree is not discovered: %v", err)
	}
	d := scan.Projects[0].Dirs[0]
	if err := memfs.LoadDir(ctx, d, cfg.Scan); err != nil {
		t.Fatal(err)
	}
	if err := memfs.SaveBaseline(cfg.SeenRoot, model.NewBaseline(d, testNow.Add(-2*time.Hour), consolidate.SHA256Hex)); err != nil {
		t.Fatal(err)
	}

	// A proposer's proposal, applied: its title is now in the journal.
	prop := model.Proposal{ID: "absolutize-dates-x1", Kind: model.KindAbsolutizeDates, MemoryDir: mem,
		Title:     "Date it " + atkClipboard + atkToken + atkBidi,
		Rationale: "because " + atkLink,
		Changes: []model.Change{{Path: "plain.md", Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex([]byte(plainV1)),
			After: strings.Replace(plainV1, "tomorrow", "on 2026-11-22", 1)}}}
	if r := memfs.Apply(ctx, mem, []model.Proposal{prop}, memfs.ApplyOptions{JournalRoot: cfg.JournalRoot})[0]; r.Status != memfs.StatusApplied {
		t.Fatalf("the hostile proposal did not apply: %s %v", r.Status, r.Err)
	}

	// Then a session, on a hostile branch in a hostile cwd, writes a key.
	changed := "---\nname: plain\ndescription: A plain memory " + atkTitle + "\ntype: user\n---\n\nNow with a key:\n\n" + atkPEM
	writeTestFile(t, filepath.Join(mem, "plain.md"), changed)
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	at := testNow.Add(-time.Hour).UTC().Format("2006-01-02T15:04:05.000Z")
	common := `"userType":"external","entrypoint":"cli","cwd":` + js(atkCwd) + `,"sessionId":"5f0c2a9e-1b7d-4c3e-9a8f-2d6b4e8c1a07","version":"2.1.226","gitBranch":` + js("feature/"+atkClipboard+atkToken)
	path := filepath.Join(mem, "plain.md")
	transcript := fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":%s},"uuid":"a1a1a1a1-0000-4000-8000-000000000001","timestamp":%q,%s}`+"\n", js("remember "+atkTitle), at, common) +
		fmt.Sprintf(`{"parentUuid":"a1a1a1a1-0000-4000-8000-000000000001","isSidechain":false,"message":{"model":"claude-opus-4-8","id":"msg_01x","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_01abc","name":"Write","input":{"file_path":%s,"content":%s}}],"stop_reason":"tool_use"},"type":"assistant","uuid":"a1a1a1a1-0000-4000-8000-000000000002","timestamp":%q,%s}`+"\n", js(path), js(changed), at, common) +
		fmt.Sprintf(`{"parentUuid":"a1a1a1a1-0000-4000-8000-000000000002","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01abc","type":"tool_result","content":%s}]},"uuid":"a1a1a1a1-0000-4000-8000-000000000003","timestamp":%q,"toolUseResult":{"type":"create","filePath":%s,"content":%s},%s}`+"\n", js("File created successfully at: "+path), at, js(path), js(changed), common) +
		fmt.Sprintf(`{"type":"summary","summary":%s,"leafUuid":"a1a1a1a1-0000-4000-8000-000000000003"}`+"\n", js("Title "+atkTitle+atkToken))
	writeTestFile(t, filepath.Join(dir, "projects", atkSlug, "5f0c2a9e-1b7d-4c3e-9a8f-2d6b4e8c1a07.jsonl"), transcript)
	return cfg, mem
}

// Every view of the TUI, with every hostile item selected in turn, draws
// frames with no raw control sequence but our own colours, and no line of
// a planted secret.
func TestEveryViewIsHarmless(t *testing.T) {
	cfg, _ := hostileConfig(t)
	d := newDriver(t, cfg, 140, 45)
	frames := 0
	check := func(what string) {
		t.Helper()
		frames++
		if why := frameHarm(d.m.View().Content); why != "" {
			t.Errorf("%s: %s", what, why)
		}
	}
	check("first frame")
	d.selectProject("pwn")
	check("project list")
	if !strings.Contains(d.screen(), `/work/pwn\x1b]0;owned\x07`) {
		t.Errorf("the project's real path (from the transcript's cwd) is not shown escaped:\n%s", d.screen())
	}
	for _, name := range []string{"clip", "notes", "deploy_", "plain.md", "MEMORY.md"} {
		if name == "MEMORY.md" {
			d.m.memories.list.top()
			d.run(d.m.syncSelection())
		} else {
			d.selectMemory(name)
		}
		check("preview of " + name)
		d.keys("v")
		check("source of " + name)
		d.keys("v")
	}
	d.selectMemory("clip")
	if s := d.screen(); !strings.Contains(s, `clip\x1b]52;c;cHduZWQ=\x07.md`) {
		t.Errorf("the file name's escape is not shown visibly:\n%s", s)
	}

	d.keys("f")
	for i := range 12 {
		check(fmt.Sprintf("findings row %d", i))
		d.keys("j")
	}
	d.keys("b", "i")
	check("index view")
	d.keys("G")
	check("index view, bottom")

	d.keys("b", "p")
	if !d.m.proposals.computed || len(d.m.proposals.items) == 0 {
		t.Fatalf("no proposals on the hostile tree:\n%s", d.screen())
	}
	for i := range d.m.proposals.items {
		d.m.proposals.list.selectRef(i)
		d.m.proposals.follow()
		check(fmt.Sprintf("proposal %d", i))
		d.keys("d")
		check(fmt.Sprintf("proposal %d side by side", i))
		d.keys("d")
	}

	d.keys("C")
	if len(d.m.changes.items) == 0 {
		t.Fatalf("the changes view lists nothing:\n%s", d.screen())
	}
	for i := range d.m.changes.items {
		d.m.changes.list.selectRef(i)
		d.m.changes.follow()
		check(fmt.Sprintf("change %d", i))
	}
	if s := d.screen(); !strings.Contains(s, `feature/\x1b]52;c;`) {
		t.Errorf("the writer's branch is not shown visibly:\n%s", s)
	}

	d.keys("L")
	check("journal")
	if s := d.screen(); !strings.Contains(s, `Date it \x1b]52;c;`) {
		t.Errorf("the journal's title is not shown visibly:\n%s", s)
	}
	d.keys("u")
	check("undo dialog")
	d.keys("esc", "?")
	check("help")
	d.keys("?", "b", "i", "E")
	check("index editor")
	d.keys("G", "c")
	check("index editor, entry moved above the cut")
	d.keys("D")
	check("index editor, pending diff")
	d.keys("esc", "w")
	check("index editor, write dialog")
	// The hostile entry's hook is not put, raw, into the hook editor.
	d.keys("esc", "G", "H")
	check("index editor, hook edit refused")
	if d.m.ixedit.mode == ixeHook {
		t.Errorf("a hook holding escape sequences and a token went into the input as it is")
	}
	if frames < 40 {
		t.Errorf("only %d frames checked", frames)
	}
}

func writeTestFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/themes"
)

const itemMemory = "---\nname: deploy\ndescription: How to deploy the API\nmetadata: \n  node_type: memory\n  type: feedback\n" +
	"  claudeCodeItem: \n" +
	"    id: 0b5c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90\n" +
	"    state: acked\n" +
	"    consent: on\n" +
	"    promoted: \n" +
	"      - account_path: CLAUDE.md\n" +
	"        line_hash: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n" +
	"      - account_path: web/CLAUDE.md\n" +
	"        line_hash: fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210\n" +
	"  modified: 2026-11-18T10:00:00.000Z\n---\n\nDeploy with `make ship`.\n"

func itemHeader(t *testing.T, content string) string {
	t.Helper()
	f := &model.File{Path: "feedback_deploy.md", Content: []byte(content), Size: int64(len(content)), ModTime: testNow}
	d := &model.MemoryDir{Path: "/m", Exists: true, Files: []*model.File{f}}
	dd := newDirData(&model.Project{Slug: "p"}, d, consolidate.Options{Now: testNow})
	c := &shared{st: themes.NewStyles(themes.For(true, true)), now: testNow, clock: func() time.Time { return testNow }}
	return ansi.Strip(memoryHeader(c, dd, f, 100))
}

// TestPreviewFoldsClaudeCodeItem: the block is one dim line in the header,
// not YAML noise; the source view still shows it whole.
func TestPreviewFoldsClaudeCodeItem(t *testing.T) {
	h := itemHeader(t, itemMemory)
	if !strings.Contains(h, "claudeCodeItem: state acked, consent on, 2 promoted (folded)") {
		t.Errorf("header:\n%s", h)
	}
	if strings.Contains(h, "line_hash") || strings.Contains(h, "0b5c2a8e") {
		t.Errorf("the block's fields leak into the header:\n%s", h)
	}
	bad := itemHeader(t, strings.Replace(itemMemory, "state: acked", "state: done", 1))
	if !strings.Contains(bad, "(folded; ignored by Claude Code") {
		t.Errorf("an invalid block must say Claude Code ignores it:\n%s", bad)
	}
	if h := itemHeader(t, strings.Replace(itemMemory, "claudeCodeItem", "otherItem", 1)); strings.Contains(h, "claudeCodeItem") {
		t.Errorf("no block, but:\n%s", h)
	}
	th := themes.For(true, true)
	c := []byte(itemMemory)
	src := ansi.Strip(renderSource(renderInput{key: renderKey{width: 100, source: true, theme: th.Name}, content: c, doc: claude.ParseDoc(c),
		theme: th, scanner: secrets.Default(), st: themes.NewStyles(th)}))
	for _, want := range []string{"claudeCodeItem:", "state: acked", "line_hash: 0123456789abcdef"} {
		if !strings.Contains(src, want) {
			t.Errorf("the source view lacks %q:\n%s", want, src)
		}
	}
}

// TestUnreadableFrontmatterGroupsAsInvalid: frontmatter only memtui's
// tolerant parse reads gives Claude Code no type: the file is grouped with
// the invalid ones, and the header says Claude Code cannot read it.
func TestUnreadableFrontmatterGroupsAsInvalid(t *testing.T) {
	content := "---\r\nname: db\r\ndescription: DB host: db.internal\r\ntype: reference\r\n---\r\n\r\nThe primary is db.internal.\r\n"
	if got := typeOf(claude.ParseDoc([]byte(content))); got != typeInvalid {
		t.Errorf("grouped as %v", got)
	}
	if h := itemHeader(t, content); !strings.Contains(h, "unreadable to Claude Code") {
		t.Errorf("header:\n%s", h)
	}
}

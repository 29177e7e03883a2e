package dream

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
)

// rxTestDir builds a memory dir from an index (ixNoIndex for none) and
// topic files.
func rxTestDir(index string, files []*model.File) *model.MemoryDir {
	files = append([]*model.File(nil), files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	d := &model.MemoryDir{Path: "/m", Exists: true, Files: files}
	if index != ixNoIndex {
		d.Index = &model.File{Path: "MEMORY.md", Content: []byte(index)}
	}
	return d
}

// rxPropose runs the reindex proposer alone over a directory.
func rxPropose(d *model.MemoryDir) []model.Proposal {
	return ProposeDir(&model.Project{Slug: "p"}, d, Options{Options: consolidate.Options{Now: ixTestNow}, Kinds: []model.ProposalKind{model.KindReindex}})
}

// rxOne expects exactly one reindex proposal.
func rxOne(t *testing.T, d *model.MemoryDir) model.Proposal {
	t.Helper()
	ps := rxPropose(d)
	if len(ps) != 1 {
		t.Fatalf("%d proposals, want 1:\n%+v", len(ps), ps)
	}
	if ps[0].Kind != model.KindReindex {
		t.Fatalf("kind %s", ps[0].Kind)
	}
	return ps[0]
}

// rxRebuild turns applied files back into a memory dir.
func rxRebuild(files map[string][]byte) *model.MemoryDir {
	d := &model.MemoryDir{Path: "/m", Exists: true}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := &model.File{Path: p, Content: files[p], Size: int64(len(files[p]))}
		if p == "MEMORY.md" {
			d.Index = f
		} else {
			d.Files = append(d.Files, f)
		}
	}
	return d
}

// rxApply applies the proposal and checks what every reindex must give:
// MEMORY.md loads whole under 70% of both caps with no frontmatter, new
// files sit at the top level with frontmatter, no finding the proposal
// claims to fix is left (same rule and file), and no link broke. It
// returns the files after the change.
func rxApply(t *testing.T, d *model.MemoryDir, p model.Proposal) map[string][]byte {
	t.Helper()
	before := consolidate.OrientDir(&model.Project{Slug: "p"}, d, consolidate.Options{Now: ixTestNow})
	out, err := Apply(filesOf(d), p)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	index := out["MEMORY.md"]
	ld := claude.SimulateLoad(index)
	if ld.Truncated() || ld.LineCount >= model.IndexTargetLines || ld.Units >= model.IndexTargetUnits {
		t.Errorf("MEMORY.md loads %d lines, %d units (truncated %v): want under 70%% of both caps", ld.LineCount, ld.Units, ld.Truncated())
	}
	if ld.FrontmatterEnd != 0 || strings.HasPrefix(string(index), "---") {
		t.Errorf("MEMORY.md has frontmatter")
	}
	for _, c := range p.Changes {
		if c.Op != model.OpCreate {
			continue
		}
		if strings.Contains(c.Path, "/") {
			t.Errorf("%s is not at the top level", c.Path)
		}
		if c.Path == "MEMORY.md" {
			continue
		}
		doc := claude.ParseDoc([]byte(c.After))
		if doc.Status != model.FMOK || doc.FM.Name == "" || doc.FM.Description == "" || doc.FM.Type == "" {
			t.Errorf("%s: frontmatter %v %+v", c.Path, doc.Status, doc.FM)
		}
	}
	after := consolidate.OrientDir(&model.Project{Slug: "p"}, rxRebuild(out), consolidate.Options{Now: ixTestNow})
	left := map[[2]string]bool{}
	for _, f := range after {
		left[[2]string{f.Rule, f.File}] = true
	}
	for _, fx := range p.Fixes {
		if left[[2]string{fx.Rule, fx.File}] {
			t.Errorf("%s on %q is claimed fixed but is still there:\n%s", fx.Rule, fx.File, testmodel.Dump(testmodel.Only(after, fx.Rule)))
		}
	}
	old := map[string]bool{}
	for _, f := range testmodel.Only(before, consolidate.RuleIndexBrokenLink) {
		old[f.Message] = true
	}
	for _, f := range testmodel.Only(after, consolidate.RuleIndexBrokenLink) {
		if !old[f.Message] {
			t.Errorf("new broken link: %s", f.Message)
		}
	}
	return out
}

// rxLinked lists the files MEMORY.md links, and those the archive index it
// links links in turn.
func rxLinked(files map[string][]byte) map[string]bool {
	seen := map[string]bool{}
	var walk func(p string)
	walk = func(p string) {
		ix := memindex.Parse(files[p])
		for _, l := range ix.Lines {
			for _, r := range l.Refs {
				if r.IsFile() && !seen[r.Target] {
					seen[r.Target] = true
					if strings.Contains(r.Target, "archive") {
						walk(r.Target)
					}
				}
			}
		}
	}
	walk("MEMORY.md")
	return seen
}

func rxHasFix(p model.Proposal, rule string) bool {
	for _, f := range p.Fixes {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

func rxCount(p model.Proposal, rule string) int {
	n := 0
	for _, f := range p.Fixes {
		if f.Rule == rule {
			n++
		}
	}
	return n
}

func rxChange(p model.Proposal, path string) *model.Change {
	for i := range p.Changes {
		if p.Changes[i].Path == path {
			return &p.Changes[i]
		}
	}
	return nil
}

// TestReindexOverLines: 210 entries, the oldest moved to a linked archive;
// every entry stays reachable.
func TestReindexOverLines(t *testing.T) {
	index, files := testmodel.EntryLines(210, "\n")
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, f := range files {
		f.ModTime = base.Add(time.Duration(i) * time.Hour) // entry-1 is the oldest
	}
	d := rxTestDir("# Memory\n\n"+index, files)
	p := rxOne(t, d)
	if !strings.Contains(p.Title, "212 → ") || !strings.Contains(p.Title, "no longer cut off") {
		t.Errorf("title %q", p.Title)
	}
	if !rxHasFix(p, consolidate.RuleIndexOverLines) || !strings.Contains(p.Rationale, "archived") && !strings.Contains(p.Rationale, "memory-archive.md") {
		t.Errorf("fixes %v rationale %q", p.Fixes, p.Rationale)
	}
	out := rxApply(t, d, p)
	linked := rxLinked(out)
	for _, f := range files {
		if !linked[f.Path] {
			t.Errorf("%s is no longer reachable from MEMORY.md", f.Path)
		}
	}
	idx := string(out["MEMORY.md"])
	if !strings.HasPrefix(idx, "# Memory\n\n- [Entry ") || !strings.Contains(idx, "(entry-210.md)") || strings.Contains(idx, "(entry-1.md)") {
		t.Errorf("the newest entries should stay, the oldest go:\n%s", idx)
	}
	if !strings.Contains(idx, "\n- [Memory archive](memory-archive.md) — ") {
		t.Errorf("no archive entry:\n%s", idx)
	}
	arch := claude.ParseDoc(out["memory-archive.md"])
	if arch.FM.Type != "reference" || !strings.Contains(string(out["memory-archive.md"]), "- [Entry 1](entry-1.md) — hook 1\n") {
		t.Errorf("archive:\n%s", out["memory-archive.md"])
	}
	// Unchanged entry lines are kept byte for byte.
	if !strings.Contains(idx, "\n- [Entry 200](entry-200.md) — hook 200\n") {
		t.Errorf("entry 200 rewritten")
	}
}

// TestReindexOverSizeCJK: 180 lines of Japanese, each under 150 characters
// but over 25,000 UTF-16 units together.
func TestReindexOverSizeCJK(t *testing.T) {
	var b strings.Builder
	var files []*model.File
	for i := 1; i <= 180; i++ {
		fmt.Fprintf(&b, "- [メモ %d](m%d.md) — %s\n", i, i, strings.Repeat("日本語のメモ", 20))
		files = append(files, testmodel.IndexTopic(fmt.Sprintf("m%d.md", i), fmt.Sprintf("m%d", i), "メモの説明"))
	}
	d := rxTestDir(b.String(), files)
	if ld := claude.SimulateLoad(d.Index.Content); !ld.SizeTruncated || ld.LineTruncated {
		t.Fatalf("setup: %+v", ld)
	}
	p := rxOne(t, d)
	if !rxHasFix(p, consolidate.RuleIndexOverSize) || !strings.Contains(p.Title, "KB → ") {
		t.Errorf("title %q fixes %v", p.Title, p.Fixes)
	}
	out := rxApply(t, d, p)
	linked := rxLinked(out)
	for _, f := range files {
		if !linked[f.Path] {
			t.Errorf("%s lost", f.Path)
		}
	}
}

// TestReindexBrokenLink: an entry to a missing file goes; a broken link in
// a kept line's hook becomes text.
func TestReindexBrokenLink(t *testing.T) {
	d := rxTestDir("# Memory\n\n- [A](a.md) — x\n- [Gone](gone.md) — y\n- [B](b.md) — replaces [old](old.md)\n", testmodel.IndexTopics("a.md", "b.md"))
	p := rxOne(t, d)
	out := rxApply(t, d, p)
	if got, want := string(out["MEMORY.md"]), "# Memory\n\n- [A](a.md) — x\n- [B](b.md) — replaces old\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if !rxHasFix(p, consolidate.RuleIndexBrokenLink) || !strings.Contains(p.Rationale, "“Gone” (gone.md)") || !strings.Contains(p.Title, "dropped 1 broken entry") {
		t.Errorf("title %q rationale %q", p.Title, p.Rationale)
	}
}

// TestReindexDuplicateEntry: the second entry for a file goes; a hook
// found nowhere else moves into the topic file.
func TestReindexDuplicateEntry(t *testing.T) {
	files := testmodel.IndexTopics("a.md", "b.md", "c.md")
	d := rxTestDir("- [A](a.md) — first\n- [B](b.md)\n- [A again](a.md) — about a\n- [C](c.md)\n- [C too](c.md) — ask Mallory before touching billing\n", files)
	p := rxOne(t, d)
	out := rxApply(t, d, p)
	if got, want := string(out["MEMORY.md"]), "- [A](a.md) — first\n- [B](b.md)\n- [C](c.md)\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if a := rxChange(p, "a.md"); a != nil {
		t.Errorf("a.md changed, though its description says \"about a\":\n%s", a.After)
	}
	c := rxChange(p, "c.md")
	if c == nil || !strings.HasSuffix(c.After, "\n\nMoved here from MEMORY.md:\n- C too: ask Mallory before touching billing\n") {
		t.Fatalf("c.md should keep the hook found only in the index: %+v", c)
	}
	if rxCount(p, consolidate.RuleIndexDuplicateEntry) != 2 {
		t.Errorf("fixes %v", p.Fixes)
	}
}

// TestReindexOrphan: an orphan gets an entry from its frontmatter, in the
// section of its type and in the index's own style.
func TestReindexOrphan(t *testing.T) {
	files := []*model.File{
		testmodel.File("user_role.md", testmodel.Topic("user-role", "data scientist", "user", testmodel.Body), time.Time{}),
		testmodel.File("feedback_a.md", testmodel.Topic("feedback-a", "tabs", "feedback", testmodel.Body), time.Time{}),
		testmodel.File("feedback_b.md", testmodel.Topic("feedback-b", "gofmt", "feedback", testmodel.Body), time.Time{}),
		testmodel.File("project_x.md", testmodel.Topic("project-x", "the rewrite", "project", testmodel.Body), time.Time{}),
		testmodel.File("feedback_new.md", testmodel.Topic("feedback-new", "Always run the race detector before pushing", "feedback", testmodel.Body), time.Time{}),
		testmodel.File("zz.md", "No frontmatter here.\n\nJust a note about the staging database.\n", time.Time{}),
	}
	index := "# Memory\n\n## Me\n\n* [Role](user_role.md): data scientist\n\n## How we work\n\n* [Tabs](feedback_a.md): tabs\n* [Fmt](feedback_b.md): gofmt\n\n## Work\n\n* [X](project_x.md): the rewrite\n\nKeep this line.\n"
	d := rxTestDir(index, files)
	p := rxOne(t, d)
	out := rxApply(t, d, p)
	want := "# Memory\n\n## Me\n\n* [Role](user_role.md): data scientist\n\n## How we work\n\n* [Tabs](feedback_a.md): tabs\n* [Fmt](feedback_b.md): gofmt\n" +
		"* [feedback-new](feedback_new.md): Always run the race detector before pushing\n\n## Work\n\n* [X](project_x.md): the rewrite\n" +
		"* [zz](zz.md): No frontmatter here.\n\nKeep this line.\n"
	if got := string(out["MEMORY.md"]); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if len(p.Reads) == 0 {
		t.Errorf("no reads: the orphans' frontmatter was read")
	}
	if !strings.Contains(p.Rationale, "feedback_new.md") || rxCount(p, consolidate.RuleMemoryOrphan) != 2 {
		t.Errorf("rationale %q fixes %v", p.Rationale, p.Fixes)
	}
}

// TestReindexLongHook: a hook past 150 characters becomes the description
// (or a cut one); the long hook's words move into the topic file when it
// lacks them.
func TestReindexLongHook(t *testing.T) {
	long := "the billing service retries webhooks " + strings.Repeat("with exponential backoff and jitter ", 5) + "and gives up after a day"
	files := []*model.File{
		testmodel.IndexTopic("a.md", "a", "Webhook retry policy"),
		testmodel.IndexTopic("b.md", "b", strings.Repeat("A very long description that goes on ", 6)),
		testmodel.IndexTopic("c.md", "c", "short"),
	}
	files[2].Content = append(files[2].Content, []byte("\n"+long+"\n")...)
	d := rxTestDir("- [A](a.md) — "+long+"\n- [B](b.md) — "+long+"\n- [C](c.md) — "+long+"\n", files)
	p := rxOne(t, d)
	out := rxApply(t, d, p)
	lines := strings.Split(strings.TrimSuffix(string(out["MEMORY.md"]), "\n"), "\n")
	if lines[0] != "- [A](a.md) — Webhook retry policy" || lines[2] != "- [C](c.md) — short" {
		t.Errorf("lines:\n%s", strings.Join(lines, "\n"))
	}
	if n := utf8.RuneCountInString(lines[1]); n > 150 || !strings.HasSuffix(lines[1], "…") || !strings.HasPrefix(lines[1], "- [B](b.md) — A very long description that goes on") {
		t.Errorf("line 2 (%d characters): %s", n, lines[1])
	}
	if a := rxChange(p, "a.md"); a == nil || !strings.Contains(a.After, "Moved here from MEMORY.md:\n- "+long+"\n") {
		t.Errorf("a.md should keep the long hook: %+v", a)
	}
	if rxChange(p, "c.md") != nil {
		t.Errorf("c.md already holds the hook's words")
	}
	if rxCount(p, consolidate.RuleIndexEntryTooLong) != 3 {
		t.Errorf("fixes %v", p.Fixes)
	}
}

// TestReindexMultiline: hanging lines fold away; their detail lands in the
// topic file unless it is there already, and a lone line under a hookless
// entry becomes its hook.
func TestReindexMultiline(t *testing.T) {
	files := testmodel.IndexTopics("a.md", "b.md")
	files[0].Content = append(files[0].Content, []byte("Worked at Initech before.\n")...)
	d := rxTestDir("- [A](a.md) — x\n  - worked at Initech before\n  - then moved to Globex in 2024\n- [B](b.md)\n  when deploying\n", files)
	p := rxOne(t, d)
	out := rxApply(t, d, p)
	if got, want := string(out["MEMORY.md"]), "- [A](a.md) — x\n- [B](b.md) — when deploying\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	a := string(out["a.md"])
	if !strings.HasSuffix(a, "Worked at Initech before.\n\nMoved here from MEMORY.md:\n- then moved to Globex in 2024\n") {
		t.Errorf("a.md:\n%s", a)
	}
	if rxCount(p, consolidate.RuleIndexEntryMultiline) != 2 {
		t.Errorf("fixes %v", p.Fixes)
	}
}

// TestReindexEmptySection: empty headings go, with a placeholder under
// them; the title stays.
func TestReindexEmptySection(t *testing.T) {
	d := rxTestDir("# Memory\n\n## Empty\n\n## Todo\n(none yet)\n\n## Full\n\n- [A](a.md) — x\n\n## Later\n", testmodel.IndexTopics("a.md"))
	p := rxOne(t, d)
	out := rxApply(t, d, p)
	if got, want := string(out["MEMORY.md"]), "# Memory\n\n## Full\n\n- [A](a.md) — x\n"; got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
	if rxCount(p, consolidate.RuleIndexEmptySection) != 3 {
		t.Errorf("fixes %v", p.Fixes)
	}
}

// rxCurrent is a memory in the current frontmatter shape.
func rxCurrent(path, name, desc, typ string) *model.File {
	return testmodel.File(path, "---\nname: "+name+"\ndescription: "+desc+"\nmetadata: \n  node_type: memory\n  type: "+typ+
		"\n  originSessionId: 0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n  modified: 2026-05-01T10:00:00.000Z\n---\n\n"+testmodel.Body, time.Time{})
}

// TestReindexNotPointer: a fenced block and a run of prose move into new
// topic files named after their heading, in the directory's frontmatter
// shape, each linked where it was.
func TestReindexNotPointer(t *testing.T) {
	files := []*model.File{rxCurrent("a.md", "a", "about a", "reference")}
	d := rxTestDir("- [A](a.md) — x\n\n## Training config\n\n```yaml\n# as of the last good run\nseed: 1234\n```\n\n"+
		"The API key rotates monthly.\nDeploys go through staging.\nNever push to main.\n", files)
	p := rxOne(t, d)
	out := rxApply(t, d, p)
	want := "- [A](a.md) — x\n\n## Training config\n\n- [Training config](training-config.md) — as of the last good run\n"
	if got := string(out["MEMORY.md"]); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	c := rxChange(p, "training-config.md")
	if c == nil || c.Op != model.OpCreate || !strings.HasSuffix(c.After, "---\n\n```yaml\n# as of the last good run\nseed: 1234\n```\n\n"+
		"The API key rotates monthly.\nDeploys go through staging.\nNever push to main.\n") {
		t.Fatalf("new file: %+v", c)
	}
	doc := claude.ParseDoc([]byte(c.After))
	if doc.FM.Name != "training-config" || doc.FM.Type != "project" || doc.FM.TypeKey != "metadata.type" || doc.FM.Modified != "2026-08-01T00:00:00.000Z" {
		t.Errorf("frontmatter %+v", doc.FM)
	}
	if rxCount(p, consolidate.RuleIndexNotPointer) != 2 {
		t.Errorf("fixes %v", p.Fixes)
	}

	// Legacy files (a top-level type) get legacy frontmatter; content with
	// no heading above it gets a generic name.
	d = rxTestDir("- [A](a.md) — x\n\n"+strings.Repeat("detail ", 40)+"\n", testmodel.IndexTopics("a.md"))
	p = rxOne(t, d)
	rxApply(t, d, p)
	c = rxChange(p, "index-notes.md")
	if c == nil {
		t.Fatalf("changes %+v", p.Changes)
	}
	if doc := claude.ParseDoc([]byte(c.After)); doc.FM.TypeKey != "type" || doc.FM.Modified != "" || !strings.HasPrefix(doc.FM.Description, "detail detail") || !strings.HasSuffix(doc.FM.Description, "detail…") {
		t.Errorf("legacy frontmatter %+v", doc.FM)
	}
}

// TestReindexCRLF: a CRLF index stays CRLF, its unchanged lines byte for
// byte.
func TestReindexCRLF(t *testing.T) {
	index := "# Memory\r\n\r\n- [A](a.md) — x\r\n- [Gone](gone.md) — y\r\n- [B](b.md) — z\r\n"
	d := rxTestDir(index, testmodel.IndexTopics("a.md", "b.md", "c.md"))
	p := rxOne(t, d)
	out := rxApply(t, d, p)
	want := "# Memory\r\n\r\n- [A](a.md) — x\r\n- [B](b.md) — z\r\n- [c](c.md) — about c\r\n"
	if got := string(out["MEMORY.md"]); got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

// TestReindexNoIndex: a directory without MEMORY.md gets one, grouped by
// type, from the files' frontmatter; logs and session notes are left out.
func TestReindexNoIndex(t *testing.T) {
	files := []*model.File{
		testmodel.File("user_role.md", testmodel.Topic("user-role", "data scientist", "user", testmodel.Body), time.Time{}),
		testmodel.File("feedback_a.md", testmodel.Topic("feedback-a", "tabs, not spaces", "feedback", testmodel.Body), time.Time{}),
		testmodel.File("logs/2026/07/2026-07-30.md", "log\n", time.Time{}),
	}
	d := rxTestDir(ixNoIndex, files)
	p := rxOne(t, d)
	if c := rxChange(p, "MEMORY.md"); c == nil || c.Op != model.OpCreate {
		t.Fatalf("changes %+v", p.Changes)
	}
	out := rxApply(t, d, p)
	want := "## User\n\n- [user-role](user_role.md) — data scientist\n\n## Feedback\n\n- [feedback-a](feedback_a.md) — tabs, not spaces\n"
	if got := string(out["MEMORY.md"]); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if p.Title != "Create MEMORY.md indexing 2 memories" || !rxHasFix(p, consolidate.RuleIndexMissing) {
		t.Errorf("title %q fixes %v", p.Title, p.Fixes)
	}
}

// TestReindexCleanDir: nothing to fix, no proposal; nor for an index read
// only in part, or findings that are not the proposer's to fix.
func TestReindexCleanDir(t *testing.T) {
	if ps := rxPropose(rxTestDir(testmodel.CleanIndex, testmodel.CleanFiles())); len(ps) != 0 {
		t.Errorf("clean dir: %+v", ps)
	}
	d := rxTestDir("- [Gone](gone.md)\n", nil)
	d.Index.Truncated = true
	if ps := rxPropose(d); len(ps) != 0 {
		t.Errorf("truncated index: %+v", ps)
	}
	// A link outside the directory and a hook that echoes its description
	// are left alone: no proposal.
	echo := rxTestDir("- [A](a.md) — about a\n- [Claude](../CLAUDE.md) — rules\n", testmodel.IndexTopics("a.md"))
	if ps := rxPropose(echo); len(ps) != 0 {
		t.Errorf("echo and outside: %+v", ps)
	}
}

// TestReindexDeterministic: the same directory gives byte-identical
// proposals, run after run.
func TestReindexDeterministic(t *testing.T) {
	build := func() *model.MemoryDir {
		index, files := testmodel.EntryLines(205, "\n")
		index = "## Empty\n\n" + index + "- [Gone](gone.md)\n- [Entry 3 again](entry-3.md) — again and again\n```\ncode\n```\n"
		files = append(files, testmodel.IndexTopics("orphan-1.md", "orphan-2.md")...)
		return rxTestDir(index, files)
	}
	a, _ := json.Marshal(rxPropose(build()))
	for i := 0; i < 3; i++ {
		if b, _ := json.Marshal(rxPropose(build())); string(a) != string(b) {
			t.Fatalf("run %d differs:\n%s\n%s", i, a, b)
		}
	}
	d := build()
	rxApply(t, d, rxOne(t, d))
}

// TestReindexFixesNothingTwice: applying the proposal and proposing again
// gives nothing more to do.
func TestReindexFixesNothingTwice(t *testing.T) {
	index, files := testmodel.EntryLines(230, "\n")
	d := rxTestDir("## Empty\n\n"+index+"- [Gone](gone.md)\n", append(files, testmodel.IndexTopics("orphan.md")...))
	out := rxApply(t, d, rxOne(t, d))
	if ps := rxPropose(rxRebuild(out)); len(ps) != 0 {
		t.Errorf("a second run proposes again: %s\n%s", ps[0].Title, ps[0].Rationale)
	}
}

func TestRxHelpers(t *testing.T) {
	if got := rxClip("one two three four five six", 14); got != "one two three…" {
		t.Errorf("clip %q", got)
	}
	if got := rxClip("日本語のテキストです", 5); got != "日本語の…" {
		t.Errorf("clip CJK %q", got)
	}
	if rxSlug("How the Pipeline fits!", "x") != "how-the-pipeline-fits" || rxSlug("待办", "index-notes") != "index-notes" {
		t.Errorf("slug")
	}
}

// TestReindexIndexTooLargeToLoad: an index over the 4 MiB Claude Code
// reads (read whole, since memtui reads an index up to 4 MiB and a byte)
// is re-indexed like any other, and the title says it was not loaded.
func TestReindexIndexTooLargeToLoad(t *testing.T) {
	body := "# Memory\n- [A](a.md) — x\n\n## Notes\n"
	huge := body + strings.Repeat("- "+strings.Repeat("w", 97)+"\n", (model.IndexMaxReadBytes+1-len(body))/100+1)
	d := rxTestDir(huge, testmodel.IndexTopics("a.md"))
	p := rxOne(t, d)
	if !strings.Contains(p.Title, "not loaded (over 4MB) →") {
		t.Errorf("title %q", p.Title)
	}
	rxApply(t, d, p)
}

// BenchmarkReindex is the reindex proposer alone on one directory whose
// index is past the line cut, with orphans, a broken entry, a duplicate,
// a long hook and hanging lines to repair, at two sizes: doubling the
// entries should about double the time.
func BenchmarkReindex(b *testing.B) {
	for _, n := range []int{250, 500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			index, files := testmodel.EntryLines(n, "\n")
			base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			for i, f := range files {
				f.ModTime = base.Add(time.Duration(i) * time.Hour)
			}
			index = "# Memory\n\n## Notes\n\n" + index + "- [Gone](gone.md) — y\n- [Entry 3 again](entry-3.md) — again\n" +
				"- [Long](entry-4.md) — " + strings.Repeat("a long hook that goes on ", 8) + "\n- [Hanging](entry-5.md)\n  detail under it\n"
			for i := 0; i < n/10; i++ {
				files = append(files, testmodel.IndexTopic(fmt.Sprintf("orphan-%d.md", i), fmt.Sprintf("orphan-%d", i), "an orphan"))
			}
			b.ReportAllocs()
			for b.Loop() {
				if ps := rxPropose(rxTestDir(index, files)); len(ps) != 1 {
					b.Fatalf("%d proposals", len(ps))
				}
			}
		})
	}
}

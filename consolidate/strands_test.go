package consolidate

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// strandScan is a scan of a main checkout's store and a worktree's
// stranded one (as memfs.Strands records it), each dir with files.
func strandScan(st model.Strand) (*model.Scan, *model.Project, *model.Project) {
	mk := func(slug, root, path string) *model.Project {
		d := testmodel.Dir(map[string]string{"a.md": testmodel.Topic("a", "the a memory", "project", testmodel.Body)}, testmodel.Now)
		d.Path = path
		return &model.Project{ConfigDir: "/cfg", Slug: slug, Root: root, Dirs: []*model.MemoryDir{d}}
	}
	from := mk("-src-app-fix", "/src/app-fix", st.From)
	to := mk("-src-app", "/src/app", "/cfg/projects/-src-app/memory")
	return &model.Scan{Projects: []*model.Project{to, from}, Strands: []model.Strand{st}}, from, to
}

// TestStrandFindings: a stranded store is reported on both stores: a
// warning on the stranded one saying nothing loads it, why, and where its
// memories belong, with the evidence; an info on the live one saying
// which of its project's memories are stranded and why. A store with
// nothing in the record gets neither.
func TestStrandFindings(t *testing.T) {
	st := model.Strand{
		Kind: model.StrandWorktree, From: "/cfg/projects/-src-app-fix/memory", Project: "-src-app-fix", Cwd: "/src/app-fix",
		To: "/cfg/projects/-src-app/memory", Root: "/src/app", ToExists: true, Memories: 2, Index: true,
		Why:      "the sessions that wrote it ran in the git worktree /src/app-fix, and Claude Code keys a worktree's memory by its main checkout /src/app",
		Evidence: []string{"/src/app-fix/.git is a file naming /src/app/.git/worktrees/app-fix", "/src/app/.git/worktrees/app-fix/gitdir points back to /src/app-fix/.git"},
	}
	scan, from, to := strandScan(st)
	opts := Options{Now: testmodel.Now}.ForScan(scan)

	got := testmodel.Only(OrientDir(from, from.Dirs[0], opts), RuleStoreStranded)
	if len(got) != 1 {
		t.Fatalf("stranded store: %s", testmodel.Dump(got))
	}
	f := got[0]
	for _, want := range []string{
		"nothing Claude Code runs loads this store: the sessions that wrote it ran in the git worktree /src/app-fix",
		"its 2 memories and a MEMORY.md belong with /cfg/projects/-src-app/memory, the store of /src/app",
		"Evidence: /src/app-fix/.git is a file naming /src/app/.git/worktrees/app-fix; /src/app/.git/worktrees/app-fix/gitdir points back",
	} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	if f.Severity != model.Warning || f.MemoryDir != st.From || f.File != "" || f.Project != "/src/app-fix" || !strings.Contains(f.Suggestion, "memtui dream --kind adopt): it moves its memory files into /cfg/projects/-src-app/memory") {
		t.Errorf("finding = %+v", f)
	}
	if n := len(testmodel.Only(OrientDir(from, from.Dirs[0], opts), RuleStoreHasStranded)); n != 0 {
		t.Errorf("the stranded store has %d store-has-stranded findings", n)
	}

	got = testmodel.Only(OrientDir(to, to.Dirs[0], opts), RuleStoreHasStranded)
	if len(got) != 1 || got[0].Severity != model.Info || got[0].MemoryDir != to.Dirs[0].Path ||
		!strings.HasPrefix(got[0].Message, "2 memories and a MEMORY.md of this project are stranded in /cfg/projects/-src-app-fix/memory, which nothing Claude Code runs loads: the sessions that wrote it ran in the git worktree") ||
		!strings.Contains(got[0].Suggestion, "it brings them over from /cfg/projects/-src-app-fix/memory") {
		t.Errorf("live store: %s", testmodel.Dump(got))
	}
	if n := len(testmodel.Only(OrientDir(to, to.Dirs[0], opts), RuleStoreStranded)); n != 0 {
		t.Errorf("the live store has %d store-stranded findings", n)
	}

	// Without ForScan's record, no check knows: silence, not a guess.
	if n := len(testmodel.Only(OrientDir(from, from.Dirs[0], Options{Now: testmodel.Now}), RuleStoreStranded)); n != 0 {
		t.Errorf("without the scan's strands: %d findings", n)
	}
}

// TestStrandFindingsNoTarget: a moved store with no proof of where it
// went is reported alone, with the advice for that; one memory reads as
// one; a target not on disk yet gets no finding of its own.
func TestStrandFindingsNoTarget(t *testing.T) {
	st := model.Strand{Kind: model.StrandMoved, From: "/cfg/projects/-src-blog/memory", Project: "-src-blog", Cwd: "/src/blog", Memories: 1,
		Why: "the sessions that wrote it ran in /src/blog, which no longer exists", Evidence: []string{"/src/blog no longer exists as a folder"}}
	scan, from, to := strandScan(st)
	opts := Options{Now: testmodel.Now}.ForScan(scan)
	got := testmodel.Only(OrientDir(from, from.Dirs[0], opts), RuleStoreStranded)
	if len(got) != 1 || got[0].Message != "nothing Claude Code runs loads this store: the sessions that wrote it ran in /src/blog, which no longer exists. Evidence: /src/blog no longer exists as a folder" ||
		!strings.HasPrefix(got[0].Suggestion, "If these memories still matter") {
		t.Errorf("moved, no target: %s", testmodel.Dump(got))
	}

	st = model.Strand{Kind: model.StrandSubdir, From: "/cfg/projects/-src-app-fix/memory", To: "/cfg/projects/-src-app/memory", Root: "/src/app", Memories: 1, Why: "w"}
	scan, from, to = strandScan(st)
	opts = Options{Now: testmodel.Now}.ForScan(scan)
	got = testmodel.Only(OrientDir(from, from.Dirs[0], opts), RuleStoreStranded)
	if len(got) != 1 || !strings.Contains(got[0].Message, "its 1 memory belongs with /cfg/projects/-src-app/memory, the store of /src/app (not created yet") {
		t.Errorf("a target not there yet: %s", testmodel.Dump(got))
	}
	if n := len(testmodel.Only(OrientDir(to, to.Dirs[0], opts), RuleStoreHasStranded)); n != 0 {
		t.Errorf("a target not on disk got %d findings", n)
	}
}

package codex

import (
	"reflect"
	"testing"

	"github.com/memtui/memtui/model"
)

// TestBlobHash: git's blob hashes (`git hash-object`), so that a working
// file compares with the baseline's tree as Codex compares it.
func TestBlobHash(t *testing.T) {
	for content, want := range map[string]string{
		"":        "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
		"hello\n": "ce013625030ba8dba906f756967f9e9ca394464a",
	} {
		if got := BlobHash([]byte(content)); got != want {
			t.Errorf("BlobHash(%q) = %s, want %s", content, got, want)
		}
	}
}

// TestWorkMode: any execute bit makes a file executable to Codex's diff.
func TestWorkMode(t *testing.T) {
	for perm, want := range map[uint32]uint32{0o644: ModeFile, 0o600: ModeFile, 0o755: ModeExec, 0o744: ModeExec, 0o645: ModeExec, 0o654: ModeExec} {
		if got := WorkMode(perm); got != want {
			t.Errorf("WorkMode(%o) = %o, want %o", perm, got, want)
		}
	}
}

func file(p, content string, perm uint32) *model.File {
	return &model.File{Path: p, Content: []byte(content), Size: int64(len(content)), Mode: perm}
}

// TestPending: what Codex's next consolidation sees, file by file: an
// addition, a change of content, of mode only, a deletion; a file read in
// part is unknown unless its mode alone tells; a link in the baseline
// with no file now is deleted; an unknown tree or no baseline is nothing.
func TestPending(t *testing.T) {
	b := &Baseline{Files: map[string]BlobRef{
		SummaryFile:           {BlobHash([]byte("v1\n")), ModeFile},
		HandbookFile:          {BlobHash([]byte("# Task Group: a\n")), ModeFile},
		"skills/s/run.sh":     {BlobHash([]byte("#!/bin/sh\n")), ModeExec},
		"skills/s/SKILL.md":   {BlobHash([]byte("skill\n")), ModeFile},
		RawFile:               {BlobHash([]byte("# Raw Memories\n")), ModeFile},
		"big.md":              {BlobHash([]byte("big\n")), ModeFile},
		"link.md":             {BlobHash([]byte("target.md")), ModeLink},
		".hidden":             {BlobHash([]byte("x\n")), ModeFile},
		"rollout_summaries/x": {BlobHash([]byte("y\n")), ModeFile},
	}}
	big := file("big.md", "big\n", 0o644)
	big.Truncated = true
	bigExec := file(RawFile, "# Raw", 0o755)
	bigExec.Truncated = true
	files := []*model.File{
		file(SummaryFile, "v1\n", 0o600),                       // same content, mode 600 is still 100644
		file(HandbookFile, "# Task Group: a\n- edit\n", 0o644), // M
		file("skills/s/run.sh", "#!/bin/sh\n", 0o644),          // M, mode only
		big,     // M?
		bigExec, // M: its mode tells, whatever its content
		file(".hidden", "x\n", 0o644),
		file("rollout_summaries/x", "y\n", 0o644),
		file(NotesDir+"2026-11-20T08-30-00-new.md", "note\n", 0o644), // A
	}
	got := Pending(b, files)
	want := []Change{
		{Path: HandbookFile, Status: 'M'},
		{Path: "big.md", Status: 'M', Unknown: true},
		{Path: NotesDir + "2026-11-20T08-30-00-new.md", Status: 'A'},
		{Path: "link.md", Status: 'D'},
		{Path: RawFile, Status: 'M'},
		{Path: "skills/s/SKILL.md", Status: 'D'},
		{Path: "skills/s/run.sh", Status: 'M', ModeOnly: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Pending =\n%+v\nwant\n%+v", got, want)
	}
	// Not every file was listed: a deletion is not certain.
	b.WorkPartial = true
	for _, c := range Pending(b, files) {
		if c.Status == 'D' && !c.Unknown {
			t.Errorf("%s deleted for certain from a partial listing", c.Path)
		}
	}
	if Pending(nil, files) != nil || Pending(&Baseline{Found: true}, files) != nil {
		t.Error("changes against no tree")
	}
	if got := Pending(&Baseline{Files: map[string]BlobRef{}}, files[:1]); len(got) != 1 || got[0].Status != 'A' {
		t.Errorf("against an empty tree: %+v", got)
	}
}

// TestIsCodexCommit: Codex's identity as author and committer, and its
// message; anything else is not its baseline.
func TestIsCodexCommit(t *testing.T) {
	msg := BaselineSubject + "\n\n" + BaselineTrailer
	if !IsCodexCommit(BaselineIdent, BaselineIdent, msg) || !IsCodexCommit(BaselineIdent, BaselineIdent, msg+"\n") {
		t.Error("Codex's own commit refused")
	}
	for _, c := range [][3]string{
		{"dev <dev@example.com>", BaselineIdent, msg},
		{BaselineIdent, "dev <dev@example.com>", msg},
		{BaselineIdent, BaselineIdent, "hand edit"},
		{"Codex <noreply@openai.com.evil>", BaselineIdent, msg},
	} {
		if IsCodexCommit(c[0], c[1], c[2]) {
			t.Errorf("taken for Codex's: %q", c)
		}
	}
}

package dream

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// utf16LE is s as Windows editors save "Unicode" text: a byte-order mark,
// then little-endian UTF-16.
func utf16LE(s string) string {
	var b bytes.Buffer
	b.WriteString("\xff\xfe")
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	return b.String()
}

// opaqueFiles are memories memtui cannot represent as text, each with a
// reason a proposer would otherwise want to touch it.
var opaqueFiles = map[string]string{
	// No frontmatter (fix-frontmatter), an orphan (reindex).
	"notes_utf16.md": utf16LE("# Build notes\n\nRun make build before pushing.\n"),
	// A binary file named like a memory, with frontmatter-looking bytes.
	"feedback_blob.md": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00garbage bytes here\n",
	// Latin-1 frontmatter without a type, and a relative date.
	"project_cafe.md": "---\nname: caf\xe9\ndescription: Le caf\xe9 ouvre demain\n---\n\nOn ouvre demain \xe0 8h.\n",
	// An exact copy of a text memory, but in Latin-1 (merge).
	"user_copy.md": "---\nname: role\ndescription: The user owns billing\ntype: user\n---\n\nThe user owns the billing service and its caf\xe9 budget.\n",
}

func opaqueDir(index string) *model.MemoryDir {
	files := map[string]string{
		"user_role.md":  testmodel.Topic("role", "The user owns billing", "user", "The user owns the billing service and its café budget.\n"),
		"project_ok.md": "Deploy with make ship; it runs the migrations first.\n", // text, no frontmatter, an orphan
	}
	for p, c := range opaqueFiles {
		files[p] = c
	}
	if index != "none" {
		files["MEMORY.md"] = index
	}
	d := testmodel.Dir(files, testmodel.Now.AddDate(0, 0, -2))
	if index == "none" {
		d.Index = nil
	}
	return d
}

func TestOpaqueFilesAreNeverRewritten(t *testing.T) {
	for _, index := range []string{"- [Role](user_role.md) — the user owns billing\n", "none"} {
		d := opaqueDir(index)
		props := propose(t, d)
		kinds := map[model.ProposalKind]bool{}
		for _, p := range props {
			kinds[p.Kind] = true
			for _, c := range p.Changes {
				if _, ok := opaqueFiles[c.Path]; ok {
					t.Errorf("%s (%s) changes %s, which is not text", p.ID, p.Title, c.Path)
				}
				if !utf8.ValidString(c.After) || strings.ContainsRune(c.After, 0) {
					t.Errorf("%s writes %s with bytes that are not UTF-8 text: %q", p.ID, c.Path, c.After)
				}
				for name, content := range opaqueFiles {
					if c.Path == "MEMORY.md" && strings.Contains(c.After, name) {
						t.Errorf("%s gives %s an index entry:\n%s", p.ID, name, c.After)
					}
					// No line of an opaque file is copied anywhere (its
					// readable parts included).
					for _, l := range strings.Split(content, "\n") {
						if len(l) > 12 && strings.Contains(c.After, l) {
							t.Errorf("%s copies %q out of %s into %s", p.ID, l, name, c.Path)
						}
					}
				}
			}
			for _, r := range p.Reads {
				if _, ok := opaqueFiles[r.Path]; ok {
					t.Errorf("%s reads %s, which is not text", p.ID, r.Path)
				}
			}
		}
		// The text memories around them are still fixed: the fixture is
		// not so broken that nothing is proposed at all.
		if !kinds[model.KindFixFrontmatter] || !kinds[model.KindReindex] {
			t.Errorf("index %q: want the text files' frontmatter fix and reindex, got %v", index, kinds)
		}
	}
}

func TestOpaqueFilesGetAnEncodingFinding(t *testing.T) {
	d := opaqueDir("- [Role](user_role.md) — the user owns billing\n")
	got := map[string]string{}
	for _, f := range consolidate.OrientDir(dreamProject, d, consolidate.Options{Now: testmodel.Now}) {
		if f.Rule == consolidate.RuleEncoding {
			got[f.File] = f.Message
		}
	}
	for name := range opaqueFiles {
		msg, ok := got[name]
		if !ok {
			t.Errorf("%s: no encoding finding", name)
			continue
		}
		if !strings.Contains(msg, "memtui will not rewrite it") {
			t.Errorf("%s: the finding does not say memtui leaves it alone: %s", name, msg)
		}
	}
	if !strings.Contains(got["notes_utf16.md"], "UTF-16") {
		t.Errorf("a UTF-16 file is not named as such: %s", got["notes_utf16.md"])
	}
	if len(got) != len(opaqueFiles) {
		t.Errorf("encoding findings on text files too: %v", got)
	}
}

func TestProposerInputLeavesOpaqueFilesOut(t *testing.T) {
	d := opaqueDir("- [Role](user_role.md) — the user owns billing\n")
	in := NewProposerInput(dreamProject, d, Options{Options: consolidate.Options{Now: testmodel.Now}})
	for _, f := range in.Files {
		if _, ok := opaqueFiles[f.Path]; ok {
			t.Errorf("the proposer is handed %s, which is not text", f.Path)
		}
	}
	if len(in.Files) != 2 {
		t.Errorf("the text files must stay in: %d files", len(in.Files))
	}
	for name, content := range opaqueFiles {
		c := []byte(content)
		p := model.Proposal{Kind: model.KindFixFrontmatter, Title: "t", Changes: []model.Change{{Path: name, Op: model.OpUpdate,
			BaseSHA256: consolidate.SHA256Hex(c), After: "---\nname: x\ndescription: y\ntype: user\n---\n\nx\n"}}}
		if _, err := CheckExternal(dreamProject, d, p, false); err == nil || !strings.Contains(err.Error(), "not text") {
			t.Errorf("%s: an external rewrite was not refused as not text: %v", name, err)
		}
		p.Changes[0] = model.Change{Path: name, Op: model.OpDelete, BaseSHA256: consolidate.SHA256Hex(c)}
		if _, err := CheckExternal(dreamProject, d, p, false); err == nil || !strings.Contains(err.Error(), "not text") {
			t.Errorf("%s: an external delete was not refused as not text: %v", name, err)
		}
	}
}

// An index that is not text is not rewritten either, by any proposal that
// would otherwise touch it (a reindex, a prune's or merge's entry).
func TestOpaqueIndexIsNeverRewritten(t *testing.T) {
	d := testmodel.Dir(map[string]string{
		"MEMORY.md":       "# Memory\n\n- [Role](user_role.md) \x00 the user owns billing\n",
		"user_role.md":    testmodel.Topic("role", "The user owns billing", "user", "The user owns the billing service.\n"),
		"user_copy.md":    testmodel.Topic("role", "The user owns billing", "user", "The user owns the billing service.\n"),
		"project_stub.md": "",
		"project_new.md":  testmodel.Topic("new", "An orphan", "project", "Not in the index yet, and fine otherwise.\n"),
	}, testmodel.Now.AddDate(0, 0, -2))
	for _, p := range propose(t, d) {
		for _, c := range p.Changes {
			if c.Path == "MEMORY.md" {
				t.Errorf("%s (%s) rewrites an index with a NUL byte", p.ID, p.Title)
			}
		}
	}
}

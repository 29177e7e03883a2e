package dream

import (
	"strings"
	"testing"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// Moved from consolidate/nudges_test.go: the fixes for the frontmatter
// nudges.

// TestFixQuotesWhatClaudeCannotRead: fix-frontmatter settles
// frontmatter-unreadable only when Claude Code reads the result.
func TestFixQuotesWhatClaudeCannotRead(t *testing.T) {
	cases := []struct {
		name, content string
		settles       bool
		want          string
	}{
		{"nested colon", "---\nname: db\ndescription: The database host\nmetadata:\n  type: reference\n  note: host: db.internal\n---\n\nThe primary is db.internal.\n", true, `  note: "host: db.internal"`},
		{"a number for a name is quoted, not replaced", "---\nname: 42\ndescription: The answer\ntype: reference\n---\n\nThe answer is 42.\n", false, `name: "42"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := testmodel.Dir(map[string]string{"reference_db.md": c.content}, testmodel.Now.AddDate(0, 0, -2))
			ps := propose(t, d, model.KindFixFrontmatter)
			if len(ps) != 1 {
				t.Fatalf("want one proposal, got %d", len(ps))
			}
			after := ps[0].Changes[0].After
			if !strings.Contains(after, c.want) {
				t.Errorf("result lacks %q:\n%s", c.want, after)
			}
			doc := claude.ParseDoc([]byte(after))
			if doc.Status != model.FMOK || doc.Claude().Name == "" {
				t.Errorf("Claude Code cannot read the result (%v %s):\n%s", doc.Status, doc.Problem, after)
			}
			settled := false
			for _, f := range ps[0].Fixes {
				settled = settled || f.Rule == consolidate.RuleFrontmatterUnreadable
			}
			if settled != c.settles {
				t.Errorf("settles frontmatter-unreadable: %v, want %v (%+v)", settled, c.settles, ps[0].Fixes)
			}
		})
	}
}

// TestFixTypeAsClaudeReadsIt: a type Claude Code reads as none because it
// is padded or a list becomes the word inside; of two types, the one
// Claude Code reads (metadata's) is the one fixed.
func TestFixTypeAsClaudeReadsIt(t *testing.T) {
	for in, want := range map[string]string{
		"type: \" user \"\n":                       "type: user\n",
		"type: [feedback]\n":                       "type: feedback\n",
		"type: user\nmetadata:\n  type: Project\n": "type: user\nmetadata:\n  type: project\n",
	} {
		content := "---\nname: x\ndescription: A fact\n" + in + "---\n\nThe fact, in enough words to be more than a stub.\n"
		d := testmodel.Dir(map[string]string{"x.md": content}, testmodel.Now.AddDate(0, 0, -2))
		ps := propose(t, d, model.KindFixFrontmatter)
		if len(ps) != 1 || !strings.Contains(ps[0].Changes[0].After, "description: A fact\n"+want+"---") {
			t.Errorf("%q: %+v", in, ps)
		}
	}
	if got := lintFiles(t, consolidate.RuleTypeInvalid, map[string]string{"x.md": "---\nname: x\ndescription: A fact\ntype: [reference]\n---\n\n" + testmodel.Body}); len(got) != 1 || got[0].Suggestion != "Use type: reference." {
		t.Errorf("suggestion: %+v", got)
	}
}

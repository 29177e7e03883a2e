package claude

import (
	"strings"
	"testing"
)

func TestScanFields(t *testing.T) {
	for _, c := range []struct {
		content         string
		stores          bool
		typ, name, desc string
	}{
		{"---\nname: a\ndescription: b\ntype: user\n---\n\nBody\n", false, "user", "a", "b"},
		{"---\nname: a\ndescription: b\ntype: decision\n---\n\nBody\n", false, "", "a", "b"},
		{"---\nname: a\ndescription: b\nmetadata:\n  type: feedback\n---\n\nBody\n", false, "feedback", "a", "b"},
		{"No frontmatter\n", false, "", "", ""},
		{"---\nname: a\n---\n\n## The heading\n", false, "", "a", ""},
		{"---\nname: a\n---\n\n\n## The heading  \nmore\n", true, "", "a", "The heading"},
		{"---\nname: a\n---\n\n" + strings.Repeat("é", 130) + "\n", true, "", "a", strings.Repeat("é", 120)},
		{"---\nname: a\n---\n\n" + strings.Repeat("😀", 70) + "\n", true, "", "a", strings.Repeat("😀", 60)},
	} {
		typ, name, desc := ScanFields(ParseDoc([]byte(c.content)), []byte(c.content), c.stores)
		if string(typ) != c.typ || name != c.name || desc != c.desc {
			t.Errorf("ScanFields(%q, %v) = %q, %q, %q; want %q, %q, %q", c.content, c.stores, typ, name, desc, c.typ, c.name, c.desc)
		}
	}
}

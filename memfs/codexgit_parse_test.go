package memfs

import (
	"strings"
	"testing"
	"time"
)

// TestParseCommit: a commit's tree, parents, author and committer (name,
// email, time in its zone) and message, a signature's continuation lines
// skipped; a commit with no tree, two, or a tree that is not a hash is
// refused.
func TestParseCommit(t *testing.T) {
	tree, p1, p2 := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	raw := "tree " + tree + "\nparent " + p1 + "\nparent " + p2 + "\n" +
		"author Ann O'Dev <ann@example.com> 1793527200 +0100\n" +
		"committer Codex <noreply@openai.com> 1793527201 -0230\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n tree " + strings.Repeat("d", 40) + "\n -----END PGP SIGNATURE-----\n" +
		"\nInitialize Codex git baseline\n\nCo-authored-by: Codex <noreply@openai.com>"
	c, err := parseCommit([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if c.tree.String() != tree || len(c.parents) != 2 || c.parents[1].String() != p2 {
		t.Errorf("tree %s parents %v", c.tree, c.parents)
	}
	if c.author.ident != "Ann O'Dev <ann@example.com>" || c.committer.ident != "Codex <noreply@openai.com>" {
		t.Errorf("author %q committer %q", c.author.ident, c.committer.ident)
	}
	if !c.author.when.Equal(time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)) || c.committer.when.Format("-0700") != "-0230" {
		t.Errorf("author at %v, committer at %v", c.author.when, c.committer.when)
	}
	if c.message != "Initialize Codex git baseline\n\nCo-authored-by: Codex <noreply@openai.com>" {
		t.Errorf("message %q", c.message)
	}
	for _, bad := range []string{
		"author A <a@b> 1 +0000\n\nno tree",
		"tree " + tree + "\ntree " + tree + "\n\ntwo trees",
		"tree " + strings.ToUpper(tree) + "\n\nupper case",
		"tree " + tree + "\nparent xyz\n\nbad parent",
		"",
	} {
		if _, err := parseCommit([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	// A malformed identity or time is kept as text, with no time.
	if s := parseSig("no brackets 12 +0000"); s.ident != "no brackets 12 +0000" || !s.when.IsZero() {
		t.Errorf("%+v", s)
	}
	if s := parseSig("A <a@b> soon +0000"); s.ident != "A <a@b>" || !s.when.IsZero() {
		t.Errorf("%+v", s)
	}
}

// TestParseTree: entries in order with their modes, names (any bytes but
// NUL) and hashes; a cut-short or modeless tree is refused.
func TestParseTree(t *testing.T) {
	h := func(b byte) string { return strings.Repeat(string(rune(b)), 20) }
	raw := "100644 MEMORY.md\x00" + h(1) + "40000 skills\x00" + h(2) + "100755 run me.sh\x00" + h(3) + "120000 link\x00" + h(4)
	es, err := parseTree([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := []gitEntry{{"MEMORY.md", 0o100644, [20]byte{}}, {"skills", modeDir, [20]byte{}}, {"run me.sh", 0o100755, [20]byte{}}, {"link", 0o120000, [20]byte{}}}
	for i := range want {
		copy(want[i].hash[:], h(byte(i+1)))
	}
	if len(es) != len(want) {
		t.Fatalf("%d entries: %+v", len(es), es)
	}
	for i := range want {
		if es[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, es[i], want[i])
		}
	}
	if es, err := parseTree(nil); err != nil || len(es) != 0 {
		t.Errorf("the empty tree: %v %v", es, err)
	}
	for _, bad := range []string{"100644 a\x00short", "100644 a" + h(1), "a\x00" + h(1), "10064x a\x00" + h(1), " a\x00" + h(1), "12345678 a\x00" + h(1)} {
		if _, err := parseTree([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// FuzzParseGitObjects: neither parser panics or loops on any bytes.
func FuzzParseGitObjects(f *testing.F) {
	f.Add([]byte("tree " + strings.Repeat("a", 40) + "\nauthor A <a@b> 1 +0000\n\nm"))
	f.Add([]byte("100644 a\x00" + strings.Repeat("x", 20)))
	f.Add([]byte("A <<a@b>> 99999999999999999999 +9999"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		parseCommit(raw)
		parseTree(raw)
		parseSig(string(raw))
	})
}

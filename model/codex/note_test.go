package codex

import (
	"strings"
	"testing"
	"time"
)

// TestNewNote: a note is named as the add_ad_hoc_note tool requires, in
// UTC, with a slug of the text's first words when none is given, and its
// content is the text, trimmed, with one final newline.
func TestNewNote(t *testing.T) {
	// 18:05:09 in UTC+1 is 17:05:09 UTC: the name carries UTC.
	at := time.Date(2026, 11, 28, 18, 5, 9, 0, time.FixedZone("CET", 3600))
	cases := []struct {
		slug, text, name, content string
	}{
		{"", "\n  Forget the old deploy command: it is `make ship` now.  \n\n", "2026-11-28T17-05-09-forget-the-old-deploy-command-it-is-make.md", "Forget the old deploy command: it is `make ship` now.\n"},
		{"", "# Use PNPM -- not npm!!", "2026-11-28T17-05-09-use-pnpm-not-npm.md", "# Use PNPM -- not npm!!\n"},
		{"", "部署用 make ship", "2026-11-28T17-05-09-make-ship.md", "部署用 make ship\n"},
		{"", "部署用", "2026-11-28T17-05-09-note.md", "部署用\n"},
		{"Deploy Rules", "Use make ship.", "2026-11-28T17-05-09-deploy-rules.md", "Use make ship.\n"},
		// Past 80 bytes the slug ends on the last whole word.
		{"", strings.Repeat("abcdefghij ", 7) + strings.Repeat("x", 200), "2026-11-28T17-05-09-" + strings.Repeat("abcdefghij-", 6) + "abcdefghij.md", ""},
		// ... unless that word ends too early: then at 80 bytes.
		{"", strings.Repeat("abcdefghij ", 3) + strings.Repeat("x", 200), "2026-11-28T17-05-09-" + strings.Repeat("abcdefghij-", 3) + strings.Repeat("x", 47) + ".md", ""},
	}
	for _, c := range cases {
		name, content, err := NewNote(at, c.slug, c.text)
		if err != nil || name != c.name || c.content != "" && string(content) != c.content {
			t.Errorf("NewNote(%q, %q) = %q, %q, %v; want %q, %q", c.slug, c.text, name, content, err, c.name, c.content)
		}
		if !ValidNoteName(name) {
			t.Errorf("%s is not a valid note name", name)
		}
	}
	// A single long word is cut at 80 bytes.
	name, _, err := NewNote(at, "", strings.Repeat("y", 300))
	if err != nil || name != "2026-11-28T17-05-09-"+strings.Repeat("y", 80)+".md" {
		t.Errorf("a long word: %q %v", name, err)
	}
	for _, bad := range []struct{ slug, text string }{
		{"", " \n\t "},
		{"!!!", "Use make ship."},
		{"", "a\x00b"},
		{"", "\xff\xfe"},
		{"", strings.Repeat("x", NoteMaxBytes)},
	} {
		if name, _, err := NewNote(at, bad.slug, bad.text); err == nil {
			t.Errorf("NewNote(%q, %.20q) = %q, want an error", bad.slug, bad.text, name)
		}
	}
}

// FuzzNewNote: whatever the text and slug, NewNote either refuses or
// makes a name Codex's tool accepts and content that is not blank.
func FuzzNewNote(f *testing.F) {
	f.Add("", "Forget the old deploy command.")
	f.Add("x", "部署")
	f.Add("", strings.Repeat("ab-", 60))
	f.Add("--A--", "\n\n")
	f.Fuzz(func(t *testing.T, slug, text string) {
		at := time.Date(2026, 11, 28, 17, 5, 9, 0, time.UTC)
		name, content, err := NewNote(at, slug, text)
		if err != nil {
			if strings.TrimSpace(text) != "" && strings.TrimSpace(slug) == "" && len(text) < NoteMaxBytes && !strings.ContainsRune(text, 0) && validUTF8(text) {
				t.Fatalf("a text with words was refused: %v", err)
			}
			return
		}
		if !noteName.MatchString(name) || !ValidNoteName(name) || len(name) > 128 {
			t.Fatalf("invalid name %q", name)
		}
		if strings.TrimSpace(string(content)) == "" || !strings.HasSuffix(string(content), "\n") {
			t.Fatalf("content %q", content)
		}
	})
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\ufffd") == s }

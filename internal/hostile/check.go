package hostile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/memfs/txn"
	"github.com/memtui/memtui/model"
)

// Title is the escape-laden title JournalTitle gives its journal entry.
const Title = "Rewrite " + OSC52 + " the note " + OSC0 + Clear

// JournalTitle applies, through memtui's own write path, a proposal whose
// title and rationale hold escape sequences, so the journal keeps them (as
// it would for a proposer's). The proposal is a pure frontmatter fix (it
// adds the missing type), which must keep the file's mtime. It returns the
// journal entry's ID.
func (t *Tree) JournalTitle(ctx context.Context, journalRoot string) (string, error) {
	path := filepath.Join(t.Evil, t.JournalTarget)
	old, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	p := model.Proposal{ID: "fix-frontmatter-0000hostile", Kind: model.KindFixFrontmatter, MemoryDir: t.Evil,
		Title: Title, Rationale: "because " + OSC8,
		Changes: []model.Change{{Path: t.JournalTarget, Op: model.OpUpdate, BaseSHA256: SHA(string(old)),
			After: strings.Replace(string(old), "\n---\n\n", "\ntype: project\n---\n\n", 1)}}}
	res := txn.Apply(ctx, t.Evil, []model.Proposal{p}, txn.ApplyOptions{JournalRoot: journalRoot})
	if len(res) != 1 || res[0].Status != txn.StatusApplied {
		return "", fmt.Errorf("the escape-titled proposal was not applied: %+v", res)
	}
	return res[0].JournalID, nil
}

// Mode says what an output may hold.
type Mode int

const (
	// Plain is text for a pipe: no escape sequence at all.
	Plain Mode = iota
	// Terminal is text for a terminal: memtui's own SGR styling
	// (ESC [ params m) and nothing else.
	Terminal
	// JSON is JSON: control characters escaped, as encoding/json does;
	// only raw bytes below 0x20 other than newline and tab are wrong
	// there (JSON output may carry C1 and bidi runes as UTF-8, escaped
	// or not).
	JSON
)

var (
	sgr  = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
	osc8 = regexp.MustCompile(`\x1b\]8;[^\x07\x1b]*(\x07|\x1b\\)`)
)

// Controls lists the raw control characters in out that mode does not
// allow, and any invalid UTF-8: one line per kind, with how many there
// are and the first one's line and excerpt (quoted, so the report itself
// is safe to print). Newline is allowed as a line separator; tab is
// allowed.
func Controls(out string, mode Mode) []string {
	if mode == Terminal {
		out = sgr.ReplaceAllString(out, "")
	}
	type kind struct {
		n     int
		first string
	}
	kinds := map[string]*kind{}
	var order []string
	add := func(key string, ln int, line string, i int) {
		k := kinds[key]
		if k == nil {
			k = &kind{first: fmt.Sprintf("at line %d in %q", ln+1, excerpt(line, i))}
			kinds[key] = k
			order = append(order, key)
		}
		k.n++
	}
	for ln, line := range strings.Split(out, "\n") {
		if mode != JSON {
			// Hyperlinks (OSC 8) are one kind, whatever their targets:
			// glamour makes one of every markdown link, so a hostile
			// link's target reaches the terminal.
			for _, m := range osc8.FindAllStringIndex(line, -1) {
				add("OSC 8 hyperlink", ln, line, m[0])
			}
			line = osc8.ReplaceAllString(line, "")
		}
		for i := 0; i < len(line); {
			r, size := utf8.DecodeRuneInString(line[i:])
			what := ""
			switch {
			case r == utf8.RuneError && size == 1 && line[i] >= 0x80 && line[i] <= 0x9f:
				what = "raw 8-bit C1 byte"
			case r == utf8.RuneError && size == 1:
				// A stray byte a terminal may read as the start of
				// something else; text from memtui is UTF-8.
				what = "invalid UTF-8"
			case mode == JSON:
				if r < 0x20 && r != '\t' {
					what = "raw control byte in JSON"
				}
			case r == 0x1b:
				what = "raw ESC"
			case r == '\a':
				what = "raw BEL"
			case r == '\r':
				what = "raw carriage return"
			case r == 0x7f:
				what = "raw DEL"
			case r < 0x20 && r != '\t':
				what = "raw control byte"
			case r >= 0x80 && r <= 0x9f:
				what = "raw C1 control"
			case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
				what = "raw bidi control"
			}
			if what == "raw ESC" {
				// Which sequence: "\x1b]52;c;" is not "\x1b[2J".
				seq := line[i:min(len(line), i+8)]
				for !utf8.ValidString(seq) && len(seq) > size {
					seq = seq[:len(seq)-1]
				}
				what = fmt.Sprintf("%s %q", what, seq)
			}
			if what != "" {
				add(what, ln, line, i)
			}
			i += size
		}
	}
	var probs []string
	for _, key := range order {
		probs = append(probs, fmt.Sprintf("%s ×%d, first %s", key, kinds[key].n, kinds[key].first))
	}
	return probs
}

func excerpt(line string, at int) string {
	lo, hi := max(0, at-30), min(len(line), at+40)
	for lo > 0 && !utf8.RuneStart(line[lo]) {
		lo--
	}
	return line[lo:hi]
}

// Visible is s with every control character escaped (newlines kept), for
// quoting an output in a test failure without attacking the terminal
// that shows the test log.
func Visible(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Leaks lists every secret of the tree (and the outside file's marker)
// that out shows, by label, never quoting the secret itself. Of a
// multi-line secret, any one line shown is a leak.
func (t *Tree) Leaks(out string) []string {
	var probs []string
	labels := make([]string, 0, len(t.Secrets))
	for l := range t.Secrets {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, l := range labels {
		lines := t.Secrets[l]
		shown, first := 0, ""
		for _, s := range lines {
			if strings.Contains(out, s) {
				shown++
				if first == "" {
					first = s
				}
			}
		}
		switch {
		case shown == 0:
		case len(lines) == 1:
			probs = append(probs, fmt.Sprintf("printed %s (%d times, first on line %d)", l, strings.Count(out, first), lineOf(out, first)))
		default:
			probs = append(probs, fmt.Sprintf("printed %d of the %d lines of %s (first on line %d)", shown, len(lines), l, lineOf(out, first)))
		}
	}
	// The text of Outside (Marker) may be shown: Claude Code's scan
	// follows LinkOutside and recalls the file, so memtui shows it too;
	// the token in it, registered in Secrets, must still never be.
	return probs
}

func lineOf(out, s string) int {
	return strings.Count(out[:strings.Index(out, s)], "\n") + 1
}

// Forgeries lists the output lines where the text after the newline in
// NewlineName starts a line of output (after decoration only): the file
// name's newline started a line.
func Forgeries(out string) []string {
	var probs []string
	for ln, line := range strings.Split(sgr.ReplaceAllString(out, ""), "\n") {
		for off := 0; ; {
			i := strings.Index(line[off:], "FORGEDLINE")
			if i < 0 {
				break
			}
			i += off
			// A forged line is one the marker starts: nothing but
			// decoration (a diff's +, a border, a cursor mark, spaces)
			// before it. Shown safely, the name's newline is the escape
			// \n, a letter before the marker, wherever a cell cut it.
			if !strings.ContainsFunc(line[:i], func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
				probs = append(probs, fmt.Sprintf("a file name's newline starts output line %d: %q", ln+1, excerpt(line, i)))
			}
			off = i + len("FORGEDLINE")
		}
	}
	return probs
}

// Snapshot records every entry under root without following links:
// a regular file's content hash, mode, mtime and link count; a link's
// target; any other entry's mode.
func Snapshot(root string) (map[string]string, error) {
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case info.Mode().IsRegular():
			f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
			if err != nil {
				return err
			}
			h := sha256.New()
			_, err = f.WriteTo(h)
			f.Close()
			if err != nil {
				return err
			}
			nlink := linkCount(info)
			m[rel] = fmt.Sprintf("sha256 %s mode %s mtime %s links %d", hex.EncodeToString(h.Sum(nil))[:16], info.Mode(), info.ModTime().Format("2006-01-02T15:04:05.000000000"), nlink)
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			m[rel] = "symlink to " + target
		case info.IsDir():
			m[rel] = "dir " + info.Mode().String()
		default:
			m[rel] = info.Mode().String()
		}
		return nil
	})
	return m, err
}

// Changed lists, one per line, every entry that differs between two
// snapshots.
func Changed(before, after map[string]string) []string {
	var out []string
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("deleted %q (was %s)", p, b))
		case a != b:
			out = append(out, fmt.Sprintf("changed %q: %s -> %s", p, b, a))
		}
	}
	for p, a := range after {
		if _, ok := before[p]; !ok {
			out = append(out, fmt.Sprintf("created %q (%s)", p, a))
		}
	}
	sort.Strings(out)
	return out
}

package txn

// Once the user redacts a secret through memtui, the redaction's journal
// entry (its before-image, for an undo the user must confirm) is the only
// copy memtui keeps of it. Every other copy memtui made of that memory dir
// is scrubbed: the review baseline's texts, and the before-images, deleted
// memories and salvaged bytes of the dir's earlier journal entries. Those
// earlier entries stay undoable (they are the user's undo history); their
// undo now restores the text with [REDACTED] where the secret was, and a
// note in the entry says so. The transcript cache is not scrubbed: it is
// read again from Claude Code's transcripts, which keep the secret
// themselves (memtui never edits them), and it is owner-only.

import (
	"bytes"
	"path/filepath"

	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// redactMark is what a redaction puts where a secret was.
const redactMark = model.Redacted

// redactedSecrets recovers what a redaction removed: the spans of before
// that after replaced with [REDACTED]. A proposal that also changed other
// text (a date made absolute on the same line) is matched line by line;
// where a line changed in more than its redaction, the whole changed part
// of the old line counts as the secret. When after is not before with
// spans replaced at all (an external proposer's redaction), the lines
// before had and after has not are taken. Spans shorter than 4 bytes are
// ignored (they would scrub ordinary text).
func redactedSecrets(before, after []byte) [][]byte {
	var out [][]byte
	add := func(b []byte) {
		if len(bytes.TrimSpace(b)) >= 4 {
			out = append(out, b)
		}
	}
	if spans, ok := spansReplaced(before, after); ok {
		for _, s := range spans {
			add(s)
		}
		return out
	}
	bl, al := bytes.Split(before, []byte("\n")), bytes.Split(after, []byte("\n"))
	inAfter, inBefore := map[string]bool{}, map[string]bool{}
	for _, l := range al {
		inAfter[string(l)] = true
	}
	for _, l := range bl {
		inBefore[string(l)] = true
	}
	var removed [][]byte
	for _, l := range bl {
		if !inAfter[string(l)] {
			removed = append(removed, l)
		}
	}
	found := false
	for _, a := range al {
		if inBefore[string(a)] || !bytes.Contains(a, []byte(redactMark)) {
			continue
		}
		matched := false
		for _, r := range removed {
			if spans, ok := spansReplaced(r, a); ok {
				for _, s := range spans {
					add(s)
				}
				matched, found = true, true
				break
			}
		}
		if matched {
			continue
		}
		// The old line most like this one: the longest common prefix.
		var best []byte
		bestN := -1
		for _, r := range removed {
			if n := commonPrefix(r, a); n > bestN {
				best, bestN = r, n
			}
		}
		if best == nil {
			continue
		}
		pre := min(bestN, bytes.Index(a, []byte(redactMark)))
		suf := commonSuffix(best[pre:], a[pre:])
		suf = min(suf, len(a)-bytes.LastIndex(a, []byte(redactMark))-len(redactMark))
		add(best[pre : len(best)-suf])
		found = true
	}
	if !found {
		for _, r := range removed {
			add(r)
		}
	}
	return out
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// spansReplaced matches before against after's pieces between the marks.
func spansReplaced(before, after []byte) ([][]byte, bool) {
	pieces := bytes.Split(after, []byte(redactMark))
	if len(pieces) < 2 || !bytes.HasPrefix(before, pieces[0]) {
		return nil, false
	}
	pos := len(pieces[0])
	var spans [][]byte
	last := len(pieces) - 1
	for k := 1; k < last; k++ {
		if len(pieces[k]) == 0 {
			return nil, false // two marks side by side: no boundary to find
		}
		i := bytes.Index(before[pos:], pieces[k])
		if i < 0 {
			return nil, false
		}
		spans = append(spans, before[pos:pos+i])
		pos += i + len(pieces[k])
	}
	end := len(before) - len(pieces[last])
	if end < pos || !bytes.HasSuffix(before, pieces[last]) {
		return nil, false
	}
	spans = append(spans, before[pos:end])
	return spans, true
}

// scrub replaces every secret in b with the mark; changed says whether
// any was there.
func scrub(b []byte, secrets [][]byte) ([]byte, bool) {
	changed := false
	for _, s := range secrets {
		if bytes.Contains(b, s) {
			b = bytes.ReplaceAll(b, s, []byte(redactMark))
			changed = true
		}
	}
	return b, changed
}

// scrubJournal scrubs the secrets from every file kept by the journal
// entries of memory dir realDir other than keep (the redaction's own).
func scrubJournal(root, realDir, keep string, secrets [][]byte) {
	es, err := List(root)
	if err != nil {
		return
	}
	for _, e := range es {
		if e.ID == keep || filepath.Clean(e.RealDir) != filepath.Clean(realDir) {
			continue
		}
		dir := filepath.Join(root, e.ID)
		n := 0
		for _, sub := range []string{"before", "deleted", "salvage"} {
			ents, _ := memfs.ReadDir(filepath.Join(dir, sub))
			for _, d := range ents {
				if !d.Type().IsRegular() {
					continue
				}
				p := filepath.Join(dir, sub, d.Name())
				b, err := memfs.ReadImage(filepath.Join(dir, sub), d.Name())
				if err != nil {
					continue
				}
				if nb, ok := scrub(b, secrets); ok && writeAtomic(p, nb, "") == nil {
					n++
				}
			}
		}
		if n > 0 {
			j := &entry{root: root, dir: dir, m: e, delfd: -1}
			j.m.Notes = append(j.m.Notes, "a secret redacted by journal entry "+keep+" was scrubbed from the copies this entry keeps; undoing it restores [REDACTED] in its place")
			j.save()
		}
	}
}

// scrubBaseline scrubs the secrets from the review baseline of dir. The
// redacted file's entry, when it is exactly what the redaction replaced,
// becomes the redacted text (the user accepted that change); any other
// text keeps its hash, so a change since the review still shows.
func scrubBaseline(seenRoot, dir, path string, before, after []byte, secrets [][]byte) {
	if seenRoot == "" {
		return
	}
	b, err := memfs.LoadBaseline(seenRoot, dir)
	if err != nil || b == nil {
		return
	}
	changed := false
	for rel, f := range b.Files {
		if rel == path && f.SHA256 == sumHex(before) && f.Text == string(before) {
			f.Text, f.SHA256 = string(after), sumHex(after)
			b.Files[rel] = f
			changed = true
			continue
		}
		if nb, ok := scrub([]byte(f.Text), secrets); ok {
			f.Text = string(nb)
			b.Files[rel] = f
			changed = true
		}
	}
	if changed {
		memfs.SaveBaseline(seenRoot, b)
	}
}

// scrubAfterRedaction runs once an entry that redacted something
// committed (a redact-secret, or any proposal whose files memtui redacted
// on the way): every other copy memtui keeps of the secrets it removed is
// scrubbed.
func (s *session) scrubAfterRedaction(jid string, files []*fileTx) {
	for _, f := range files {
		if f.op != model.OpUpdate || bytes.Count(f.after, []byte(redactMark)) <= bytes.Count(f.before, []byte(redactMark)) {
			continue
		}
		secrets := redactedSecrets(f.before, f.after)
		if len(secrets) == 0 {
			continue
		}
		scrubJournal(s.opts.JournalRoot, s.realDir, jid, secrets)
		scrubBaseline(s.opts.SeenRoot, s.dir, f.path, f.before, f.after, secrets)
	}
}

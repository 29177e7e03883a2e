package dream

import (
	"fmt"
	"sort"
	"strings"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/model"
)

// proposeRestores puts lost text back: one proposal per file, each lost
// line where it stood when it was written. It needs the transcripts; a
// finding silenced by an ignore gets no proposal.
func proposeRestores(s *dreamState) []model.Proposal {
	if s.p == nil || s.p.Log == nil {
		return nil
	}
	files := s.ruleFiles(consolidate.RuleLostUpdate)
	if len(files) == 0 {
		return nil
	}
	byFile := map[string][]forensics.Lost{}
	for _, l := range s.lost {
		byFile[l.File] = append(byFile[l.File], l)
	}
	var out []model.Proposal
	for _, path := range files {
		content, ok := s.content(path)
		if !ok {
			continue
		}
		if p, ok := s.restoreFile(path, string(content), byFile[path]); ok {
			out = append(out, p)
		}
	}
	return out
}

// restoreFile makes the proposal for one file's lost text.
func (s *dreamState) restoreFile(path, content string, losts []forensics.Lost) (model.Proposal, bool) {
	reported := map[string]model.Finding{}
	for _, f := range s.fileFindings(path, consolidate.RuleLostUpdate) {
		reported[f.Message] = f
	}
	doc := forensics.NewRestoreDoc(s.d, path, content)
	sc := s.opts.Secrets
	var fixes []model.Finding
	var why, skipped []string
	writers := map[string]bool{}
	var writer string
	n := 0
	replaced := false
	for _, l := range losts {
		f, ok := reported[l.Message(sc, s.p.Log)]
		if !ok {
			continue // silenced
		}
		put := 0
		for i, line := range l.Lines {
			if r := l.Unrestorable(s.d, i); r != "" {
				skipped = append(skipped, fmt.Sprintf("\"%s\" is not put back: %s.", l.Quote(sc, i), r))
				continue
			}
			if !doc.Says(line) {
				// (Already said: by another lost line put back just
				// before, since LostUpdates leaves out what the file
				// said. Either way the file ends up saying it once.)
				replaced = replaced || doc.Superseded(l.Anchors[i]) >= 0
				doc.Insert(line, l.Anchors[i])
			}
			put++
		}
		if put == 0 {
			continue
		}
		n += put
		if put == len(l.Lines) {
			fixes = append(fixes, f)
		}
		writer = forensics.WriterName(nil, &l.Writer) // short, for the title
		writers[writer] = true
		why = append(why, l.Story(sc, s.p.Log))
	}
	if n == 0 {
		return model.Proposal{}, false
	}
	by := writer
	if len(writers) > 1 {
		by = fmt.Sprintf("%d sessions", len(writers))
	}
	title := sc.MaskSecrets(fmt.Sprintf("Restore %d %s %s wrote to %s", n, model.Plural(n, "line", "lines"), by, path))
	rationale := strings.Join(why, " ") + " Each line goes back after the line it followed when it was written (else before the one it preceded); nothing else changes."
	if replaced {
		rationale = strings.Join(why, " ") + " A line whose older version (the one its writer replaced) is back in the file takes that version's place; each other line goes back after the line it followed when it was written (else before the one it preceded); nothing else changes."
	}
	if len(skipped) > 0 {
		rationale += " " + strings.Join(skipped, " ")
	}
	// The lines themselves go back redacted (redactAfter); the rationale
	// quotes transcript text, session titles and branches: masked.
	rationale = sc.MaskSecrets(rationale)
	sort.Slice(fixes, func(i, j int) bool { return fixes[i].Line < fixes[j].Line })
	return s.proposal(model.KindRestoreLost, title, rationale, fixes,
		[]model.Change{s.update(path, []byte(doc.String()))}), true
}

package consolidate

import (
	"fmt"

	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/model"
)

// The lost-update finding. It places lost text through the same forensics.RestoreDoc
// the restore-lost proposal uses, so the line a finding names is the line
// the proposal puts the text back on.

// checkLostUpdates reports one lost-update finding per Lost, when the
// project's transcripts have been read.
func checkLostUpdates(s *dirState) {
	if s.project == nil || s.project.Log == nil {
		return
	}
	s.lost = forensics.LostUpdates(s.dir, s.project.Log)
	for _, l := range s.lost {
		f := s.fileByPath(l.File)
		if f == nil {
			continue
		}
		line, suggestion := lostPlace(s.dir, f.text, l)
		sc := s.opts.Secrets
		s.report(RuleLostUpdate, l.File, line, l.Message(sc, s.project.Log), sc.MaskSecrets(suggestion))
	}
}

// checkDeleted reports each memory the transcripts or memtui's own records
// show existed, gone from disk, whose last whole text they hold
// (forensics.DeletedMemories):
// info, since a session may have meant it; the restore-deleted proposal
// brings it back.
func checkDeleted(s *dirState) {
	var log *model.TranscriptLog
	if s.project != nil {
		log = s.project.Log
	}
	if log == nil && len(s.dir.Kept) == 0 {
		return
	}
	sc := s.opts.Secrets
	s.deleted = forensics.DeletedMemories(s.dir, log)
	for _, del := range s.deleted {
		by := "no recorded session removed it (a person, a script, or Claude Code's background consolidation)"
		if del.By != nil {
			by = "removed by " + forensics.WriterLabel(*del.By, log)
		}
		from := "a whole read of it"
		if del.FromHow != "" && del.FromHow != "Read" {
			from = "the " + del.FromHow
		}
		msg := fmt.Sprintf("%s is gone from disk: %s; its last text, from %s by session %s at %s, is in the transcripts",
			del.File, by, from, forensics.ShortSession(del.FromSession), del.FromTime.UTC().Format("2006-01-02 15:04 UTC"))
		if del.FromSession == "" {
			msg = fmt.Sprintf("%s is gone from disk: %s; its last text is in memtui's %s of %s",
				del.File, by, del.FromHow, del.FromTime.UTC().Format("2006-01-02 15:04 UTC"))
		}
		s.report(RuleMemoryDeleted, del.File, 0, sc.MaskSecrets(msg),
			"Review the restore-deleted proposal (memtui dream --kind restore-deleted) if it should come back; if this project's deletes are meant, silence memory-deleted for it in the config file.")
	}
}

// lostPlace is the line the first restorable line of l would go back on
// (0 when nothing places it) and what to suggest.
func lostPlace(d *model.MemoryDir, content string, l forensics.Lost) (int, string) {
	doc := forensics.NewRestoreDoc(d, l.File, content)
	why := ""
	for i := range l.Lines {
		if r := l.Unrestorable(d, i); r != "" {
			why = r
			continue
		}
		return doc.Line(l.Anchors[i]), "Review the restore-lost proposal (memtui dream --kind restore-lost)"
	}
	if len(l.Anchors) > 0 && l.Anchors[0].Fragment {
		return 0, "Put the text back by hand if it still holds: " + why
	}
	return 0, "Nothing to restore: " + why + " (bring the memory back first if the entry should stay)"
}

// TranscriptRules are the rules TranscriptFindings reports: a face that
// checks again with a project's log replaces the findings of these.
var TranscriptRules = map[string]bool{RuleLostUpdate: true, RuleMemoryDeleted: true}

// TranscriptFindings runs only the checks that read the project's
// transcript log (lost updates, deleted memories) over one directory: what the TUI adds when
// a project's transcripts arrive after its files were checked, without
// checking every file again. Ignores apply as in OrientDir.
func TranscriptFindings(p *model.Project, d *model.MemoryDir, opts Options) []model.Finding {
	if p == nil || p.Log == nil {
		return nil
	}
	opts = opts.WithDefaults()
	if opts.sessions == nil {
		opts.sessions = newSessionSet([]*model.Project{p})
	}
	s := newDirState(p, d, opts)
	checkLostUpdates(s)
	checkDeleted(s)
	return s.findings
}

package dream

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/memindex"
)

// Archive proposals bring a memory folder back under the recall scan's
// 200 files by moving memories out of the scan without deleting them.
//
// Claude Code sorts the memory files its scan lists by mtime, newest
// first, and offers only the newest 200 to recall (facts 4.1): past that,
// mtime alone decides, and each new memory pushes the oldest out, used or
// not. Merges and prunes remove files; what they leave over 200 an archive
// moves into model.ArchiveDir, ".archive/<the same path>". The scan skips
// every path with a part that starts with a dot (facts 2.1), so an
// archived memory is never listed or recalled, yet stays on disk, readable
// (its index entry still leads the agent to it in index mode), and moves
// back with `memtui undo` or by hand. The person, not the mtime, chooses
// which memories stay recallable: the proposal names each one, and each
// move can be dropped from it.
//
// Which memories go, and how many. Exactly as many as bring the scan to
// 200, counting the merges and prunes proposed beside it (the cap's prunes
// come first: what nobody used in all the transcripts cover is deleted,
// not kept). With transcripts, the memories the sessions used least go
// first (reads, re-reads, recalls), then the oldest by mtime, then by
// path; the rationale names the used memories that come back into the
// scan. Without transcripts use is unknown: the oldest go, which are the
// files already past the 200, so recall sees nothing different today, but
// the cut is explicit and the person's to change. Left alone: a memory in
// a near-duplicate group (left to the merge), one a prune takes, one
// reached through a link, read only in part or not text (memtui writes
// none of those), one whose name holds a secret (the index would have to
// link it, secret and all), one whose archive path is taken, and one a
// file memtui cannot rewrite links to (read in part, or through a link).
// Nothing is proposed when the transcripts show the sessions in index mode
// only (the scan does not bite there), for agent memory (scanned without
// the dot-folder exclusion, so an archive would hide nothing), nor when
// MEMORY.md cannot be rewritten whole.
//
// The references follow the files: every link, backticked name and
// [[wikilink]] in MEMORY.md that leads to an archived memory leads to its
// new path (the entry stays: in index mode the agent can still open it),
// and so do markdown links and [[wikilinks]] in the bodies of the other
// files. A markdown link in a file inside a folder is read as Markdown
// reads it, from that folder, and failing that from the memory dir, as
// memtui's orphan check reads an overflow index; a [[wikilink]] in
// frontmatter is left as written (the scan reads frontmatter; memtui does
// not rewrite it for a pointer). The rewrites reuse the merge's link
// rewriting (linkMap, memindex.Repoint and Retarget), keep each file's
// claudeCodeItem block byte for byte (they never touch frontmatter) and
// its mtime (memfs keeps it for an archive: a new pointer is no new fact).
// A move keeps the memory's bytes and mtime, so moved back it takes its
// old place in the ranking.

// archiveRounds bounds how often the choice is made again when a file
// that links an archived memory cannot be rewritten: each round leaves
// those memories in place and takes the next ones.
const archiveRounds = 4

// proposeArchives proposes the archive for a directory over the cap.
func proposeArchives(s *dreamState) []model.Proposal {
	d := s.d
	if !d.Kind.ScanExcludes() {
		return nil
	}
	pl := s.prunes()
	dropped := map[string]bool{} // what merges and prunes take out of the scan
	for _, f := range s.byRule[consolidate.RuleDuplicateMemory] {
		dropped[f.File] = true
	}
	for p := range pl.pruned {
		dropped[p] = true
	}
	for _, f := range pl.capped {
		dropped[f.Path] = true
	}
	over := d.ScanListed - model.RecallScanCap - len(s.byRule[consolidate.RuleDuplicateMemory]) - len(pl.pruned) - len(pl.capped)
	if over <= 0 {
		return nil
	}
	haveLog := s.p != nil && s.p.Log != nil
	if haveLog {
		if mode := consolidate.ModeOf(s.p, d); mode.Known() && !mode.Recall && !mode.Agent {
			return nil
		}
	}
	if d.Index != nil {
		if _, ok := s.content("MEMORY.md"); !ok {
			return nil // its unread or unreadable part may link any of them
		}
	}
	var heat map[string]model.Heat
	if haveLog {
		heat = forensics.HeatOf(d, s.p.Log)
	}
	cands := s.archiveCandidates(dropped, heat)
	pinned := map[string]bool{}
	for round := 0; round < archiveRounds; round++ {
		var chosen []*model.File
		for _, f := range cands {
			if len(chosen) == over {
				break
			}
			if !pinned[f.Path] {
				chosen = append(chosen, f)
			}
		}
		if len(chosen) == 0 {
			return nil
		}
		changes, notes, blocked := s.archiveChanges(chosen)
		if len(blocked) > 0 {
			for _, p := range blocked {
				pinned[p] = true
			}
			continue
		}
		return []model.Proposal{s.archiveProposal(chosen, changes, notes, dropped, heat)}
	}
	return nil
}

// archiveCandidates are the memories an archive may move, in the order it
// takes them: least used first (with transcripts), then oldest, then by
// path.
func (s *dreamState) archiveCandidates(dropped map[string]bool, heat map[string]model.Heat) []*model.File {
	groups := s.nearDuplicates()
	problems := map[string]bool{}
	for _, pr := range s.d.Problems {
		problems[pr.Path] = true
	}
	// taken reports a destination memtui could not move to: a file, or
	// anything the reader met, at it or at one of its folders.
	taken := func(to string) bool {
		if s.files[to] != nil {
			return true
		}
		for i := range len(to) {
			if to[i] == '/' && problems[to[:i]] {
				return true
			}
		}
		return problems[to]
	}
	var cands []*model.File
	for _, f := range s.d.Files {
		switch {
		case !f.Scan.Memory(), dropped[f.Path], groups[f.Path], f.Link != "", f.Truncated, s.opaque(f.Path),
			!s.opts.IncludeTeam && strings.HasPrefix(f.Path, "team/"),
			len(s.opts.Secrets.Scan(f.Path)) > 0, taken(model.ArchivePath(f.Path)):
			continue
		}
		cands = append(cands, f)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if ua, ub := heat[a.Path].Uses(), heat[b.Path].Uses(); ua != ub {
			return ua < ub
		}
		if !a.ModTime.Equal(b.ModTime) {
			return a.ModTime.Before(b.ModTime)
		}
		return a.Path < b.Path
	})
	return cands
}

// archiveChanges builds the moves of chosen and the rewrites of the files
// that link them. blocked names the chosen memories some file links that
// memtui cannot rewrite (read in part, reached through a link, or one
// whose rewrite would change how its frontmatter reads): the caller leaves
// them in place and chooses again. notes says what the rewrites did, for
// the rationale.
func (s *dreamState) archiveChanges(chosen []*model.File) (changes []model.Change, notes []string, blocked []string) {
	return s.moveChanges(chosen, model.ArchivePath, "into "+model.ArchiveDir+"/")
}

// moveChanges moves each chosen memory to dest(its path) and repoints
// every reference to it: MEMORY.md's through the index editor, the other
// memories' links in their bodies. where says where they go, for the
// notes ("into .archive/"). A memory whose links cannot all be repointed
// (a file memtui reads in part, or whose frontmatter the rewrite would
// change) blocks: blocked names them, and nothing is proposed.
func (s *dreamState) moveChanges(chosen []*model.File, dest func(string) string, where string) (changes []model.Change, notes []string, blocked []string) {
	archived := map[string]bool{}
	for _, f := range chosen {
		archived[f.Path] = true
	}
	links := s.newLinkMap("", archived)
	links.dest = map[string]string{}
	byKey := map[string][]string{} // normalised link name -> the archived memories it names
	for _, f := range chosen {     // (in path order: a name two of them share goes to the first)
		for _, k := range s.linkKeys(f.Path) {
			if k == "" {
				continue
			}
			byKey[k] = append(byKey[k], f.Path)
			if _, ok := links.dest[k]; !ok {
				links.dest[k] = strings.TrimSuffix(dest(f.Path), ".md")
			}
		}
	}
	dir := s.slashDir()
	resolve := s.refResolver()
	block := map[string]bool{}
	them := model.Plural(len(chosen), "it", "them")

	// MEMORY.md: every reference to an archived memory, to its new path.
	if s.d.Index != nil {
		content, _ := s.content("MEMORY.md") // (proposeArchives made sure it reads whole)
		ed := memindex.NewEditorMode(content, s.d.Kind.LoadMode())
		n, err := ed.Repoint(func(r memindex.Ref) (string, bool) {
			if r.Kind == memindex.RefWiki {
				if !links.breaks(r.Target) {
					return "", false
				}
				return memindex.Retarget(r, links.target(r.Target), dir)
			}
			p := resolve(r)
			if !archived[p] {
				return "", false
			}
			return memindex.Retarget(r, dest(p), dir)
		})
		switch {
		case err == nil:
			changes = append(changes, s.update("MEMORY.md", ed.Bytes()))
			notes = append(notes, fmt.Sprintf("MEMORY.md's %s to %s now %s %s (%s)", model.Plural(n, "reference", fmt.Sprintf("%d references", n)), them,
				model.Plural(n, "leads", "lead"), where, model.Plural(n, "the entry stays", "each entry stays")))
		case !errors.Is(err, memindex.ErrNoChange):
			// Repointing would hide a reference: archiving them would
			// leave MEMORY.md pointing at files that moved.
			for _, f := range chosen {
				blocked = append(blocked, f.Path)
			}
			return nil, nil, blocked
		}
	}

	// The other files' bodies.
	var relinked []string
	for _, f := range s.d.Files {
		if archived[f.Path] || s.opaque(f.Path) {
			continue // (an archived memory moves as it is; a file that is not text has no links to rewrite)
		}
		doc := s.docs[f.Path]
		head := f.Content[:doc.BodyStart]
		var refs []string // the archived memories f links
		body, _ := links.repoint(f.Content[doc.BodyStart:])
		for _, w := range consolidate.Wikilinks(string(f.Content[doc.BodyStart:])) {
			if links.breaks(w.Name) {
				refs = append(refs, byKey[consolidate.NormName(w.Name)]...)
			}
		}
		ix := memindex.Parse(append(append([]byte{}, head...), body...))
		memindex.Repoint(&ix, nil, func(r memindex.Ref) (string, bool) {
			if r.Kind != memindex.RefLink {
				return "", false // (a backticked name in a memory is as likely a project file)
			}
			p, relative := s.linkedFrom(f.Path, r, resolve)
			if !archived[p] {
				return "", false
			}
			refs = append(refs, p)
			to := dest(p)
			if relative {
				to = strings.Repeat("../", strings.Count(f.Path, "/")) + to
			}
			return memindex.Retarget(r, to, dir)
		})
		if len(refs) == 0 {
			continue
		}
		after := ix.Bytes()
		if f.Truncated || f.Link != "" || !sameFrontmatter(f.Content, after, false) {
			for _, p := range refs {
				block[p] = true
			}
			continue
		}
		changes = append(changes, s.update(f.Path, after))
		relinked = append(relinked, f.Path)
	}
	if len(block) > 0 {
		for p := range block {
			blocked = append(blocked, p)
		}
		sort.Strings(blocked)
		return nil, nil, blocked
	}
	if len(relinked) > 0 {
		notes = append(notes, "so do the links to "+them+" in "+listNames(relinked))
	}
	for _, f := range chosen {
		changes = append(changes, model.Change{Path: dest(f.Path), From: f.Path, Op: model.OpMove, BaseSHA256: s.hash(f.Path)})
	}
	return changes, notes, nil
}

// linkedFrom names the topic file a markdown link in the file at from
// leads to: read from from's folder first (as Markdown reads a relative
// link), then from the memory dir (as the index's links read); relative
// says the first.
func (s *dreamState) linkedFrom(from string, r memindex.Ref, resolve func(memindex.Ref) string) (p string, relative bool) {
	if base := path.Dir(from); base != "." && r.Scope == memindex.RefFile {
		if p := path.Join(base, r.Target); s.files[p] != nil {
			return p, true
		}
	}
	return resolve(r), false
}

// archiveProposal assembles the proposal and says why, naming each memory
// moved and, with transcripts, the used memories that come back into the
// scan because of it.
func (s *dreamState) archiveProposal(chosen []*model.File, changes []model.Change, notes []string, dropped map[string]bool, heat map[string]model.Heat) model.Proposal {
	d := s.d
	archived := map[string]bool{}
	var names []string
	for _, f := range chosen {
		archived[f.Path] = true
		name := fmt.Sprintf("%s (%s", f.Path, f.ModTime.Format("2006-01-02"))
		if heat != nil {
			name += ", " + usesWord(heat[f.Path].Uses())
		}
		names = append(names, name+")")
	}
	var why strings.Builder
	fmt.Fprintf(&why, "Claude Code's scan lists %d memory files here and offers only the newest %d (by mtime) to recall; each new memory pushes the oldest out, used or not. ",
		d.ScanListed, model.RecallScanCap)
	moves := consolidate.Plural(len(chosen), "memory")
	if n := len(dropped); n > 0 {
		fmt.Fprintf(&why, "The merges and prunes proposed beside this one take %s out of it. ", consolidate.Plural(n, "file"))
		moves = fmt.Sprintf("%d more", len(chosen))
	}
	fmt.Fprintf(&why, "This moves %s into %s/, where the scan never looks but the %s on disk, readable, and can be moved back: ",
		moves, model.ArchiveDir, model.Plural(len(chosen), "file stays", "files stay"))
	if heat != nil {
		fmt.Fprintf(&why, "the %s the transcripts (since %s) show used least, then the oldest: %s. ",
			model.Plural(len(chosen), "memory", "memories"), s.p.Log.Oldest.Format("2006-01-02"), listNames(names))
		// The used memories past the 200 that the scan offers again once
		// this and the merges and prunes are done.
		var left []*model.ScanCandidate
		var files []*model.File
		for _, f := range d.Files {
			if f.Scan.Memory() && !dropped[f.Path] && !archived[f.Path] {
				left = append(left, &model.ScanCandidate{ModTime: f.ModTime})
				files = append(files, f)
			}
		}
		model.RankScan(left)
		var back []string
		for i, f := range files {
			if (f.Scan == model.ScanPastCap || f.Scan == model.ScanTie) && left[i].Reason == model.ScanIn && heat[f.Path].Uses() > 0 {
				back = append(back, fmt.Sprintf("%s (%s)", f.Path, usesWord(heat[f.Path].Uses())))
			}
		}
		if len(back) > 0 {
			fmt.Fprintf(&why, "That brings back into the scan the used %s it had pushed out: %s. ", model.Plural(len(back), "memory", "memories"), listNames(back))
		} else {
			why.WriteString("No memory past the 200 was used in that time, so none comes back that sessions asked for; what stays is now chosen, not left to mtime. ")
		}
	} else {
		fmt.Fprintf(&why, "without transcripts memtui cannot tell which memories are used, so %s: %s. %s already past the 200, so recall sees nothing different today; but the cut is now explicit and yours to choose (drop a move, or move another memory into %s/ instead), and a new memory no longer silently pushes an old one out. ",
			model.Plural(len(chosen), "this is the oldest", "these are the oldest"), listNames(names), model.Plural(len(chosen), "It is the file", "They are the files"), model.ArchiveDir)
	}
	if len(notes) > 0 {
		why.WriteString(strings.ToUpper(notes[0][:1]) + notes[0][1:])
		for _, n := range notes[1:] {
			why.WriteString("; " + n)
		}
		why.WriteString(". ")
	}
	if left := d.ScanListed - len(dropped) - len(chosen); left > model.RecallScanCap {
		fmt.Fprintf(&why, "That still leaves %d memory files: the others are left to merges, read through a link or only in part, or named in a way memtui will not move; decide on them by hand. ", left)
	}
	why.WriteString("Each file keeps its bytes and mtime; undo moves them back.")
	title := fmt.Sprintf("Archive %s past the recall scan's %d into %s/", consolidate.Plural(len(chosen), "memory"), model.RecallScanCap, model.ArchiveDir)
	reads := []string{"MEMORY.md"}
	for _, f := range d.Files {
		if !s.opaque(f.Path) && !archived[f.Path] {
			reads = append(reads, f.Path) // each was searched for links to the archived memories
		}
	}
	return s.proposal(model.KindArchive, title, why.String(), s.byRule[consolidate.RuleRecallCap], changes, reads...)
}

// usesWord says how often the transcripts show a memory used.
func usesWord(n int) string {
	switch n {
	case 0:
		return "never used"
	case 1:
		return "used once"
	}
	return fmt.Sprintf("used %d times", n)
}

package dream

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
)

// The verbs of curating by hand, as proposals: what a person asks for is
// written as any proposal is, under the locks, through the journal, and
// undone the same way. They are External: a person's word, not memtui's,
// so a file they change is dated when written.

// ErrNotHere is a hand verb's refusal: the file is not a memory of the
// directory as read, or memtui cannot change it.
var ErrNotHere = errors.New("not a memory memtui can change in this directory")

// Delete proposes removing the memory at path (kept in the journal, so
// undo brings it back) with its MEMORY.md entries, so no link to it is
// left dangling.
func Delete(p *model.Project, d *model.MemoryDir, path string, opts Options) (model.Proposal, error) {
	opts.Options = opts.Options.WithDefaults()
	s := newDreamState(p, d, opts)
	f := s.file(path)
	if path == model.IndexFileName || f == nil || f.Truncated || s.opaque(path) || f.Link != "" {
		return model.Proposal{}, fmt.Errorf("%s: %w", path, ErrNotHere)
	}
	changes := []model.Change{s.remove(path)}
	why := "Deleted by hand in memtui. It is kept in memtui's journal, so undo brings it back."
	if ix, ok := s.content(model.IndexFileName); ok {
		ed := memindex.NewEditorMode(ix, d.Kind.LoadMode())
		if n, err := ed.RemoveEntries(path); err == nil {
			changes = append(changes, s.update(model.IndexFileName, ed.Bytes()))
			why += fmt.Sprintf(" Its %d index %s go%s with it.", n, model.Plural(n, "entry", "entries"), model.Plural(n, "es", ""))
		}
	}
	prop := s.proposal(model.KindPrune, "Delete "+path, why, s.fileFindings(path), changes)
	prop.External = true
	return redacted(s, prop)
}

// Revert proposes putting the file at path back as it was reviewed:
// text, when it existed then; deleted, when it did not (an agent created
// it since). It is the way back from a change an agent made.
func Revert(p *model.Project, d *model.MemoryDir, path string, text string, existed bool, opts Options) (model.Proposal, error) {
	return RevertTo(p, d, path, text, existed, "the reviewed version",
		"Reverted by hand in memtui: the file goes back to what the last review saw.", opts)
}

// RevertTo proposes putting the file at path back as it was at some
// earlier point, named by to ("the reviewed version", "its text before
// session 5f0c2a8e's Edit"): text, when it existed then; deleted, when it
// did not.
// why says where the text comes from; the proposal adds that the journal
// keeps the version replaced.
func RevertTo(p *model.Project, d *model.MemoryDir, path, text string, existed bool, to, why string, opts Options) (model.Proposal, error) {
	prop, err := RevertFiles(p, d, []RevertFile{{Path: path, Text: text, Existed: existed}}, "Revert "+path+" to "+to, why, opts)
	if err != nil && errors.Is(err, errNothingToRevert) {
		return prop, fmt.Errorf("%s already matches %s: nothing to revert", path, to)
	}
	return prop, err
}

// RevertFile is one file of a revert: the text it goes back to, or, when
// it did not exist then, its removal.
type RevertFile struct {
	Path    string
	Text    string
	Existed bool
}

var errNothingToRevert = errors.New("nothing to revert")

// RevertFiles proposes putting several files back as they were at some
// earlier point (a whole session's or Dream run's work undone), as one
// proposal titled title; why says where the texts come from. A file that
// already matches is left out; none left is an error.
func RevertFiles(p *model.Project, d *model.MemoryDir, files []RevertFile, title, why string, opts Options) (model.Proposal, error) {
	opts.Options = opts.Options.WithDefaults()
	s := newDreamState(p, d, opts)
	var cs []model.Change
	for _, f := range files {
		cur := s.file(f.Path)
		switch {
		case cur != nil && (cur.Truncated || s.opaque(f.Path) || cur.Link != ""):
			return model.Proposal{}, fmt.Errorf("%s: %w", f.Path, ErrNotHere)
		case cur != nil && !f.Existed:
			cs = append(cs, s.remove(f.Path))
		case cur != nil:
			if string(cur.Content) == f.Text {
				continue
			}
			cs = append(cs, model.Change{Path: f.Path, Op: model.OpUpdate, BaseSHA256: consolidate.SHA256Hex(cur.Content), After: f.Text})
		case f.Existed:
			cs = append(cs, s.create(f.Path, []byte(f.Text)))
		}
	}
	if len(cs) == 0 {
		return model.Proposal{}, errNothingToRevert
	}
	prop := s.proposal(model.KindRestoreLost, title, why+" The journal keeps the versions replaced, so undo brings them back.", nil, cs)
	prop.External = true
	return redacted(s, prop)
}

// redacted passes a hand-made proposal through the same secret backstop
// as memtui's own.
func redacted(s *dreamState, prop model.Proposal) (model.Proposal, error) {
	out, ok := s.redactAfter(prop)
	if !ok {
		return model.Proposal{}, errors.New("the change would write a link to a file whose name holds a secret; not proposed")
	}
	return out, nil
}

// Retype proposes giving the memory at path the type typ: the type line
// Claude Code reads is replaced (metadata.type over a top-level one), or a
// top-level one added, every other byte kept (claudeCodeItem included). A
// file without frontmatter Claude Code reads has no type to change:
// fix-frontmatter gives it one first.
func Retype(p *model.Project, d *model.MemoryDir, path string, typ model.Type, opts Options) (model.Proposal, error) {
	opts.Options = opts.Options.WithDefaults()
	s := newDreamState(p, d, opts)
	f := s.file(path)
	if path == model.IndexFileName || f == nil || f.Truncated || s.opaque(path) || f.Link != "" {
		return model.Proposal{}, fmt.Errorf("%s: %w", path, ErrNotHere)
	}
	doc := s.docs[path]
	if doc.Status != model.FMOK || doc.ClaudeSeesNone {
		return model.Proposal{}, fmt.Errorf("%s has no frontmatter Claude Code reads: fix its frontmatter first", path)
	}
	if doc.Claude().Type == string(typ) {
		return model.Proposal{}, fmt.Errorf("%s is a %s memory already", path, typ)
	}
	content := f.Content
	nl := model.EOL(content)
	lines := strings.SplitAfter(string(content), "\n")
	inItem := itemLines(content, lines)
	if i := keyIndex(lines, doc, "type", doc.FM.TypeKey == "metadata.type", inItem); doc.FM.TypeKey != "" && i >= 0 {
		indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
		lines[i] = indent + "type: " + string(typ) + nl
	} else {
		at := doc.Close - 1 // before the closing fence
		lines = append(lines[:at], append([]string{"type: " + string(typ) + nl}, lines[at:]...)...)
	}
	out := []byte(strings.Join(lines, ""))
	if back := claude.ParseDoc(out); back.Claude().Type != string(typ) {
		return model.Proposal{}, fmt.Errorf("%s: its frontmatter is not one memtui can retype safely; edit it in $EDITOR", path)
	}
	prop := s.proposal(model.KindFixFrontmatter, fmt.Sprintf("Make %s a %s memory", path, typ),
		"Retyped by hand in memtui: the type Claude Code reads becomes "+string(typ)+". Undo brings the old one back.", nil, []model.Change{s.update(path, out)})
	prop.External = true
	return redacted(s, prop)
}

// Rename proposes giving the memory at path the file name name, in the
// same folder (".md" added when missing): the file moves, bytes and mtime
// kept, and every reference to it follows, MEMORY.md's through the index
// editor and the other memories' links, as an archive's do. A name taken,
// or links that cannot all be repointed, is refused.
func Rename(p *model.Project, d *model.MemoryDir, from, name string, opts Options) (model.Proposal, error) {
	opts.Options = opts.Options.WithDefaults()
	s := newDreamState(p, d, opts)
	f := s.file(from)
	if from == model.IndexFileName || f == nil || f.Truncated || s.opaque(from) || f.Link != "" {
		return model.Proposal{}, fmt.Errorf("%s: %w", from, ErrNotHere)
	}
	name = strings.TrimSpace(name)
	if !strings.HasSuffix(name, ".md") {
		name += ".md"
	}
	if name == ".md" || strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") || name == model.IndexFileName ||
		strings.IndexFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return model.Proposal{}, fmt.Errorf("%q is not a file name for a memory: a name in the same folder, ending in .md", name)
	}
	to := path.Join(path.Dir(from), name)
	switch {
	case to == from:
		return model.Proposal{}, fmt.Errorf("%s has that name already", from)
	case s.file(to) != nil:
		return model.Proposal{}, fmt.Errorf("%s exists: pick another name", to)
	}
	changes, notes, blocked := s.moveChanges([]*model.File{f}, func(string) string { return to }, "to "+to)
	if len(blocked) > 0 {
		return model.Proposal{}, fmt.Errorf("the links to %s cannot all be repointed (a file memtui reads in part, or a frontmatter the rewrite would change): rename it by hand", from)
	}
	why := "Renamed by hand in memtui; the file moves with its bytes and mtime."
	if len(notes) > 0 {
		why += " " + strings.ToUpper(notes[0][:1]) + notes[0][1:] + "."
		for _, n := range notes[1:] {
			why += " " + strings.ToUpper(n[:1]) + n[1:] + "."
		}
	}
	prop := s.proposal(model.KindArchive, "Rename "+from+" to "+to, why+" Undo brings the old name back.", nil, changes)
	prop.External = true
	return redacted(s, prop)
}

package dream

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// Dream for a Codex store (issue 17; "codex facts §N" cites
// docs/codex-memory-format.md): the same review, journal and undo as
// Claude Code's memory, and the same kinds where the meaning is the same
// (redact-secret, absolutize-dates, add-year, merge), plus trim-summary,
// which brings memory_summary.md back under the cap Codex cuts at.
//
// What may be written follows the doc's rules for a safe external editor
// (codex facts §4.4 items 5 and 6), and codexState.allowed enforces them
// on every proposal whatever its proposer did:
//   - rewritten: only the consolidated artifacts, MEMORY.md,
//     memory_summary.md and skills/**. raw_memories.md and
//     rollout_summaries/ are rendered again from Codex's database before
//     every consolidation, so an edit there is silently lost;
//   - created: only a new note in extensions/ad_hoc/notes/, with a name
//     Codex's add_ad_hoc_note accepts;
//   - never: an existing note, or any other file under extensions/. A
//     note is the user's own input to Codex, authoritative and never
//     pruned, and the doc lists it among what a new file may be, not among
//     what an editor may change (its "edit only" list is the three
//     consolidated artifacts). A secret in a note is reported by the
//     checks and the redaction of the other files says it is still there,
//     for the person to edit by hand;
//   - nothing is deleted or moved.
//
// memory_summary.md keeps its first line v1 and never ends a proposal
// over the cap when it was under it. A store whose consolidation is
// running (Store.Busy) gets no proposal at all: memtui is read-only then.

// codexBlockSections are the handbook's block-level sections (codex facts
// §1.3.2), whose bullets the dedupe compares.
var codexBlockSections = map[string]bool{"User preferences": true, "Reusable knowledge": true, "Failures and how to do differently": true}

// codexProposers run in this order (model.ProposalKinds').
var codexProposers = []struct {
	kind model.ProposalKind
	fn   func(*codexState) []model.Proposal
}{
	{model.KindRedactSecret, proposeCodexRedactions},
	{model.KindAbsolutizeDates, proposeCodexAbsoluteDates},
	{model.KindAddYear, proposeCodexYears},
	{model.KindMerge, proposeCodexDedupe},
	{model.KindTrimSummary, proposeCodexTrim},
}

// codexOnly is the Claude pipeline's proposer of a kind only a Codex
// store has a use for: a Claude directory has no memory_summary.md.
func codexOnly(*dreamState) []model.Proposal { return nil }

// ProposeCodex checks a Codex store (consolidate.CheckCodex) and proposes
// what would fix it, as ProposeDir does for Claude Code's memory: each
// proposal over s.Root (MemoryDir), its changes relative to it, each
// file's BaseSHA256 the hash of the bytes read. A store that does not
// exist, or whose consolidation is running, gets none. Deterministic for
// a given store and opts.Now.
func ProposeCodex(s *codex.Store, opts Options) []model.Proposal {
	opts.Options = opts.Options.WithDefaults()
	if s == nil || !s.Exists || s.Busy() != "" {
		return nil
	}
	st := newCodexState(s, opts)
	var out []model.Proposal
	for _, pr := range codexProposers {
		if !opts.wants(pr.kind) {
			continue
		}
		for _, p := range pr.fn(st) {
			// Checked as it will be written: once redacted.
			if p = st.redactAfter(p); st.allowed(p) == nil {
				out = append(out, p)
			}
		}
	}
	SortProposals(out)
	return out
}

// CodexNote proposes creating a new ad-hoc note saying text (see
// codex.NewNote for its name and content): the channel Codex reads a
// person's new fact from and never overwrites (codex facts §1.3.6, §4.4
// item 6). It is a person's word, so External. A store that does not exist yet
// (Codex never generated memories there), a consolidation running, or a
// name already taken is an error, as is a text NewNote refuses. A secret
// in the text is written as [REDACTED], and the rationale says so.
func CodexNote(s *codex.Store, now time.Time, text string) (model.Proposal, error) {
	if s == nil || !s.Exists {
		return model.Proposal{}, errors.New("Codex has no memory store here yet: a note would be read by nothing")
	}
	if why := s.Busy(); why != "" {
		return model.Proposal{}, errors.New(why)
	}
	name, content, err := codex.NewNote(now, "", text)
	if err != nil {
		return model.Proposal{}, err
	}
	path := codex.NotesDir + name
	if s.File(path) != nil {
		return model.Proposal{}, fmt.Errorf("%s exists: a note is never overwritten; try again in a second", path)
	}
	st := newCodexState(s, Options{})
	p := st.proposal(model.KindAddNote, "Add the note "+path,
		"A new ad-hoc note: Codex's next consolidation reads it as authoritative and folds it into MEMORY.md and memory_summary.md, and never deletes it. A note is the channel Codex keeps for a person's new facts; an edit of MEMORY.md works too, but its agent may rephrase it. Undo removes the note.",
		nil, []model.Change{{Path: path, Op: model.OpCreate, After: string(content)}})
	p.External = true
	p = st.redactAfter(p)
	if err := st.allowed(p); err != nil {
		return model.Proposal{}, err
	}
	return p, nil
}

// PartialCodex is Partial for a proposal over a Codex store (ProposeCodex,
// CodexNote): only the kept blocks, re-validated with Codex's rules
// instead of Claude Code's (a handbook is no index, a summary has no
// frontmatter): each file written is text, only an update or a note's
// creation, and memory_summary.md keeps its line 1 v1 and does not grow
// over the cap. before gives each file's content as the proposal read
// it. A proposal with nothing kept is an error: reject it instead.
func PartialCodex(p model.Proposal, before func(path string) (string, bool), keep Keep) (model.Proposal, error) {
	out, err := keepBlocks(p, before, keep)
	if err != nil {
		return p, err
	}
	for _, c := range out.Changes {
		if c.Op != model.OpUpdate && c.Op != model.OpCreate {
			return p, fmt.Errorf("%s: memtui neither deletes nor moves a file of a Codex store", c.Path)
		}
		if !isText([]byte(c.After)) {
			return p, fmt.Errorf("%s: the new content is not UTF-8 text", c.Path)
		}
		if old, ok := before(c.Path); ok && c.Path == codex.SummaryFile {
			if err := summaryKept([]byte(old), []byte(c.After)); err != nil {
				return p, err
			}
		}
	}
	return partlyAccepted(out), nil
}

// codexState is a Codex store gathered for the proposers: its findings
// (checked when first asked for) and its files' hashes.
type codexState struct {
	s        *codex.Store
	opts     Options
	findings []model.Finding
	checked  bool
	hashes   map[string]string
	// hb and hbLines are MEMORY.md parsed and placed line by line
	// (handbook), for the date and dedupe proposers both.
	hb      *codex.Handbook
	hbLines []hbLine
}

func newCodexState(s *codex.Store, opts Options) *codexState {
	opts.Options = opts.Options.WithDefaults()
	return &codexState{s: s, opts: opts, hashes: map[string]string{}}
}

// handbook is MEMORY.md as read, parsed and placed line by line, once;
// ok is false when memtui may not rewrite it.
func (st *codexState) handbook() (content []byte, h *codex.Handbook, lines []hbLine, ok bool) {
	content, ok = st.content(codex.HandbookFile)
	if !ok {
		return nil, nil, nil, false
	}
	if st.hb == nil {
		hb := codex.ParseHandbook(content)
		st.hb, st.hbLines = &hb, scanHandbook(content)
	}
	return content, st.hb, st.hbLines, true
}

// codexEditable reports whether rel (relative to the memory root) is a
// file memtui may rewrite: a consolidated artifact (see the top of this
// file).
func codexEditable(rel string) bool {
	return rel == codex.SummaryFile || rel == codex.HandbookFile || strings.HasPrefix(rel, codex.SkillsDir)
}

// content is an editable file's bytes as read; ok is false when the store
// has no such file, it is not one memtui may rewrite, it was read only in
// part (a proposal must never write back a truncated read) or it is not
// text.
func (st *codexState) content(rel string) ([]byte, bool) {
	f := st.s.File(rel)
	if f == nil || f.Truncated || !codexEditable(rel) || !isText(f.Content) {
		return nil, false
	}
	return f.Content, true
}

// editable lists, sorted, the files memtui may rewrite that it can.
func (st *codexState) editable() []string {
	var out []string
	for _, f := range st.s.Files {
		if _, ok := st.content(f.Path); ok {
			out = append(out, f.Path)
		}
	}
	sort.Strings(out)
	return out
}

func (st *codexState) hash(rel string) string {
	if h, ok := st.hashes[rel]; ok {
		return h
	}
	f := st.s.File(rel)
	if f == nil {
		return ""
	}
	h := consolidate.SHA256Hex(f.Content)
	st.hashes[rel] = h
	return h
}

func (st *codexState) update(rel string, after []byte) model.Change {
	return model.Change{Path: rel, Op: model.OpUpdate, BaseSHA256: st.hash(rel), After: string(after)}
}

// fileFindings are the store's findings of the given rules on one file.
func (st *codexState) fileFindings(rel string, rules ...string) []model.Finding {
	var out []model.Finding
	for _, f := range st.allFindings() {
		if f.File != rel {
			continue
		}
		for _, r := range rules {
			if f.Rule == r {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// proposal assembles a proposal over the store with its deterministic ID:
// the kind and a hash of every change, with no machine-specific path in
// it (a copy of the store elsewhere gets the same IDs, as a Claude
// directory's copy does).
func (st *codexState) proposal(kind model.ProposalKind, title, rationale string, fixes []model.Finding, changes []model.Change) model.Proposal {
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00codex\x00", kind)
	for _, c := range changes {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", c.Path, c.Op, c.BaseSHA256)
		io.WriteString(h, c.After) // a whole handbook: not through fmt's buffer
		h.Write([]byte{0})
	}
	p := model.Proposal{
		ID:        string(kind) + "-" + hex.EncodeToString(h.Sum(nil))[:10],
		Kind:      kind,
		Project:   st.s.Home,
		MemoryDir: st.s.Root,
		Title:     title,
		Rationale: rationale,
		Changes:   changes,
	}
	addFixes(&p, fixes)
	return p
}

// allowed is the backstop every Codex proposal passes (see the top of
// this file): nil when each change is one a safe editor may make, as the
// store was read.
func (st *codexState) allowed(p model.Proposal) error {
	if len(p.Changes) == 0 || p.Also != nil {
		return errors.New("a Codex proposal changes the store's own files and nothing else")
	}
	for _, c := range p.Changes {
		switch c.Op {
		case model.OpUpdate:
			before, ok := st.content(c.Path)
			if !ok {
				return fmt.Errorf("%s: memtui does not rewrite it (Codex regenerates it, it is a note or an extension's, it was read in part, or it is not text)", c.Path)
			}
			if c.BaseSHA256 != st.hash(c.Path) {
				return fmt.Errorf("%s: the change is not based on the file as read", c.Path)
			}
			if c.Path == codex.SummaryFile {
				if err := summaryKept(before, []byte(c.After)); err != nil {
					return err
				}
			}
		case model.OpCreate:
			name, ok := strings.CutPrefix(c.Path, codex.NotesDir)
			if !ok || !codex.ValidNoteName(name) {
				return fmt.Errorf("%s: memtui creates nothing in a Codex store but a new note in %s", c.Path, codex.NotesDir)
			}
			if st.s.File(c.Path) != nil {
				return fmt.Errorf("%s exists: a note is never overwritten", c.Path)
			}
			if strings.TrimSpace(c.After) == "" {
				return fmt.Errorf("%s: a note must not be blank", c.Path)
			}
		default:
			return fmt.Errorf("%s: memtui neither deletes nor moves a file of a Codex store", c.Path)
		}
	}
	return nil
}

// summaryKept checks a new memory_summary.md against the old: its first
// line stays exactly v1 when it was, and it ends under the cap when it
// was under it (and no bigger when it was over).
func summaryKept(before, after []byte) error {
	if codex.ParseSummary(before).Header && !codex.ParseSummary(after).Header {
		return errors.New("memory_summary.md must keep its first line v1: Codex discards a summary without it")
	}
	b, a := len(codex.Load(before).Trimmed), len(codex.Load(after).Trimmed)
	if a > codex.SummaryByteLimit && a > b {
		return fmt.Errorf("memory_summary.md would grow to %d bytes, over Codex's cap of %d", a, codex.SummaryByteLimit)
	}
	return nil
}

// redactAfter keeps secrets out of every proposal, as Claude's
// redactAfter does: a file a proposal writes gets its secrets replaced
// with [REDACTED] too, and the title and rationale are masked.
func (st *codexState) redactAfter(p model.Proposal) model.Proposal {
	sc := st.opts.Secrets
	p.Title, p.Rationale = sc.MaskSecrets(p.Title), sc.MaskSecrets(p.Rationale)
	var redacted []string
	for i, c := range p.Changes {
		after, n := redactOutsideItems(sc.Scan(c.After), c.After)
		if n == 0 {
			continue
		}
		p.Changes[i].After = after
		redacted = append(redacted, c.Path)
	}
	if len(redacted) == 0 {
		return p
	}
	if p.Kind != model.KindRedactSecret {
		p.Rationale += " The secrets in " + sc.MaskSecrets(listNames(redacted)) + " are replaced with [REDACTED] too: memtui never writes one back."
	}
	// The ID covers the final changes.
	np := st.proposal(p.Kind, p.Title, p.Rationale, nil, p.Changes)
	np.Fixes, np.External = p.Fixes, p.External
	return np
}

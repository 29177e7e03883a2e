package dream

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// This file is the Dream pipeline around the proposers: orient (the
// findings), gather (a directory's files, parsed, with their hashes), then
// each kind's proposer (consolidate and prune), each returning proposals
// that are self-contained transactions over one directory.

// Options tune the proposals.
type Options struct {
	// Options are the checks' options: the findings proposals are drawn
	// from come from them (Now also stamps metadata.modified).
	consolidate.Options
	// Kinds limits the kinds proposed; nil proposes every kind.
	Kinds []model.ProposalKind
	// IncludeTeam proposes changes in team/ directories too. Off by
	// default: team/<mount>/ holds team stores mounted through
	// CLAUDE_MEMORY_STORES and synced to other people (facts §7.1), by
	// sync code not traced, so what a delete there does is not known.
	IncludeTeam bool
	// Adopt are the stranded stores whose memories belong in a live one,
	// by the live memory dir's path (app finds them, with the reason, and
	// loads them): each becomes an adopt proposal of the live dir.
	Adopt map[string][]Stranded
}

// Stranded is a store Claude Code never loads, loaded, with why its
// memories belong to the live store it is listed under.
type Stranded struct {
	Dir *model.MemoryDir
	// Name names it for people: the folder its sessions ran in ("" for
	// its project's slug).
	Name string
	// Reason says why nothing loads it; Evidence why it is the live
	// store's project (each a sentence).
	Reason   string
	Evidence []string
}

// Proposes reports whether a run with these options proposes for d: a
// team dir only with IncludeTeam.
func (o Options) Proposes(d *model.MemoryDir) bool {
	return d.Kind != model.DirTeam || o.IncludeTeam
}

// Wants reports whether the options propose kind k.
func (o Options) Wants(k model.ProposalKind) bool { return o.wants(k) }

func (o Options) wants(k model.ProposalKind) bool {
	if len(o.Kinds) == 0 {
		return true
	}
	for _, w := range o.Kinds {
		if w == k {
			return true
		}
	}
	return false
}

// proposer makes one kind's proposals for a directory.
type proposer struct {
	kind model.ProposalKind
	fn   func(*dreamState) []model.Proposal
}

// proposers run in this order; see model.ProposalKinds.
var proposers = []proposer{
	{model.KindRedactSecret, proposeRedactions},
	{model.KindRestoreLost, proposeRestores},
	{model.KindRestoreDeleted, proposeRestoreDeleted},
	{model.KindAdopt, proposeAdopts},
	{model.KindFixFrontmatter, proposeFrontmatterFixes},
	{model.KindAbsolutizeDates, proposeAbsoluteDates},
	{model.KindAddYear, proposeYears},
	{model.KindMerge, proposeMerges},
	{model.KindPrune, proposePrunes},
	{model.KindArchive, proposeArchives},
	{model.KindReindex, proposeReindex},
	{model.KindTrimSummary, codexOnly}, // Codex's summary: ProposeCodex
}

// ForScan is opts ready for a run over the whole scan (Options.ForScan).
func (o Options) ForScan(scan *model.Scan) Options {
	o.Options = o.Options.ForScan(scan)
	return o
}

// SortProposals orders proposals by directory, then kind (in the order
// they are proposed), then ID.
func SortProposals(ps []model.Proposal) {
	rank := map[model.ProposalKind]int{}
	for i, k := range model.ProposalKinds {
		rank[k] = i
	}
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		switch {
		case a.MemoryDir != b.MemoryDir:
			return a.MemoryDir < b.MemoryDir
		case a.Kind != b.Kind:
			return rank[a.Kind] < rank[b.Kind]
		}
		return a.ID < b.ID
	})
}

// ProposeDir checks one directory and proposes what would fix it. A clean
// directory gets no proposal.
func ProposeDir(p *model.Project, d *model.MemoryDir, opts Options) []model.Proposal {
	opts.Options = opts.Options.WithDefaults()
	if !opts.Proposes(d) {
		return nil
	}
	if !d.Exists && len(d.Files) == 0 && d.Index == nil {
		return nil
	}
	s := newDreamState(p, d, opts)
	var out []model.Proposal
	for _, pr := range proposers {
		if opts.wants(pr.kind) {
			for _, prop := range pr.fn(s) {
				// Each proposer leaves opaque files alone; this is the
				// backstop that keeps one slip from rewriting bytes
				// memtui cannot read.
				if s.touchesOpaque(changedPaths(prop), readPaths(prop)) || s.touchesLink(changedPaths(prop)) {
					continue
				}
				// And the one that keeps Claude Code's claudeCodeItem
				// blocks byte for byte, whatever a proposer did.
				if !s.keepsItems(prop) {
					continue
				}
				if prop, ok := s.redactAfter(prop); ok {
					out = append(out, prop)
				}
			}
		}
	}
	SortProposals(out)
	return out
}

// redactAfter keeps secrets out of every proposal: a file a proposal writes
// (a merge of a file that holds a token, a re-dated one) gets its secrets
// replaced with [REDACTED] too, and the title and rationale (which quote
// file names and transcript text) are masked, so no proposal ever prints or
// writes one. A proposal that would write a link to a file whose name
// holds a secret is withheld (ok is false): redacted, the link would point
// at "[REDACTED].md", which does not exist; kept, it would write the
// secret back. Only renaming the file fixes that, which the secret
// finding on the name asks for.
func (s *dreamState) redactAfter(p model.Proposal) (_ model.Proposal, ok bool) {
	sc := s.opts.Secrets
	p.Title, p.Rationale = sc.MaskSecrets(p.Title), sc.MaskSecrets(p.Rationale)
	var redacted []string
	changed := false
	for i, c := range p.Changes {
		if c.Op == model.OpDelete || c.After == "" {
			continue
		}
		secs := secretsOutsideItems(sc, c.After)
		if len(secs) == 0 {
			continue
		}
		if secretInFileLink(c.After, secs) {
			return p, false
		}
		after, n := redactOutsideItems(secs, c.After)
		if n == 0 {
			continue
		}
		p.Changes[i].After = after
		redacted = append(redacted, c.Path)
		changed = true
	}
	if !changed {
		return p, true
	}
	if p.Kind != model.KindRedactSecret {
		p.Rationale += " The secrets in " + sc.MaskSecrets(listNames(redacted)) + " are replaced with [REDACTED] too: memtui never writes one back."
	}
	// The ID covers the final changes.
	np := s.proposal(p.Kind, p.Title, p.Rationale, nil, p.Changes, readPaths(p)...)
	np.Fixes = p.Fixes
	return np, true
}

// keepsItems reports whether every file a proposal rewrites keeps its
// metadata.claudeCodeItem blocks byte for byte (and gains none). A delete
// keeps the block whole in the journal.
func (s *dreamState) keepsItems(p model.Proposal) bool {
	for _, c := range p.Changes {
		if c.Op != model.OpUpdate {
			continue
		}
		if f := s.file(c.Path); f != nil && !claude.ItemsIntact(f.Content, []byte(c.After)) {
			return false
		}
	}
	return true
}

// secretsOutsideItems is sc.Scan(text) without the secrets that lie in a
// claudeCodeItem block: memtui keeps that block byte for byte, so a
// secret there is reported but never redacted by a rewrite.
func secretsOutsideItems(sc *secrets.Scanner, text string) []secrets.Secret {
	secs := sc.Scan(text)
	items := claude.ItemSpans([]byte(text))
	if len(items) == 0 || len(secs) == 0 {
		return secs
	}
	out := secs[:0:0]
	for _, sec := range secs {
		if !claude.InItem(items, sec.Start, sec.End) {
			out = append(out, sec)
		}
	}
	return out
}

// redactOutsideItems replaces with [REDACTED] every secret of text that
// lies outside its claudeCodeItem blocks.
func redactOutsideItems(secs []secrets.Secret, text string) (string, int) {
	if len(secs) == 0 {
		return text, 0
	}
	edits := make([]edit, len(secs))
	for i, sec := range secs {
		edits[i] = edit{sec.Start, sec.End, sec.Redaction()}
	}
	return string(applyEdits([]byte(text), edits)), len(secs)
}

// secretInFileLink reports a secret that lies in the destination of a link
// to a file: a markdown link's ](dest) or a wikilink's [[name]], on the
// secret's line. A link to a URL ("](https://user:pass@host)") is not one:
// redacting a password there breaks nothing that worked.
func secretInFileLink(text string, secs []secrets.Secret) bool {
	for _, sec := range secs {
		before := text[strings.LastIndexByte(text[:sec.Start], '\n')+1 : sec.Start]
		if i := strings.LastIndex(before, "]("); i >= 0 && !strings.ContainsAny(before[i:], ")") && !strings.Contains(before[i:], "://") {
			return true
		}
		if i := strings.LastIndex(before, "[["); i >= 0 && !strings.Contains(before[i:], "]]") {
			return true
		}
	}
	return false
}

// dreamState is one directory gathered for the proposers: its findings,
// files by path, parsed frontmatter and hashes.
type dreamState struct {
	p        *model.Project
	d        *model.MemoryDir
	opts     Options
	findings []model.Finding
	lost     []forensics.Lost    // the lost-update check's analysis
	deleted  []forensics.Deleted // the memory-deleted check's
	byRule   map[string][]model.Finding
	files    map[string]*model.File // topic files by path
	docs     map[string]model.Doc
	hashes   map[string]string
	// opaqueMemo caches opaque: whether a file is one memtui cannot
	// represent as text.
	opaqueMemo map[string]bool
	// plan and inGroup are the prune plan and the near-duplicates, which
	// the prune and archive proposers both need (see prunes,
	// nearDuplicates); nil until asked for.
	plan    *prunePlan
	inGroup map[string]bool
}

func newDreamState(p *model.Project, d *model.MemoryDir, opts Options) *dreamState {
	s := &dreamState{p: p, d: d, opts: opts, byRule: map[string][]model.Finding{},
		files: make(map[string]*model.File, len(d.Files)), hashes: map[string]string{}, opaqueMemo: map[string]bool{}}
	st := consolidate.OrientDirAll(p, d, opts.Options)
	s.findings, s.lost, s.deleted, s.docs = st.Findings, st.Lost, st.Deleted, st.Docs
	for _, f := range s.findings {
		s.byRule[f.Rule] = append(s.byRule[f.Rule], f)
	}
	for _, f := range d.Files {
		s.files[f.Path] = f
	}
	return s
}

// ruleFiles lists, sorted, the files with findings of the given rules.
func (s *dreamState) ruleFiles(rules ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rules {
		for _, f := range s.byRule[r] {
			if f.File != "" && !seen[f.File] {
				seen[f.File] = true
				out = append(out, f.File)
			}
		}
	}
	sort.Strings(out)
	return out
}

// fileFindings are the findings of the given rules on one file.
func (s *dreamState) fileFindings(path string, rules ...string) []model.Finding {
	var out []model.Finding
	for _, r := range rules {
		for _, f := range s.byRule[r] {
			if f.File == path {
				out = append(out, f)
			}
		}
	}
	return out
}

// content is a file's bytes as read ("MEMORY.md" for the index); ok is
// false when the directory has no such file, it was read only in part (a
// proposal must never write back a truncated read) or it is not text
// memtui can represent (see opaque).
func (s *dreamState) content(path string) ([]byte, bool) {
	f := s.file(path)
	if f == nil || f.Truncated || s.opaque(path) {
		return nil, false
	}
	return f.Content, true
}

func (s *dreamState) file(path string) *model.File {
	if path == "MEMORY.md" {
		return s.d.Index
	}
	return s.files[path]
}

// hash is the hex sha256 of a file as read.
func (s *dreamState) hash(path string) string {
	if h, ok := s.hashes[path]; ok {
		return h
	}
	f := s.file(path)
	if f == nil {
		return ""
	}
	h := consolidate.SHA256Hex(f.Content)
	s.hashes[path] = h
	return h
}

// dirKey names a directory for proposal IDs without the machine-specific
// part of its path: relative to its config dir when it is under one, so a
// copy of the same tree elsewhere (the demo's, a backup's) gets the same
// IDs.
func dirKey(p *model.Project, d *model.MemoryDir) string {
	if p != nil && p.ConfigDir != "" {
		if rel, ok := strings.CutPrefix(d.Path, strings.TrimSuffix(p.ConfigDir, "/")+"/"); ok {
			return rel
		}
	}
	return d.Path
}

func (s *dreamState) update(path string, after []byte) model.Change {
	return model.Change{Path: path, Op: model.OpUpdate, BaseSHA256: s.hash(path), After: string(after)}
}

func (s *dreamState) create(path string, after []byte) model.Change {
	return model.Change{Path: path, Op: model.OpCreate, After: string(after)}
}

func (s *dreamState) remove(path string) model.Change {
	return model.Change{Path: path, Op: model.OpDelete, BaseSHA256: s.hash(path)}
}

// runStamps are what a run writes of its own time into a proposal's
// result: metadata.modified (stamp, a reindex's new files), a merge's
// "(merged <day>)" header, an archive file's "moved here on <day>".
var runStamps = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^([ \t]*modified:[ \t]*)\S.*$`),
	regexp.MustCompile(`\(merged \d{4}-\d{2}-\d{2}\)`),
	regexp.MustCompile(`moved here on \d{4}-\d{2}-\d{2}`),
}

// unstamped is a result without the run's own time, for the ID: the same
// files give the same ID whenever they are proposed (dream, then dream
// --apply --only ID seconds or days later). Nothing else is left out: the
// rest of the result and each changed file's base hash stay in the ID, so
// a change to any file the proposal reads still changes it. (A file's own
// modified: line is left out too; its base hash stands for it.)
func unstamped(after string) string {
	for _, re := range runStamps {
		after = re.ReplaceAllStringFunc(after, func(m string) string {
			if i := strings.Index(m, "modified:"); i >= 0 {
				return m[:i] + "modified: ~"
			}
			return "~"
		})
	}
	return after
}

// proposal assembles a proposal with its deterministic ID: the kind and a
// hash of the directory and every change (its time stamps left out), so
// the same tree always gives the same ID, whenever it is proposed, and a
// different change never shares one.
func (s *dreamState) proposal(kind model.ProposalKind, title, rationale string, fixes []model.Finding, changes []model.Change, reads ...string) model.Proposal {
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", kind, dirKey(s.p, s.d))
	for _, c := range changes {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", c.Path, c.Op, c.BaseSHA256, unstamped(c.After))
		if c.From != "" {
			// (only then: the IDs of proposals without a move stay as
			// they were before moves existed)
			fmt.Fprintf(h, "from\x00%s\x00", c.From)
		}
	}
	p := model.Proposal{
		ID:        string(kind) + "-" + hex.EncodeToString(h.Sum(nil))[:10],
		Kind:      kind,
		Project:   s.p.Name(),
		MemoryDir: s.d.Path,
		Title:     title,
		Rationale: rationale,
		Changes:   changes,
	}
	addFixes(&p, fixes)
	changed := map[string]bool{}
	for _, c := range changes {
		// A move's source is compared as its base, and is gone once the
		// move is made: it is no read to compare again after.
		changed[c.Path], changed[c.Source()] = true, true
	}
	sort.Strings(reads)
	for _, r := range reads {
		if !changed[r] && s.file(r) != nil {
			changed[r] = true
			p.Reads = append(p.Reads, model.FileRead{Path: r, SHA256: s.hash(r)})
		}
	}
	return p
}

// changedPaths are the paths a proposal writes: every change's, and a
// move's source, which it takes away.
func changedPaths(p model.Proposal) []string {
	out := make([]string, 0, len(p.Changes))
	for _, c := range p.Changes {
		out = append(out, c.Path)
		if c.Op == model.OpMove {
			out = append(out, c.From)
		}
	}
	return out
}

func readPaths(p model.Proposal) []string {
	out := make([]string, len(p.Reads))
	for i, r := range p.Reads {
		out[i] = r.Path
	}
	return out
}

// Apply returns files (path relative to the memory dir, "MEMORY.md" for the
// index) with the proposal's changes made, after checking every base hash
// and every read: it is the whole transaction, in memory. files is not
// changed.
func Apply(files map[string][]byte, p model.Proposal) (map[string][]byte, error) {
	for _, r := range p.Reads {
		b, ok := files[r.Path]
		if !ok || consolidate.SHA256Hex(b) != r.SHA256 {
			return nil, fmt.Errorf("%s changed since the proposal read it", r.Path)
		}
	}
	out := make(map[string][]byte, len(files)+1)
	for k, v := range files {
		out[k] = v
	}
	for _, c := range p.Changes {
		b, exists := files[c.Path]
		switch c.Op {
		case model.OpMove:
			src, ok := files[c.From]
			switch {
			case !ok:
				return nil, fmt.Errorf("%s is gone", c.From)
			case consolidate.SHA256Hex(src) != c.BaseSHA256:
				return nil, fmt.Errorf("%s changed since the proposal read it", c.From)
			case exists:
				return nil, fmt.Errorf("%s already exists", c.Path)
			}
			out[c.Path] = src
			delete(out, c.From)
		case model.OpCreate:
			if exists {
				return nil, fmt.Errorf("%s already exists", c.Path)
			}
			out[c.Path] = []byte(c.After)
		case model.OpUpdate, model.OpDelete:
			if !exists {
				return nil, fmt.Errorf("%s is gone", c.Path)
			}
			if consolidate.SHA256Hex(b) != c.BaseSHA256 {
				return nil, fmt.Errorf("%s changed since the proposal read it", c.Path)
			}
			if c.Op == model.OpDelete {
				delete(out, c.Path)
			} else {
				out[c.Path] = []byte(c.After)
			}
		default:
			return nil, fmt.Errorf("%s: unknown operation %q", c.Path, c.Op)
		}
	}
	return out, nil
}

// modifiedLine finds a metadata.modified line inside the frontmatter.
var modifiedLine = regexp.MustCompile(`(?m)^([ \t]+modified:[ \t]*)([^\r\n]*)(\r?\n)`)

// stamp sets metadata.modified to now, as Claude Code does on each write,
// when the file carries one (the current frontmatter shape); other files
// are left as they are rather than re-serialised. A modified: line inside
// a claudeCodeItem block is not the one.
func stamp(content []byte, now time.Time) []byte {
	doc := claude.ParseDoc(content)
	if doc.Status != model.FMOK && doc.Status != model.FMTolerant || doc.FM.Modified == "" || doc.BodyStart == 0 {
		return content
	}
	head := content[:doc.BodyStart]
	items := claude.ItemSpans(content)
	var loc []int
	for _, m := range modifiedLine.FindAllSubmatchIndex(head, -1) {
		if !claude.InItem(items, m[0], m[1]) {
			loc = m
			break
		}
	}
	if loc == nil {
		return content
	}
	var b bytes.Buffer
	b.Write(head[:loc[3]])
	b.WriteString(now.UTC().Format("2006-01-02T15:04:05.000Z"))
	b.Write(head[loc[5]:])
	b.Write(content[doc.BodyStart:])
	return b.Bytes()
}

// listNames joins names for a rationale: "a", "a and b", "a, b and c".
func listNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// addFixes names in p the findings it fixes, each once.
func addFixes(p *model.Proposal, fixes []model.Finding) {
	seen := map[model.FindingRef]bool{}
	for _, f := range fixes {
		r := model.FindingRef{Rule: f.Rule, File: f.File, Line: f.Line}
		if !seen[r] {
			seen[r] = true
			p.Fixes = append(p.Fixes, r)
		}
	}
}

package consolidate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
)

// The external-proposer protocol: memtui hands a command one memory
// directory as JSON on stdin (ProposerInput) and reads proposals in the
// `dream --json` shape on stdout. Everything it returns goes through
// CheckExternal before a person sees it, and through the same review and
// locked apply as memtui's own: the command can never write through
// memtui.

// ProposerVersion is the protocol's version, in the input and the output.
const ProposerVersion = 1

// ProposerFile is one file of the directory as the proposer sees it.
type ProposerFile struct {
	Path     string `json:"path"`
	SHA256   string `json:"sha256"`
	Modified string `json:"modified,omitempty"` // RFC 3339 mtime
	Content  string `json:"content"`
}

// ProposerInput is what a proposer command reads on stdin.
type ProposerInput struct {
	Version   int             `json:"version"`
	Project   string          `json:"project"`
	MemoryDir string          `json:"memory_dir"`
	Now       string          `json:"now"`
	Index     *ProposerFile   `json:"index"` // MEMORY.md; null when absent
	Files     []ProposerFile  `json:"files"`
	Findings  []model.Finding `json:"findings"`
	// Kinds are the proposal kinds memtui accepts.
	Kinds []model.ProposalKind `json:"kinds"`
}

// ProposerOutput is what a proposer command writes on stdout.
type ProposerOutput struct {
	Version   int              `json:"version"`
	Proposals []model.Proposal `json:"proposals"`
}

// NewProposerInput describes one loaded directory for a proposer. Files
// read only in part are left out: no proposal may rewrite them.
func NewProposerInput(p *model.Project, d *model.MemoryDir, opts DreamOptions) ProposerInput {
	opts.Options = opts.Options.withDefaults()
	in := ProposerInput{Version: ProposerVersion, Project: projectName(p), MemoryDir: d.Path,
		Now: opts.Now.Format("2006-01-02T15:04:05Z07:00"), Findings: OrientDir(p, d, opts.Options), Kinds: model.ProposalKinds}
	if in.Findings == nil {
		in.Findings = []model.Finding{}
	}
	// A proposer may well be a hosted model: secrets are replaced with
	// [REDACTED] in what it reads (the hashes stay those of the files), so
	// a proposal that rewrites such a file redacts them as a side effect.
	file := func(f *model.File) ProposerFile {
		text, _ := opts.Secrets.Redact(string(f.Content))
		return ProposerFile{Path: f.Path, SHA256: SHA256Hex(f.Content), Modified: f.ModTime.UTC().Format("2006-01-02T15:04:05Z"), Content: text}
	}
	if d.Index != nil && !d.Index.Truncated {
		// (the index's secrets are redacted the same way)
		ix := file(d.Index)
		in.Index = &ix
	}
	in.Files = []ProposerFile{}
	for _, f := range d.Files {
		if !f.Truncated {
			in.Files = append(in.Files, file(f))
		}
	}
	return in
}

// CheckExternal validates a proposal from an external proposer against the
// directory as memtui read it, and returns it normalised: its project and
// directory set, its ID memtui's own (kind and a hash of its changes), so a
// proposer can neither collide with nor impersonate another proposal. The
// error says what is wrong, for the person running dream.
func CheckExternal(p *model.Project, d *model.MemoryDir, prop model.Proposal, includeTeam bool) (model.Proposal, error) {
	if prop.MemoryDir != "" && path.Clean(prop.MemoryDir) != path.Clean(d.Path) {
		return prop, fmt.Errorf("it is for %s, not %s", prop.MemoryDir, d.Path)
	}
	if _, ok := model.ParseProposalKind(string(prop.Kind)); !ok {
		return prop, fmt.Errorf("unknown kind %q", prop.Kind)
	}
	if strings.TrimSpace(prop.Title) == "" {
		return prop, errors.New("it has no title")
	}
	if len(prop.Changes) == 0 {
		return prop, errors.New("it changes nothing")
	}
	files := map[string]*model.File{}
	for _, f := range d.Files {
		files[f.Path] = f
	}
	if d.Index != nil {
		files["MEMORY.md"] = d.Index
	}
	seen := map[string]bool{}
	for _, c := range prop.Changes {
		if err := checkChangePath(c.Path, includeTeam); err != nil {
			return prop, err
		}
		if seen[c.Path] {
			return prop, fmt.Errorf("%s is changed twice", c.Path)
		}
		seen[c.Path] = true
		f := files[c.Path]
		switch c.Op {
		case model.OpCreate:
			if f != nil {
				return prop, fmt.Errorf("%s: create, but the file exists", c.Path)
			}
			if c.BaseSHA256 != "" {
				return prop, fmt.Errorf("%s: create with a base hash", c.Path)
			}
		case model.OpUpdate, model.OpDelete:
			if f == nil {
				return prop, fmt.Errorf("%s: %s, but there is no such file", c.Path, c.Op)
			}
			if f.Truncated {
				return prop, fmt.Errorf("%s was only read in part; memtui does not let it be rewritten", c.Path)
			}
			if c.BaseSHA256 != SHA256Hex(f.Content) {
				return prop, fmt.Errorf("%s: base_sha256 %s does not match the file (%s)", c.Path, short(c.BaseSHA256), short(SHA256Hex(f.Content)))
			}
			if c.Op == model.OpDelete && c.After != "" {
				return prop, fmt.Errorf("%s: a delete with content", c.Path)
			}
		default:
			return prop, fmt.Errorf("%s: unknown op %q", c.Path, c.Op)
		}
		if c.Op != model.OpDelete {
			var before []byte
			if f != nil {
				before = f.Content
			}
			if err := checkAfter(c, before); err != nil {
				return prop, err
			}
		}
	}
	// No secret goes back to disk through memtui, whoever proposed it.
	for i, c := range prop.Changes {
		prop.Changes[i].After, _ = DefaultSecretScanner().Redact(c.After)
	}
	for _, r := range prop.Reads {
		f := files[r.Path]
		if f == nil || SHA256Hex(f.Content) != r.SHA256 {
			return prop, fmt.Errorf("%s: the hash it says it read does not match the file", r.Path)
		}
	}
	prop.Project = projectName(p)
	prop.MemoryDir = d.Path
	sort.Slice(prop.Changes, func(i, j int) bool { return prop.Changes[i].Path < prop.Changes[j].Path })
	h := sha256.New()
	fmt.Fprintf(h, "external\x00%s\x00%s\x00", prop.Kind, d.Path)
	for _, c := range prop.Changes {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", c.Path, c.Op, c.BaseSHA256, c.After)
	}
	prop.ID = string(prop.Kind) + "-x" + hex.EncodeToString(h.Sum(nil))[:9]
	return prop, nil
}

// checkChangePath keeps a change inside the memory directory, on a
// markdown file, out of team/ unless asked.
func checkChangePath(p string, includeTeam bool) error {
	switch {
	case p == "" || strings.ContainsRune(p, 0) || strings.Contains(p, "\\"):
		return fmt.Errorf("%q is not a usable path", p)
	case path.IsAbs(p) || strings.HasPrefix(p, "~"):
		return fmt.Errorf("%s is not inside the memory directory", p)
	case path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("%s escapes or is not a clean path inside the memory directory", p)
	case !strings.HasSuffix(p, ".md"):
		return fmt.Errorf("%s is not a markdown file; memory directories hold only .md files", p)
	case !includeTeam && (p == "team" || strings.HasPrefix(p, "team/")):
		return fmt.Errorf("%s is in team/, which memtui changes only with --include-team", p)
	case strings.HasPrefix(path.Base(p), "."):
		return fmt.Errorf("%s is a hidden file", p)
	}
	return nil
}

// checkAfter makes sure written content is text Claude Code can read: valid
// UTF-8, no NUL, a topic file's frontmatter readable (unless it was already
// broken: a date fix need not repair it), an index without frontmatter that
// loads whole.
func checkAfter(c model.Change, before []byte) error {
	if !utf8.ValidString(c.After) || strings.ContainsRune(c.After, 0) {
		return fmt.Errorf("%s: the new content is not UTF-8 text", c.Path)
	}
	if c.Path == "MEMORY.md" {
		l := model.SimulateLoad([]byte(c.After))
		if l.FrontmatterEnd > 0 {
			return errors.New("MEMORY.md: the new index has frontmatter, which Claude Code strips")
		}
		// An index already past a cap may stay past it (a merge that drops
		// two entries is still an improvement); it may not grow, and one
		// that loaded whole must still.
		if l.Truncated() {
			b := model.SimulateLoad(before)
			if before == nil || !b.Truncated() || l.LineCount > b.LineCount || l.Units > b.Units {
				return fmt.Errorf("MEMORY.md: the new index is cut off when Claude Code loads it (%d lines, %d units)", l.LineCount, l.Units)
			}
		}
		return nil
	}
	broken := func(st model.FMStatus) bool {
		return st == model.FMInvalid || st == model.FMUnclosed || st == model.FMNotAtStart
	}
	if doc := model.ParseDoc([]byte(c.After)); broken(doc.Status) && (before == nil || !broken(model.ParseDoc(before).Status)) {
		return fmt.Errorf("%s: the new frontmatter does not parse (%s)", c.Path, doc.Problem)
	}
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	if h == "" {
		return "none"
	}
	return h
}

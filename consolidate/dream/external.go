package dream

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
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

// MaxProposedFileBytes caps the content a proposal may give one file: what
// memtui itself reads of a memory file (memfs.DefaultMaxFileBytes). A
// bigger file would be one memtui could never read whole again, and so
// never check or rewrite.
const MaxProposedFileBytes = 1 << 20

// NewProposerInput describes one loaded directory for a proposer. Files
// read only in part, and files that are not text (see opaque), are left
// out: no proposal may rewrite them.
//
// A proposer may well be a hosted model: every string it reads has its
// secrets replaced with [REDACTED], file contents and the index as well as
// the findings (a lost-update finding quotes transcript text, a branch
// name may be a token), file names and the directory's path. The hashes
// stay those of the files, so a proposal that rewrites a file with a
// secret redacts it as a side effect.
func NewProposerInput(p *model.Project, d *model.MemoryDir, opts Options) ProposerInput {
	opts.Options = opts.Options.WithDefaults()
	redact := func(s string) string {
		s, _ = opts.Secrets.Redact(s)
		if def := secrets.Default(); opts.Secrets != def {
			s, _ = def.Redact(s)
		}
		return s
	}
	in := ProposerInput{Version: ProposerVersion, Project: redact(p.Name()), MemoryDir: redact(d.Path),
		Now: opts.Now.Format("2006-01-02T15:04:05Z07:00"), Findings: []model.Finding{}, Kinds: model.ProposalKinds}
	for _, f := range consolidate.ForAgent(p, consolidate.OrientDir(p, d, opts.Options)) {
		f.Project, f.MemoryDir, f.File = redact(f.Project), redact(f.MemoryDir), redact(f.File)
		f.Message, f.Suggestion = redact(f.Message), redact(f.Suggestion)
		in.Findings = append(in.Findings, f)
	}
	file := func(f *model.File) ProposerFile {
		return ProposerFile{Path: redact(f.Path), SHA256: consolidate.SHA256Hex(f.Content), Modified: f.ModTime.UTC().Format("2006-01-02T15:04:05Z"),
			Content: redact(string(f.Content))}
	}
	if d.Index != nil && !d.Index.Truncated && isText(d.Index.Content) {
		ix := file(d.Index)
		in.Index = &ix
	}
	in.Files = []ProposerFile{}
	for _, f := range d.Files {
		if !f.Truncated && isText(f.Content) {
			in.Files = append(in.Files, file(f))
		}
	}
	return in
}

// OnDisk is what an lstat found at the paths a proposal names, each path
// and each of its parent directories (relative to the memory directory,
// slash-separated): the mode of each one that exists, not following
// links. memfs.LstatPaths builds it.
type OnDisk map[string]fs.FileMode

// CheckExternal validates a proposal from an external proposer against the
// directory as memtui read it, and returns it normalised: its project and
// directory set, its ID memtui's own (kind and a hash of its changes), so a
// proposer can neither collide with nor impersonate another proposal. The
// error says what is wrong, for the person running dream; it quotes the
// proposer's words as they are (whoever prints it makes them safe to show,
// with the one sanitizer, so they are not escaped twice). It is
// CheckExternalOnDisk with only what the scan saw.
func CheckExternal(p *model.Project, d *model.MemoryDir, prop model.Proposal, includeTeam bool) (model.Proposal, error) {
	return CheckExternalOnDisk(p, d, prop, includeTeam, nil)
}

// CheckExternalOnDisk is CheckExternal that also checks each changed path
// against what is on disk now (disk; nil checks only the scan's problems):
// nothing is written to a symlink, through a symlinked directory, to
// something that is not a regular file, or created where a file memtui did
// not read already exists. Refused too: deleting MEMORY.md, a file name
// memtui would have to escape to show (see checkName), content over
// MaxProposedFileBytes, and changing a file that is not text (see opaque).
func CheckExternalOnDisk(p *model.Project, d *model.MemoryDir, prop model.Proposal, includeTeam bool, disk OnDisk) (model.Proposal, error) {
	if prop.MemoryDir != "" && path.Clean(prop.MemoryDir) != path.Clean(d.Path) {
		return prop, fmt.Errorf("it is for \"%s\", not %s", prop.MemoryDir, d.Path)
	}
	if _, ok := model.ParseProposalKind(string(prop.Kind)); !ok {
		return prop, fmt.Errorf("unknown kind \"%s\"", prop.Kind)
	}
	if strings.TrimSpace(prop.Title) == "" {
		return prop, errors.New("it has no title")
	}
	if i := strings.IndexFunc(prop.Title, func(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError }); i >= 0 {
		return prop, fmt.Errorf("its title \"%s\" is not one line of text (a control character at byte %d)", prop.Title, i)
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
	problems := map[string]model.Problem{}
	for _, pr := range d.Problems {
		if pr.Kind != model.ProblemTooLarge { // (a file read in part: Truncated says so)
			problems[pr.Path] = pr
		}
	}
	seen := map[string]bool{}
	for _, c := range prop.Changes {
		// A move's destination is a new name (checked as a create's, unless
		// it keeps the file's own name, which is what it is); its source
		// an existing file, checked as a delete's.
		newName := c.Op == model.OpCreate || c.Op == model.OpMove && path.Base(c.Path) != path.Base(c.From)
		if err := checkChangePath(c.Path, includeTeam, newName); err != nil {
			return prop, err
		}
		paths := []string{c.Path}
		if c.Op == model.OpMove {
			if c.From == "" {
				return prop, fmt.Errorf("%s: a move with no \"from\"", c.Path)
			}
			if err := checkChangePath(c.From, includeTeam, false); err != nil {
				return prop, err
			}
			paths = append(paths, c.From)
		} else if c.From != "" {
			return prop, fmt.Errorf("%s: a %s with a \"from\" (only a move has one)", c.Path, c.Op)
		}
		for _, p := range paths {
			if seen[p] {
				return prop, fmt.Errorf("%s is changed twice", p)
			}
			seen[p] = true
		}
		if err := checkPlace(c, problems, disk); err != nil {
			return prop, err
		}
		f := files[c.Path]
		switch c.Op {
		case model.OpMove:
			src := files[c.From]
			switch {
			case f != nil:
				return prop, fmt.Errorf("%s: move, but the file exists; memtui never moves a file over another", c.Path)
			case path.Base(c.From) == "MEMORY.md" || path.Base(c.Path) == "MEMORY.md":
				return prop, fmt.Errorf("%s: a move of or onto an index; a proposal may rewrite MEMORY.md, never move it", c.Path)
			case src == nil:
				return prop, fmt.Errorf("%s: move from %s, but there is no such file", c.Path, c.From)
			case src.Truncated:
				return prop, fmt.Errorf("%s was only read in part; memtui does not let it be moved", c.From)
			case !isText(src.Content):
				return prop, fmt.Errorf("%s is not text memtui can represent (binary, UTF-16 or not UTF-8); memtui neither rewrites nor moves it", c.From)
			case c.BaseSHA256 != consolidate.SHA256Hex(src.Content):
				return prop, fmt.Errorf("%s: base_sha256 %q does not match the file (%s)", c.From, short(c.BaseSHA256), short(consolidate.SHA256Hex(src.Content)))
			case c.After != "":
				return prop, fmt.Errorf("%s: a move with content; a move keeps the file's bytes", c.Path)
			}
			if err := checkPlace(model.Change{Path: c.From, Op: model.OpDelete}, problems, disk); err != nil {
				return prop, err
			}
			continue
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
			if !isText(f.Content) {
				return prop, fmt.Errorf("%s is not text memtui can represent (binary, UTF-16 or not UTF-8); memtui neither rewrites nor deletes it", c.Path)
			}
			if c.BaseSHA256 != consolidate.SHA256Hex(f.Content) {
				return prop, fmt.Errorf("%s: base_sha256 %q does not match the file (%s)", c.Path, short(c.BaseSHA256), short(consolidate.SHA256Hex(f.Content)))
			}
			if c.Op == model.OpDelete && c.Path == "MEMORY.md" {
				return prop, errors.New("MEMORY.md: it deletes the index Claude Code loads into every session; a proposal may rewrite the index, never delete it")
			}
			if c.Op == model.OpDelete && c.After != "" {
				return prop, fmt.Errorf("%s: a delete with content", c.Path)
			}
		default:
			return prop, fmt.Errorf("%s: unknown op \"%s\"", c.Path, c.Op)
		}
		if c.Op != model.OpDelete {
			if len(c.After) > MaxProposedFileBytes {
				return prop, fmt.Errorf("%s: the new content is %d bytes, over the %d KB memtui reads of a memory file", c.Path, len(c.After), MaxProposedFileBytes>>10)
			}
			var before []byte
			if f != nil {
				before = f.Content
			}
			if err := checkAfter(c, before, d.Kind.LoadMode()); err != nil {
				return prop, err
			}
		}
	}
	// No secret goes back to disk through memtui, whoever proposed it.
	for i, c := range prop.Changes {
		prop.Changes[i].After, _ = secrets.Default().Redact(c.After)
	}
	for _, r := range prop.Reads {
		f := files[r.Path]
		if f == nil || consolidate.SHA256Hex(f.Content) != r.SHA256 {
			return prop, fmt.Errorf("\"%s\": the hash it says it read does not match the file", r.Path)
		}
	}
	prop.Project = p.Name()
	prop.MemoryDir = d.Path
	sort.Slice(prop.Changes, func(i, j int) bool { return prop.Changes[i].Path < prop.Changes[j].Path })
	h := sha256.New()
	fmt.Fprintf(h, "external\x00%s\x00%s\x00", prop.Kind, d.Path)
	for _, c := range prop.Changes {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00", c.Path, c.Op, c.BaseSHA256, c.After)
		if c.From != "" {
			fmt.Fprintf(h, "from\x00%s\x00", c.From)
		}
	}
	prop.ID = string(prop.Kind) + "-x" + hex.EncodeToString(h.Sum(nil))[:9]
	prop.External = true
	return prop, nil
}

// checkChangePath keeps a change inside the memory directory, on a
// markdown file with a name memtui can show as it is (and, for a new one,
// link as it is), out of team/ unless asked.
func checkChangePath(p string, includeTeam, create bool) error {
	if p == "" || strings.Contains(p, "\\") {
		return fmt.Errorf("\"%s\" is not a usable path", p)
	}
	if path.IsAbs(p) || strings.HasPrefix(p, "~") {
		return fmt.Errorf("\"%s\" is not inside the memory directory", p)
	}
	for _, part := range strings.Split(p, "/") {
		if err := checkName(part, create); err != nil {
			return fmt.Errorf("\"%s\": %v", p, err)
		}
	}
	switch {
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

// nameASCII are the ASCII characters besides letters and digits a file
// name may hold: none starts an escape sequence, ends a line, or means
// something in a Markdown link's destination (# starts an anchor, ? a
// query, % an escape, <> and [] delimit) or in a Windows file name.
const nameASCII = "-_.+,@=() "

// checkName accepts a path component memtui can print as it is: no
// control character (an escape sequence in a name would drive the terminal
// of whoever lists the directory; a newline forges a line of output), no
// format character (a bidirectional override shows a name as another, a
// zero-width space hides in it), no line or paragraph separator, no byte
// that is not UTF-8, and not "" (a // in a path). A name for a new file
// must also be one memtui can link from MEMORY.md as it is (create): made
// of letters, marks and digits of any script, the characters of nameASCII,
// and single spaces between other characters. An existing file that fails
// only the stricter test may still be changed: its name is what it is.
func checkName(name string, create bool) error {
	if name == "" {
		return errors.New("an empty path component")
	}
	if !utf8.ValidString(name) {
		return errors.New("the file name is not UTF-8")
	}
	for _, r := range name {
		switch {
		case unicode.IsControl(r):
			return fmt.Errorf("a control character (%U) in a file name", r)
		case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Cs):
			return fmt.Errorf("an invisible or formatting character (%U) in a file name", r)
		}
	}
	if !create {
		return nil
	}
	if strings.HasPrefix(name, " ") || strings.HasSuffix(name, " ") || strings.Contains(name, "  ") {
		return errors.New("a new file name with leading, trailing or doubled spaces")
	}
	for _, r := range name {
		switch {
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(nameASCII, r)):
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)):
		default:
			return fmt.Errorf("\"%c\" (%U) in a new file name; memtui creates only names of letters, digits, spaces and %s", r, r, strings.TrimSpace(nameASCII))
		}
	}
	return nil
}

// checkPlace refuses a change whose path, or one of whose parent
// directories, is a symlink, not what it should be (a directory above, a
// regular file at the end), or unreadable, from the scan's problems and
// from disk when given; and a create where a file memtui did not read
// already lies. Apply would refuse these too, but only after a person
// reviewed and accepted the proposal.
func checkPlace(c model.Change, problems map[string]model.Problem, disk OnDisk) error {
	parts := strings.Split(c.Path, "/")
	for i := 1; i <= len(parts); i++ {
		at := strings.Join(parts[:i], "/")
		last := i == len(parts)
		where := c.Path
		if !last {
			where = fmt.Sprintf("%s (its directory %s)", c.Path, at)
		}
		if pr, ok := problems[at]; ok {
			switch {
			case pr.Kind == model.ProblemSymlink || pr.Kind == model.ProblemSymlinkEscape || pr.Kind == model.ProblemSymlinkLoop || pr.Kind == model.ProblemLinkSkipped:
				return fmt.Errorf("%s is a symlink; memtui never writes through one", where)
			case pr.Kind == model.ProblemUnreadable:
				return fmt.Errorf("%s could not be read (%s); memtui does not write where it cannot read", where, pr.Detail)
			case pr.Kind == model.ProblemNotFile && last:
				return fmt.Errorf("%s is not a regular file", where)
			}
		}
		mode, ok := disk[at]
		if !ok {
			continue
		}
		switch {
		case mode&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symlink; memtui never writes through one", where)
		case !last && !mode.IsDir():
			return fmt.Errorf("%s is not a directory", where)
		case last && !mode.IsRegular():
			return fmt.Errorf("%s is a %s, not a regular file", where, model.FileKind(mode))
		case last && (c.Op == model.OpCreate || c.Op == model.OpMove):
			return fmt.Errorf("%s: %s, but a file memtui did not read as a memory is there", c.Path, c.Op)
		}
	}
	return nil
}

// checkAfter makes sure written content is text Claude Code can read: valid
// UTF-8, no NUL, a topic file's frontmatter readable (unless it was already
// broken: a date fix need not repair it), an index without frontmatter that
// loads whole (measured with mode, the pipeline Claude Code loads the
// directory's index with).
func checkAfter(c model.Change, before []byte, mode model.LoadMode) error {
	if !utf8.ValidString(c.After) || strings.ContainsRune(c.After, 0) {
		return fmt.Errorf("%s: the new content is not UTF-8 text", c.Path)
	}
	if c.Path == "MEMORY.md" {
		l := claude.SimulateLoadMode([]byte(c.After), mode)
		if l.FrontmatterEnd > 0 {
			return errors.New("MEMORY.md: the new index has frontmatter, which Claude Code strips")
		}
		// An index already past a cap may stay past it (a merge that drops
		// two entries is still an improvement); it may not grow, and one
		// that loaded whole must still.
		if l.Truncated() {
			b := claude.SimulateLoadMode(before, mode)
			if before == nil || !b.Truncated() || l.LineCount > b.LineCount || l.Units > b.Units {
				return fmt.Errorf("MEMORY.md: the new index is cut off when Claude Code loads it (%d lines, %d units)", l.LineCount, l.Units)
			}
		}
		return nil
	}
	broken := func(d model.Doc) bool {
		return d.Status == model.FMInvalid || d.Status == model.FMUnclosed || d.Status == model.FMNotAtStart || d.ClaudeSeesNone
	}
	if doc := claude.ParseDoc([]byte(c.After)); broken(doc) && (before == nil || !broken(claude.ParseDoc(before))) {
		return fmt.Errorf("%s: the new frontmatter does not parse for Claude Code (%s)", c.Path, doc.Problem)
	}
	if before != nil && !claude.ItemsIntact(before, []byte(c.After)) {
		return fmt.Errorf("%s: the change rewrites metadata.claudeCodeItem, Claude Code's record of the item, which memtui keeps byte for byte", c.Path)
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

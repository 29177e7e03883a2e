package consolidate

import (
	"bytes"
	"fmt"
	"iter"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/prose"
)

// checkProblems reports what the reader could not read or would not follow.
func checkProblems(s *dirState) {
	for _, p := range s.dir.Problems {
		switch p.Kind {
		case model.ProblemSymlink:
			s.report(RuleSymlink, p.Path, 0,
				fmt.Sprintf("%s is a symlink (%s); Claude Code matches memory paths lexically, so writes through it are not treated as memory writes, and memtui never writes through it", p.Path, p.Detail),
				"Replace the link with the file itself.")
		case model.ProblemSymlinkEscape:
			s.report(RuleSymlink, p.Path, 0,
				fmt.Sprintf("%s is a symlink to %s, outside the memory directory; Claude Code's scan follows it and offers what it finds to recall, so memtui reads it too (masked as everywhere) but never writes through it", p.Path, p.Detail),
				"Move the target into the memory directory, or remove the link if it is not meant as memory.")
		case model.ProblemSymlinkLoop:
			s.report(RuleSymlink, p.Path, 0,
				fmt.Sprintf("%s is a symlink that dangles or loops (%s)", p.Path, p.Detail),
				"Remove the link.")
		case model.ProblemLinkSkipped:
			s.report(RuleSymlink, p.Path, 0,
				fmt.Sprintf("%s: %s", p.Path, p.Detail),
				"Remove the link, or put the files it leads to in the memory directory itself.")
		case model.ProblemUnreadable:
			s.report(RuleFileUnreadable, p.Path, 0,
				fmt.Sprintf("%s could not be read: %s", p.Path, p.Detail),
				"Check the file's permissions; Claude Code drops files it cannot read from its memory scan.")
		case model.ProblemNotFile:
			s.report(RuleFileUnreadable, p.Path, 0,
				fmt.Sprintf("%s is not a regular file (%s) but its name ends in .md", p.Path, p.Detail),
				"Rename it; Claude Code tries to read every *.md in the memory directory.")
		}
		// ProblemTooLarge needs no finding of its own: recall-truncated
		// fires on the size and says only the start was checked.
	}
}

// checkDir reports directory-level findings.
func checkDir(s *dirState) {
	if s.dir.Exists && s.index == nil && len(s.files) == 0 && len(s.dir.Problems) == 0 {
		s.report(RuleMemdirEmpty, "", 0,
			"the memory directory is empty",
			"Harmless: Claude Code creates it every session (even when autoMemoryDirectory points elsewhere); delete it if the project is gone.")
	}
}

// checkFiles runs the per-file checks over every topic file. A file Claude
// Code's scan does not list as a memory (facts 2.1) is only checked for
// secrets: frontmatter, dates, recall and staleness mean nothing for a
// daily log or a file in a dot folder (checkScan says when one looks like
// a memory).
func checkFiles(s *dirState) {
	for _, fs := range s.files {
		if !isMemory(fs.f) {
			checkSecrets(s, fs)
			continue
		}
		checkEncoding(s, fs)
		checkFrontmatter(s, fs)
		checkDescription(s, fs)
		checkRecall(s, fs)
		checkDates(s, fs)
		checkSecrets(s, fs)
		checkPaths(s, fs)
		checkAge(s, fs)
		checkStub(s, fs)
		checkProvenance(s, fs)
	}
	if s.index != nil {
		checkEncoding(s, s.index)
		checkSecrets(s, s.index)
		checkDates(s, s.index)
	}
}

func checkEncoding(s *dirState, fs *CheckedFile) {
	p := fs.f.Path
	if fs.doc.BOM {
		msg := p + " starts with a UTF-8 byte-order mark"
		if fs.doc.Status != model.FMNone && fs != s.index {
			// Claude Code strips it when it reads (2.2), but its Edit and
			// Write still need --- at byte 0 to stamp the block (2.2,
			// stamping rules).
			msg += "; Claude Code reads the frontmatter past it, but does not stamp metadata (modified, originSessionId) when it writes the file"
		}
		s.report(RuleEncoding, p, 1, msg, "save the file as UTF-8 without a BOM")
	}
	// A file that is not text (see opaque) is reported once, and the
	// finding says why no proposal touches it.
	const untouched = "; memtui will not rewrite it or copy text out of it"
	c := fs.f.Content
	if bytes.HasPrefix(c, []byte{0xff, 0xfe}) || bytes.HasPrefix(c, []byte{0xfe, 0xff}) {
		s.report(RuleEncoding, p, 1,
			p+" is UTF-16 (it starts with a UTF-16 byte-order mark): Claude Code reads memories as UTF-8"+untouched,
			"Re-save the file as UTF-8.")
		return
	}
	if i := bytes.IndexByte(c, 0); i >= 0 {
		s.report(RuleEncoding, p, fs.lineOf(i),
			fmt.Sprintf("%s contains NUL bytes (first on line %d): it is binary, UTF-16 or corrupt%s", p, fs.lineOf(i), untouched),
			"Restore the file from a backup or rewrite it as UTF-8 text.")
		return // a binary file is also invalid UTF-8; one finding is enough
	}
	if !utf8.Valid(c) {
		off := firstInvalidUTF8(c)
		s.report(RuleEncoding, p, fs.lineOf(off),
			fmt.Sprintf("%s is not valid UTF-8 (first bad byte on line %d)%s", p, fs.lineOf(off), untouched),
			"Re-save the file as UTF-8.")
	}
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func checkFrontmatter(s *dirState, fs *CheckedFile) {
	p, d := fs.f.Path, fs.doc
	switch d.Status {
	case model.FMNone:
		s.report(RuleFrontmatterMissing, p, 1,
			p+" has no frontmatter: Claude Code lists it with no description or type, so recall can hardly pick it; Claude Code flags the missing description after a write (in recall mode)",
			"Add ---, name, description and metadata.type.")
		return
	case model.FMUnclosed:
		s.report(RuleFrontmatterInvalid, p, d.Open,
			fmt.Sprintf("%s: the frontmatter has %s; Claude Code reads it as no frontmatter", p, d.Problem),
			"Close the block with a --- line, keeping it under 30 lines.")
		return
	case model.FMInvalid:
		s.report(RuleFrontmatterInvalid, p, d.Open,
			fmt.Sprintf("%s: the frontmatter does not parse, even tolerantly (%s); Claude Code treats it as empty", p, d.Problem),
			"Rewrite it as name:, description: and type: lines, quoting values that contain ': ' or ' #'.")
		return
	case model.FMNotAtStart:
		s.report(RuleFrontmatterNotAtStart, p, 1,
			fmt.Sprintf("%s: %s, so Claude Code sees no frontmatter", p, d.Problem),
			"Move the text below the closing ---.")
	case model.FMTolerant:
		if d.ClaudeSeesNone {
			// Claude Code's own parse fails: whatever memtui recovers,
			// the agent sees none of it. The checks below still read
			// memtui's recovery, which is what a fix starts from.
			s.report(RuleFrontmatterUnreadable, p, d.Open,
				fmt.Sprintf("%s: %s, so Claude Code sees no name, description or type", p, d.Problem),
				`Quote the values strict YAML rejects, e.g. description: "Staging host: acme-stg" (fix-frontmatter does), and save the file with LF line ends.`)
			break
		}
		s.report(RuleFrontmatterUnquoted, p, unquotedLine(fs),
			fmt.Sprintf("%s: %s", p, d.Problem),
			`Quote the value, e.g. description: "Staging host: acme-stg".`)
	}
	fm := d.FM
	var empty []string
	if strings.TrimSpace(fm.Name) == "" {
		empty = append(empty, "name")
	}
	if strings.TrimSpace(fm.Description) == "" {
		empty = append(empty, "description")
	}
	if len(empty) > 0 {
		fix := "Fill in a one-line, specific description."
		switch {
		case len(empty) == 2:
			fix = "Fill in a kebab-case name and a one-line, specific description."
		case empty[0] == "name":
			fix = "Fill in a short kebab-case name (it is what [[links]] point at)."
		}
		what := fmt.Sprintf("%s %s empty or missing", strings.Join(empty, " and "), model.Plural(len(empty), "is", "are"))
		if len(fm.NotText) > 0 {
			// name: 12 is a number to YAML, so no name to Claude Code.
			var parts []string
			for _, k := range empty {
				if slices.Contains(fm.NotText, k) {
					parts = append(parts, k+" is not text (YAML reads a number, a boolean or a list)")
				} else {
					parts = append(parts, k+" is empty or missing")
				}
			}
			what = strings.Join(parts, " and ")
			fix = "Quote the value, e.g. name: \"12\", or write it as text."
		}
		why := "; [[links]] and the index name a memory by it"
		switch {
		case fm.Description == "":
			// Claude Code's own nudge (facts doc 3.3, missing_description):
			// no non-empty string description.
			why = "; recall cannot reliably select it, and Claude Code flags a missing description after a write (in recall mode)"
		case slices.Contains(empty, "description"):
			why = "; a blank description gives recall nothing to match"
		}
		s.report(RuleFrontmatterIncomplete, p, d.Open, fmt.Sprintf("%s: %s%s", p, what, why), fix)
	}
	if fm.TypeKey == "" {
		s.report(RuleTypeMissing, p, d.Open,
			p+" has no type (neither metadata.type nor a top-level type:), so Claude Code shows it untagged",
			"Add type: user, feedback, project or reference under metadata:.")
	} else if _, ok := model.ParseType(fm.Type); !ok {
		msg := fmt.Sprintf("%s: %s \"%s\" is not one of user, feedback, project, reference; Claude Code drops it", p, fm.TypeKey, fm.Type)
		switch t := strings.ToLower(strings.TrimSpace(fm.Type)); {
		case fm.Type == "":
			msg = fmt.Sprintf("%s: %s is empty; Claude Code reads no type", p, fm.TypeKey)
		case t != fm.Type && (t == "user" || t == "feedback" || t == "project" || t == "reference"):
			msg = fmt.Sprintf("%s: %s \"%s\" is not written exactly as %s; Claude Code neither trims nor folds case, so it reads no type", p, fm.TypeKey, fm.Type, t)
		}
		s.report(RuleTypeInvalid, p, typeLine(fs),
			msg,
			fmt.Sprintf("Use type: %s.", SuggestType(fm.Type)))
	}
}

// typeLine is the line of the type Claude Code reads: metadata's when the
// file has one there, else the top-level one.
func typeLine(fs *CheckedFile) int {
	if fs.doc.FM.TypeKey == "metadata.type" {
		return fieldLine(fs, "type", true)
	}
	return fieldLine(fs, "type", false)
}

// fieldLine finds the line of a frontmatter key at the top level (nested
// false) or indented under one (nested true), outside claudeCodeItem
// blocks; the opening fence's line when there is none.
func fieldLine(fs *CheckedFile, key string, nested bool) int {
	d := fs.doc
	items := fs.itemSpans()
	for i, pos := 0, 0; i < d.Close-1; i++ {
		line, next := fs.text[pos:], -1
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line, next = line[:j], pos+j+1
		}
		if i >= d.Open {
			l := strings.TrimLeft(line, " \t")
			if (len(l) < len(line)) == nested && strings.HasPrefix(l, key) && strings.HasPrefix(l[len(key):], ":") && !claude.InItem(items, pos, pos+1) {
				return i + 1
			}
		}
		if next < 0 {
			break
		}
		pos = next
	}
	return d.Open
}

// unquotedLine finds the first frontmatter line whose value needs quoting.
func unquotedLine(fs *CheckedFile) int {
	d := fs.doc
	for i, line := range frontLines(fs) {
		l := strings.TrimRight(line, "\r")
		_, v, ok := strings.Cut(strings.TrimLeft(l, " "), ": ")
		if ok && (strings.Contains(v, ": ") || strings.Contains(v, " #") || strings.HasSuffix(v, ":")) &&
			!strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, "'") {
			return i + 1
		}
	}
	return d.Open
}

// keyLine finds the line of a frontmatter key (top-level or nested).
func keyLine(fs *CheckedFile, key string) int {
	d := fs.doc
	for i, line := range frontLines(fs) {
		if l := strings.TrimLeft(line, " \t"); strings.HasPrefix(l, key) && strings.HasPrefix(l[len(key):], ":") {
			return i + 1
		}
	}
	return d.Open
}

// frontLines yields the lines between the frontmatter fences, numbered from
// 0 as strings.Split(text, "\n") would number them (so line i is the file's
// line i+1), without splitting the rest of the file.
func frontLines(fs *CheckedFile) iter.Seq2[int, string] {
	text, open, end := fs.text, fs.doc.Open, fs.doc.Close-1
	return func(yield func(int, string) bool) {
		for i, pos := 0, 0; i < end; i++ {
			line, rest := text[pos:], -1
			if j := strings.IndexByte(line, '\n'); j >= 0 {
				line, rest = line[:j], pos+j+1
			}
			if i >= open && !yield(i, line) {
				return
			}
			if rest < 0 {
				return
			}
			pos = rest
		}
	}
}

// SuggestType maps invalid types seen in the wild to the nearest valid one.
func SuggestType(t string) string {
	// A list ([user], "- user") or a quoted, padded word (" user ") says
	// the word inside.
	t = strings.Trim(strings.ToLower(strings.TrimSpace(t)), "[]-'\" ")
	switch t {
	case "users", "preference", "preferences", "profile", "persona":
		return "user"
	case "feedbacks", "correction", "convention", "rule", "style":
		return "feedback"
	case "reference", "references", "ref", "infra", "link", "links", "docs", "resource":
		return "reference"
	case "user", "feedback", "project": // wrong case, padded, in a list
		return t
	}
	return "project" // decisions, plans, incidents, status: ongoing work
}

// anchor is the time a file's relative dates count from: metadata.modified
// when it parses, else the file's mtime (both as Claude Code stamps them).
func anchor(fs *CheckedFile) (time.Time, string) {
	if !fs.doc.FM.ModifiedTime.IsZero() {
		return fs.doc.FM.ModifiedTime.In(time.Local), "metadata.modified"
	}
	return fs.f.ModTime.In(time.Local), "the file's mtime"
}

func checkDates(s *dirState, fs *CheckedFile) {
	at, source := anchor(fs)
	if at.IsZero() || at.Year() < 2000 {
		return
	}
	// Text in a claudeCodeItem block (a typed prompt) is Claude Code's
	// record of the item, stripped before recall: not the memory's words.
	items := fs.itemSpans()
	for _, sp := range prose.FindRelativeDates(fs.text, at) {
		if claude.InItem(items, sp.Start, sp.End) {
			continue
		}
		msg := fmt.Sprintf("\"%s\" meant %s, counted from %s (%s)", sp.Text, sp.Meant, source, at.Format("2006-01-02"))
		if sp.Ambiguous {
			msg += "; ambiguous: " + sp.Note
		}
		s.report(RuleRelativeDate, fs.f.Path, fs.lineOf(sp.Start), msg,
			fmt.Sprintf("Write \"%s\" instead.", sp.Replacement))
	}
	for _, sp := range prose.FindMissingYears(fs.text, at) {
		if claude.InItem(items, sp.Start, sp.End) {
			continue
		}
		s.report(RuleDateMissingYear, fs.f.Path, fs.lineOf(sp.Start),
			fmt.Sprintf("\"%s\" has no year; written %s, it most likely means %s", sp.Text, at.Format("2006-01-02"), sp.Meant),
			fmt.Sprintf("Write \"%s\".", sp.Replacement))
	}
}

func checkSecrets(s *dirState, fs *CheckedFile) {
	// A name is shown everywhere the file is: listings, MEMORY.md, every
	// transcript that reads it. Masking cannot help where it must be a
	// link, so memtui proposes nothing that writes it (redactAfter).
	for _, sec := range s.opts.Secrets.Scan(fs.f.Path) {
		s.report(RuleSecret, fs.f.Path, 0,
			fmt.Sprintf("the file name holds %s (%s: %s); a name is shown in listings, in MEMORY.md and in every transcript that reads the file", SecretLabel(sec.Description), sec.RuleID, sec.Short),
			"Rename the file (and its MEMORY.md entry) to a name without the credential, and rotate the credential; memtui proposes no index entry for it meanwhile.")
	}
	for _, sec := range s.opts.Secrets.Scan(fs.text) {
		msg := fmt.Sprintf("%s in memory (%s: %s); memory is injected into prompts and may be synced", SecretLabel(sec.Description), sec.RuleID, sec.Short)
		if claude.InItem(fs.itemSpans(), sec.Start, sec.End) {
			msg = fmt.Sprintf("%s in metadata.claudeCodeItem (%s: %s); recall strips that block, but it is on disk and may be synced, and memtui keeps the block byte for byte, so no proposal redacts it", SecretLabel(sec.Description), sec.RuleID, sec.Short)
		}
		s.report(RuleSecret, fs.f.Path, fs.lineOf(sec.Start), msg,
			"Remove it and rotate the credential.")
	}
}

// SecretLabel shortens gitleaks' rule descriptions ("Uncovered a GitHub
// Personal Access Token, potentially leading to …") to the credential's
// name.
func SecretLabel(desc string) string {
	d := desc
	for _, p := range []string{"Uncovered ", "Identified ", "Detected ", "Found ", "Discovered "} {
		d = strings.TrimPrefix(d, p)
	}
	if i := strings.IndexAny(d, ",;("); i > 0 {
		d = d[:i]
	}
	d = strings.TrimSpace(strings.TrimSuffix(d, "."))
	if strings.HasPrefix(d, "a pattern that may indicate ") {
		d = strings.TrimPrefix(d, "a pattern that may indicate ")
	}
	if d == "" {
		return "a secret"
	}
	return d
}

// sourceExt lists extensions that mark a token as a source path. Markdown is
// left out on purpose: memories link each other.
var sourceExt = map[string]bool{
	"go": true, "rs": true, "py": true, "js": true, "jsx": true, "ts": true, "tsx": true, "mjs": true, "cjs": true,
	"java": true, "kt": true, "kts": true, "scala": true, "rb": true, "php": true, "c": true, "h": true, "cc": true,
	"cpp": true, "hpp": true, "cs": true, "swift": true, "m": true, "mm": true, "sh": true, "bash": true, "zsh": true,
	"sql": true, "proto": true, "vue": true, "svelte": true, "css": true, "scss": true, "html": true, "lua": true,
	"ex": true, "exs": true, "erl": true, "hs": true, "ml": true, "clj": true, "dart": true, "tf": true, "gradle": true,
	"yaml": true, "yml": true, "toml": true, "json": true,
}

// checkPaths reports source paths the memory names that are gone from the
// project. It runs only when the project's real root is known and a probe is
// given, and names with no directory part only when they are code-formatted,
// so prose like "see config.json" does not cry wolf.
func checkPaths(s *dirState, fs *CheckedFile) {
	if s.opts.Paths == nil || s.project == nil || s.project.Root == "" {
		return
	}
	body := fs.doc.Body(fs.f.Content)
	seen := map[string]bool{}
	for _, t := range pathTokens(body) {
		tok := string(body[t[0]:t[1]])
		if seen[tok] {
			continue
		}
		seen[tok] = true
		if !strings.Contains(tok, "/") && (t[0] == 0 || body[t[0]-1] != '`') {
			continue
		}
		exists, known := s.opts.Paths.Exists(s.project.Root, strings.TrimPrefix(tok, "./"))
		if !known || exists {
			continue
		}
		s.report(RuleDanglingPath, fs.f.Path, fs.lineOf(fs.doc.BodyStart+t[0]),
			fmt.Sprintf("%s names %s, which no longer exists under %s", fs.f.Path, tok, s.project.Root),
			"Update the memory to the file's new location, or prune it if the fact is obsolete.")
	}
}

// pathTokens finds tokens that look like source paths: path characters
// ending in ".ext" with ext a source extension, standing alone (bounded by
// whitespace, brackets, quotes or backticks; an optional :line suffix and
// trailing punctuation allowed). URLs and home-relative paths are skipped.
// It anchors on each '.' and walks outwards, so it is linear in the text.
func pathTokens(b []byte) [][2]int {
	var out [][2]int
	var ext [7]byte
	for i := 0; i < len(b); i++ {
		d := bytes.IndexByte(b[i:], '.')
		if d < 0 {
			break
		}
		i += d
		j := i + 1 // the extension: letters after the dot, lowered
		for j < len(b) && j-i <= 7 && isLetter(b[j]) {
			ext[j-i-1] = b[j] | 0x20
			j++
		}
		if j == i+1 || j-i > 7 || !sourceExt[string(ext[:j-i-1])] || !pathEnd(b, j) {
			continue
		}
		k := i // the start: walk back over path characters
		for k > 0 && isPathByte(b[k-1]) {
			k--
		}
		switch {
		case k == i, k > 0 && !pathBoundary(b[k-1]), bytes.HasPrefix(b[k:], []byte("//")):
			continue
		}
		out = append(out, [2]int{k, j})
		i = j
	}
	return out
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isPathByte(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '@' || c == '.' || c == '-' || c == '/'
}

// pathBoundary is what may stand right before a path token. A ':' (as in
// https://) or '~' is not, which keeps URLs and home paths out.
func pathBoundary(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '(', '`', '\'', '"', '[':
		return true
	}
	return false
}

// pathEnd reports whether a path token may end at j: end of text, a closing
// delimiter, a :line suffix, or sentence punctuation followed by space.
func pathEnd(b []byte, j int) bool {
	if j >= len(b) {
		return true
	}
	next := func(k int) bool {
		return k >= len(b) || b[k] == ' ' || b[k] == '\n' || b[k] == '\r'
	}
	switch b[j] {
	case ' ', '\t', '\n', '\r', ')', '`', '\'', '"', ',', ';', ']':
		return true
	case ':':
		return next(j+1) || b[j+1] >= '0' && b[j+1] <= '9'
	case '.':
		return next(j + 1)
	}
	return false
}

// staleTypes are the types that describe changing state; user preferences
// and feedback stay true until someone says otherwise, so age alone says
// nothing about them.
var staleTypes = map[string]bool{string(model.TypeProject): true, string(model.TypeReference): true}

func checkAge(s *dirState, fs *CheckedFile) {
	if !staleTypes[fs.doc.FM.Type] {
		return
	}
	at, source := anchor(fs)
	if at.IsZero() {
		return
	}
	age := s.opts.Now.Sub(at)
	if age < s.opts.StaleAfter {
		return
	}
	s.report(RuleStaleMemory, fs.f.Path, 0,
		fmt.Sprintf("%s (%s) was last updated %s, %d days ago (%s); Claude Code warns the agent that such memories may be outdated",
			fs.f.Path, fs.doc.FM.Type, at.Format("2006-01-02"), int(age.Hours()/24), source),
		"Check it against the project today; update or prune it.")
}

// StubWords is the body length under which a memory says too little to be
// worth recalling on its own.
const StubWords = 4

func checkStub(s *dirState, fs *CheckedFile) {
	if fs.doc.Status != model.FMOK && fs.doc.Status != model.FMTolerant {
		return
	}
	body := fs.doc.Body(fs.f.Content)
	if n := CountWords(body, StubWords); n < StubWords {
		s.report(RuleMemoryStub, fs.f.Path, fs.doc.BodyLine,
			fmt.Sprintf("%s has frontmatter but only %d word%s of body", fs.f.Path, n, model.Plural(n, "", "s")),
			"Write the fact with its **Why:** and **How to apply:**, fold it into a related memory, or prune it.")
	}
}

func checkProvenance(s *dirState, fs *CheckedFile) {
	id := fs.doc.FM.OriginSessionID
	if id == "" || s.opts.sessions == nil || !s.opts.sessions.listed(s.project) {
		return
	}
	if s.opts.sessions.has(s.project, id) {
		return
	}
	s.report(RuleProvenanceSwept, fs.f.Path, keyLine(fs, "originSessionId"),
		fmt.Sprintf("%s was first written by session %s, whose transcript is gone (Claude Code deletes transcripts after cleanupPeriodDays, 30 by default)", fs.f.Path, id),
		"Nothing to fix; raise cleanupPeriodDays in settings.json to keep provenance longer.")
}

// checkNames reports duplicate names and wikilinks that lead nowhere.
func checkNames(s *dirState) {
	first := map[string]*CheckedFile{}
	known := map[string]bool{}
	for _, fs := range s.files {
		stem := strings.TrimSuffix(fs.f.Path, ".md")
		known[NormName(stem)] = true
		known[NormName(path.Base(stem))] = true
		n := NormName(fs.doc.FM.Name)
		if n == "" {
			continue
		}
		known[n] = true
		if !isMemory(fs.f) {
			continue // a name Claude Code never lists
		}
		if prev, ok := first[n]; ok {
			s.report(RuleNameDuplicate, fs.f.Path, keyLine(fs, "name"),
				fmt.Sprintf("%s and %s are both named \"%s\"; recall and [[links]] cannot tell them apart", prev.f.Path, fs.f.Path, fs.doc.FM.Name),
				"Merge them if they hold the same fact, or rename one.")
			continue
		}
		first[n] = fs
	}
	all := append([]*CheckedFile{}, s.files...)
	if s.index != nil {
		all = append(all, s.index)
	}
	for _, fs := range all {
		for _, w := range Wikilinks(fs.text) {
			if known[NormName(w.Name)] || claude.InItem(fs.itemSpans(), w.Off, w.Off+2) {
				continue
			}
			s.report(RuleWikilinkBroken, fs.f.Path, fs.lineOf(w.Off),
				fmt.Sprintf("[[%s]] does not match any memory's name or file", w.Name),
				"Fine if the memory is yet to be written; otherwise fix the name.")
		}
	}
}

// Wikilink is a [[name]] link: its name and the offset of its "[[".
type Wikilink struct {
	Name string
	Off  int
}

// Wikilinks finds [[name]] and [[name|label]] outside code. ProseRanges
// leaves a wikilink's brackets in prose and cuts only its target (so dates
// in targets are not read); the opening "[[" must lie in prose, and the name
// is read from the full text.
func Wikilinks(text string) []Wikilink {
	if !strings.Contains(text, "[[") {
		return nil
	}
	var out []Wikilink
	for _, r := range prose.Ranges(text) {
		for i := r[0]; i < r[1]; {
			j := strings.Index(text[i:r[1]], "[[")
			if j < 0 {
				break
			}
			start := i + j + 2
			i = start
			k := strings.Index(text[start:], "]]")
			if k < 0 {
				break
			}
			inner := text[start : start+k]
			if inner == "" || strings.ContainsAny(inner, "\n[") {
				continue
			}
			if p := strings.IndexAny(inner, "|#"); p >= 0 {
				inner = inner[:p]
			}
			out = append(out, Wikilink{Name: strings.TrimSpace(inner), Off: start - 2})
		}
	}
	return out
}

// NormName folds a memory name the way people vary it: case, spaces,
// underscores and hyphens, and a trailing .md.
func NormName(s string) string {
	s = strings.TrimSpace(strings.TrimSuffix(s, ".md"))
	// ASCII, the usual case: one pass, and no copy when nothing changes.
	change := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return normNameUnicode(s)
		}
		change = change || c == ' ' || c == '_' || c >= 'A' && c <= 'Z'
	}
	if !change {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		switch {
		case c == ' ' || c == '_':
			b[i] = '-'
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func normNameUnicode(s string) string {
	s = strings.ToLower(s)
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '_' {
			return '-'
		}
		return r
	}, s)
}

// sessionSet knows which transcripts exist, per config dir: a memory's
// originSessionId may name a session that ran in a subdirectory, whose
// transcript sits under another slug of the same config dir.
type sessionSet map[string]map[string]bool

func newSessionSet(projects []*model.Project) sessionSet {
	ss := sessionSet{}
	for _, p := range projects {
		if p.Sessions == nil || p.ConfigDir == "" {
			continue
		}
		m := ss[p.ConfigDir]
		if m == nil {
			m = map[string]bool{}
			ss[p.ConfigDir] = m
		}
		for id := range p.Sessions {
			m[id] = true
		}
	}
	return ss
}

// listed reports whether transcripts were listed for the project's config dir
// at all; without them nothing can be said.
func (ss sessionSet) listed(p *model.Project) bool {
	return p != nil && p.ConfigDir != "" && ss[p.ConfigDir] != nil
}

func (ss sessionSet) has(p *model.Project, id string) bool {
	return ss[p.ConfigDir][id]
}

// CountWords counts whitespace-separated words in b, stopping at limit.
func CountWords(b []byte, limit int) int {
	n, in := 0, false
	for _, c := range b {
		space := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
		if !space && !in {
			n++
			if n >= limit {
				return n
			}
		}
		in = !space
	}
	return n
}

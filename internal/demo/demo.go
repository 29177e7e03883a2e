// Package demo embeds the sample Claude Code config dir that `memtui --demo`
// opens: seven projects, a user-scope agent memory and a settings file, with
// realistic memories in which every memtui rule that a static tree can show
// is planted at least once, next to clean files that must stay quiet.
//
// # Layout
//
// The embedded tree (FS) is the config dir itself:
//
//	settings.json                         user settings; autoMemoryDirectory is relative (rejected)
//	agent-memory/code-reviewer/           a subagent's user-scope memory (table-style index)
//	projects/-home-dev-acme-api/          Go billing API: index past 200 lines, a team store mounted at
//	                                      team/platform/ (see MemoryStores), 3 sessions
//	projects/-home-dev-webshop/           Next.js shop: index past 25,000 UTF-16 units, 2 sessions
//	projects/-home-dev-ml-pipeline/       Python ML: index at 82% of the line cap, 4 sessions,
//	                                      two of them racing on MEMORY.md (a lost update)
//	projects/-home-dev-kefu-platform/     a Chinese-speaking team's project (/home/dev/kefu_platform)
//	projects/-home-dev-blog/              the clean one: wikilink index, nothing to report
//	projects/-home-dev-dotfiles/          topic files but no MEMORY.md, and no transcripts (shows its slug)
//	projects/-home-dev-scratch/           an empty memory dir (only a .consolidate-lock)
//	mtimes.json                           slash path -> RFC 3339 mtime for every other file
//
// Each project with sessions has <uuid>.jsonl transcripts whose lines carry a
// cwd that maps back to the slug under Claude Code's sanitizePath, so memtui
// shows the real path. They also record memory writes, reads, recalls and
// index loads (paths under /home/dev/.claude, which memtui maps to the
// scratch copy), so the demo shows provenance, use counts and the dream
// gate. In ml-pipeline two sessions raced on 2026-11-11: e7a9c1d3 added an
// index entry for project_eval_metrics.md with Edit, then f8b0d2e4, working
// from its earlier read, wrote the whole MEMORY.md and dropped it: the
// lost-update finding (and restore-lost proposal), with the topic file left
// an orphan. embed.FS has no mtimes, so mtimes.json carries them;
// memfs.CopyTree applies them and does not copy the file itself. Staleness,
// relative-date anchors and "last consolidated" depend on those times, and
// all of them are computed for "today" = Now (2026-11-21): pass
// --now 2026-11-21 for reproducible output.
//
// # Planted findings
//
// expected.json (see Expected) lists every planted finding and nothing else:
// rule, project slug, file relative to the memory dir and 1-based line. The
// conventions follow consolidate/files.go:
//   - line 0: whole-file or whole-directory findings (recall-truncated,
//     recall-near-limit, continuation-chain, stale-memory, memory-orphan,
//     duplicate-memory, index-near-limit, index-missing, memdir-empty);
//   - line 1 (the opening fence or the first line): frontmatter-missing,
//     frontmatter-invalid, frontmatter-unreadable, frontmatter-not-at-start,
//     frontmatter-incomplete, type-missing, encoding for a BOM;
//   - the line of the key or text: frontmatter-unquoted, type-invalid,
//     description-too-long,
//     name-duplicate (reported on the second file in path order only),
//     provenance-swept (the originSessionId line), relative-date,
//     date-missing-year, secret, wikilink-broken, memory-stub (first body line);
//   - index rules point at the entry's line in MEMORY.md; index-over-lines
//     and index-over-size at the first non-blank line Claude Code drops;
//     index-duplicate-entry at the second entry; index-not-pointer at the
//     first line of the prose or the code fence; index-entry-multiline at the
//     entry that the indented lines hang under;
//   - override-invalid has an empty project slug and names settings.json,
//     relative to the config dir.
//
// prune: the webshop's project_bundle_pricing.md is a memory a session
// began and never filled in (frontmatter with no description, no body, no
// index entry), so the demo's dream proposes pruning it.
//
// memory-deleted: in the webshop, session c2e4a6f8 ("Tidy the memory
// folder", 2026-11-14) read feedback_gift_messages.md whole and then
// removed it with rm, taking it for a duplicate: the transcripts hold its
// last text, so the demo's dream proposes restoring it.
//
// scan-excluded: the webshop's sessions/feedback_cart_session_ttl.md is a
// memory saved under sessions/, a folder Claude Code's scan skips.
//
// duplicate-memory is listed once per member of each group: the webshop's
// rewritten pair (feedback_payments_via_bff.md, feedback_payments_through_bff.md)
// and acme-api's dated series (standup-2026-11-16/17/18.md).
//
// # What the sample cannot show
//
//   - symlink and file-unreadable: go:embed stores neither symlinks nor
//     permissions; tests build those trees on disk.
//   - settings-invalid: the only settings file memtui reads inside a config
//     dir is settings.json, which here carries the (valid JSON) relative
//     autoMemoryDirectory for override-invalid; project settings live in the
//     project roots, which do not exist on the user's machine.
//   - dangling-path: acme-api's project_billing_refactor.md names
//     internal/billing/invoice_legacy.go, but the demo projects' roots
//     (/home/dev/...) do not exist where memtui runs, so the path probe cannot
//     answer and the check stays silent. It is not in expected.json.
//   - recall-cap: it takes more than 200 memories in one folder, which
//     would drown the sample; tests in memfs and consolidate build such
//     folders on disk.
//   - memdir-empty: go:embed drops empty directories, so the scratch
//     project's memory dir holds a .consolidate-lock (ignored by the scan, as
//     Claude Code ignores every non-.md file).
//   - codex-cwd-gone: the folders the Codex store's applies_to names are
//     looked up under the demo's repositories, a partial world where a
//     missing folder says nothing.
//   - codex-claude-overlap and codex-import-drift: lint compares the Codex
//     store with Claude Code's memory, the TUI's findings view does not
//     yet, and the demo's findings are the same in both.
//   - codex-baseline: go:embed keeps no .git, so CodexBaseline writes the
//     Codex store's baseline into the scratch copy (internal/codexgit, no
//     git binary needed), Codex's own: its pending edits and the hand edit
//     Codex will overwrite show (codex.go says which).
//
// The text is written for this sample; the hosts (.internal, .test), the
// people (roles, never names) and the secrets are fake. The GitHub token in
// acme-api's reference_ci_bot.md and the Postgres password in ml-pipeline's
// reference_feature_store_db.md exist only so that the secret rule fires.
package demo

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// Sample is the embedded tree; its root holds the single directory sample/.
// Use FS for the tree rooted at the config dir.
//
//go:embed all:sample
var Sample embed.FS

//go:embed expected.json
var expectedJSON []byte

// MtimesFile is the name, at the root of FS, of the JSON object mapping each
// file's slash path to its RFC 3339 modification time.
const MtimesFile = "mtimes.json"

// Now is the "today" the sample was written for: expected.json holds for it
// (stale memories, relative dates). Later dates only add stale-memory
// findings as the sample ages.
var Now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// MemoryStores is the CLAUDE_MEMORY_STORES the demo runs with: one team
// store, mounted at team/platform/ of acme-api's memory dir with its own
// MEMORY.md (facts 7.1). Without it, Claude Code's scan would skip
// team/platform/ as a folder no store mounts.
const MemoryStores = `[{"path":"acme/platform","scope":"team","mount":"platform"}]`

// Getenv is the environment the demo runs in: none of the user's own
// Claude Code variables (overrides, remote dirs, stores) or Codex's
// (CODEX_HOME, CODEX_SQLITE_HOME: the user's Codex store) leak into it,
// and CLAUDE_MEMORY_STORES is MemoryStores; everything else comes from
// base.
func Getenv(base func(string) string) func(string) string {
	return func(k string) string {
		switch {
		case k == "CLAUDE_MEMORY_STORES":
			return MemoryStores
		case strings.HasPrefix(k, "CLAUDE_"), strings.HasPrefix(k, "CODEX_"):
			return ""
		}
		return base(k)
	}
}

// FS returns the sample config dir: settings.json, projects/ and
// agent-memory/ at its root, plus MtimesFile.
func FS() fs.FS {
	sub, err := fs.Sub(Sample, "sample")
	if err != nil {
		panic("demo: " + err.Error()) // the embed pattern guarantees the directory
	}
	return sub
}

// Finding is one problem planted in the sample, as listed in expected.json.
type Finding struct {
	Rule string `json:"rule"`
	// ProjectSlug is the directory name under projects/, "" for findings
	// about the config dir itself (override-invalid).
	ProjectSlug string `json:"project_slug"`
	// File is relative to the project's memory dir ("" for the directory
	// itself), or to the config dir when ProjectSlug is "".
	File string `json:"file"`
	// Line is 1-based; 0 for findings about a whole file or directory.
	Line int `json:"line"`
}

// Expected returns the planted findings, sorted by project slug, file, line
// and rule.
func Expected() ([]Finding, error) {
	var out []Finding
	if err := json.Unmarshal(expectedJSON, &out); err != nil {
		return nil, fmt.Errorf("demo: expected.json: %w", err)
	}
	return out, nil
}

// Mtimes returns the modification time of every file of FS (MtimesFile
// itself excluded), keyed by slash path.
func Mtimes() (map[string]time.Time, error) {
	data, err := fs.ReadFile(FS(), MtimesFile)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	var raw map[string]string
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("demo: %s: %w", MtimesFile, err)
	}
	out := make(map[string]time.Time, len(raw))
	for p, s := range raw {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return nil, fmt.Errorf("demo: %s: %s: %w", MtimesFile, p, err)
		}
		out[p] = t
	}
	return out, nil
}

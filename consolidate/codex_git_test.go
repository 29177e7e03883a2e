package consolidate

import (
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// codexConsolidated is a consolidated store's files.
func codexConsolidated() map[string]string {
	return map[string]string{
		"memory_summary.md": codexSummary, "MEMORY.md": codexHandbook,
		"rollout_summaries/2026-11-20T09-30-15-jqmb.md": "thread_id: x\nupdated_at: y\nrollout_path: /r/1.jsonl\ncwd: /work/shop\n\n# Retries\n",
		"raw_memories.md":          "# Raw Memories\n\nNo raw memories yet.\n",
		"skills/psp/SKILL.md":      "---\nname: psp\ndescription: the PSP\n---\n",
		"skills/psp/scripts/go.sh": "#!/bin/sh\n",
	}
}

// baselineOf is Codex's baseline of files, made at 2026-11-20 10:00 UTC.
func baselineOf(files map[string]string) *codex.Baseline {
	b := &codex.Baseline{Found: true, Head: strings.Repeat("ab", 20), Branch: "main", Commits: 1, ByCodex: true,
		Time: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), Author: codex.BaselineIdent, Committer: codex.BaselineIdent,
		Subject: codex.BaselineSubject, Files: map[string]codex.BlobRef{}}
	for p, c := range files {
		b.Files[p] = codex.BlobRef{Hash: codex.BlobHash([]byte(c)), Mode: codex.ModeFile}
	}
	return b
}

// byFile is each finding of rule, by file.
func byFile(fs []model.Finding, rule string) map[string]string {
	out := map[string]string{}
	for _, f := range fs {
		if f.Rule == rule {
			out[f.File] = f.Message
		}
	}
	return out
}

// TestCheckCodexPending: every file added, changed or deleted since
// Codex's baseline is pending, with what its next run does with it (a new
// note named as not yet consolidated); a hand edit of raw_memories.md or
// a rollout summary (added, changed, deleted) is lost instead; a file
// read in part, or unreadable now, is unknown, never claimed; a store
// just consolidated has nothing to say.
func TestCheckCodexPending(t *testing.T) {
	cfg := "[features]\nmemories = true\n"
	files := codexConsolidated()
	s := codexStore(cfg, files)
	s.Baseline = baselineOf(files)
	if fs := CheckCodex(s, Options{Now: testmodel.Now}); len(fs) != 0 {
		t.Fatalf("findings on a store just consolidated: %s", testmodel.Dump(fs))
	}

	now := codexConsolidated()
	now["MEMORY.md"] += "- the PSP times out after 30s\n"
	now["extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md"] = "Use pnpm, not npm.\n"
	delete(now, "skills/psp/SKILL.md")
	now["raw_memories.md"] += "a hand edit\n"
	now["rollout_summaries/2026-11-20T09-30-15-jqmb.md"] += "a hand edit\n"
	now["rollout_summaries/2026-11-21T07-00-00-abcd.md"] = "thread_id: z\n\n# By hand\n"
	now["rollout_summaries/attachment.txt"] = "not .md: Codex leaves it\n"
	now["big.md"] = "read in part\n"
	s = codexStore(cfg, now)
	base := codexConsolidated()
	base["big.md"] = "the baseline's\n"
	base["gone/unlisted.md"] = "in the baseline\n"
	base["rollout_summaries/2026-11-19T07-00-00-wxyz.md"] = "thread_id: w\n\n# Deleted by hand\n"
	s.Baseline = baselineOf(base)
	s.File("big.md").Truncated = true
	for _, f := range s.Files {
		if f.Path == "skills/psp/scripts/go.sh" {
			f.Mode = 0o755
		}
	}
	s.Problems = []model.Problem{{Path: "gone", Kind: model.ProblemUnreadable, Detail: "open: permission denied"}}
	fs := CheckCodex(s, Options{Now: testmodel.Now})

	since := "since Codex's last consolidation (2026-11-20 10:00 UTC)"
	pending := byFile(fs, RuleCodexPending)
	for file, says := range map[string]string{
		"MEMORY.md": "was changed " + since,
		"extensions/ad_hoc/notes/2026-11-21T08-00-00-use-pnpm.md": "note added " + since + ", not yet consolidated",
		"skills/psp/SKILL.md":              "was deleted " + since,
		"skills/psp/scripts/go.sh":         "execute bit changed",
		"rollout_summaries/attachment.txt": "was added",
		"big.md":                           "read only in part",
		"gone/unlisted.md":                 "could not list or read it now",
	} {
		if !strings.Contains(pending[file], says) {
			t.Errorf("pending %s: %q, want it to say %q", file, pending[file], says)
		}
	}
	lost := byFile(fs, RuleCodexEditLost)
	for file, says := range map[string]string{
		"raw_memories.md": "was edited",
		"rollout_summaries/2026-11-20T09-30-15-jqmb.md": "was edited",
		"rollout_summaries/2026-11-21T07-00-00-abcd.md": "was added",
		"rollout_summaries/2026-11-19T07-00-00-wxyz.md": "was deleted",
	} {
		if !strings.Contains(lost[file], says) || !strings.Contains(lost[file], "silently lost") {
			t.Errorf("lost %s: %q, want it to say %q", file, lost[file], says)
		}
	}
	if len(pending) != 7 || len(lost) != 4 {
		t.Errorf("%d pending, %d lost: %s", len(pending), len(lost), testmodel.Dump(fs))
	}
	for _, f := range fs {
		if f.Rule == RuleCodexPending && f.Severity != model.Info || f.Rule == RuleCodexEditLost && f.Severity != model.Warning {
			t.Errorf("%s is %v", f.Rule, f.Severity)
		}
	}

	// While a consolidation's diff file is there, Codex itself rewrote
	// the regenerated files: pending, not a lost hand edit; the diff file
	// is no change (Codex removes it before it diffs).
	now["phase2_workspace_diff.md"] = "# Memory Workspace Diff\n"
	s2 := codexStore(cfg, now)
	s2.Baseline = s.Baseline
	fs = CheckCodex(s2, Options{Now: testmodel.Now})
	if lost := byFile(fs, RuleCodexEditLost); len(lost) != 0 {
		t.Errorf("lost while consolidating: %v", lost)
	}
	if p := byFile(fs, RuleCodexPending); p["raw_memories.md"] == "" || p["phase2_workspace_diff.md"] != "" {
		t.Errorf("pending while consolidating: %v", p)
	}

	// Silenced for Codex's store, they are gone.
	fs = CheckCodex(s, Options{Now: testmodel.Now, Ignore: []IgnoreRule{{Project: "codex", Rules: []string{RuleCodexPending, RuleCodexEditLost}}}})
	if n := rulesOf(fs); n[RuleCodexPending]+n[RuleCodexEditLost] != 0 {
		t.Errorf("ignored rules reported: %v", n)
	}
}

// TestCheckCodexBaseline: a baseline that makes Codex miss edits is
// reported: none while the store has been consolidated (none on a store
// never consolidated), each read problem, more commits than Codex's one,
// a commit not Codex's; an unreadable HEAD reports no pending edit.
func TestCheckCodexBaseline(t *testing.T) {
	cfg := "[features]\nmemories = true\n"
	files := codexConsolidated()
	check := func(files map[string]string, b *codex.Baseline) []model.Finding {
		s := codexStore(cfg, files)
		s.Baseline = b
		return CheckCodex(s, Options{Now: testmodel.Now})
	}
	msgs := func(fs []model.Finding) string {
		var out []string
		for _, f := range fs {
			if f.Rule == RuleCodexBaseline {
				if f.Severity != model.Warning || f.File != ".git" {
					t.Errorf("%+v", f)
				}
				out = append(out, f.Message)
			}
		}
		return strings.Join(out, "\n")
	}

	if m := msgs(check(files, &codex.Baseline{})); !strings.Contains(m, "memories/.git is missing") || !strings.Contains(m, "takes them all for consolidated") {
		t.Errorf("no .git: %q", m)
	}
	if m := msgs(check(map[string]string{"extensions/ad_hoc/instructions.md": "Notes are authoritative.\n"}, &codex.Baseline{})); m != "" {
		t.Errorf("no .git on a store never consolidated: %q", m)
	}
	if fs := check(files, nil); len(fs) != 0 {
		t.Errorf("no baseline read: %s", testmodel.Dump(fs))
	}

	b := &codex.Baseline{Problems: []string{".git is a symbolic link: memtui reads no baseline through it"}}
	if m := msgs(check(files, b)); strings.Count(m, "\n") != 0 || !strings.Contains(m, "symbolic link") {
		t.Errorf("a problem: %q", m)
	}
	b = &codex.Baseline{Found: true, Problems: []string{"HEAD could not be read: a named pipe"}}
	fs := check(files, b)
	if m := msgs(fs); !strings.Contains(m, "named pipe") || len(fs) != 1 {
		t.Errorf("HEAD unreadable: %s", testmodel.Dump(fs))
	}

	b = baselineOf(files)
	b.ByCodex, b.Commits, b.Parents, b.Author, b.Subject = false, 2, 1, "dev <dev@example.com>", "hand edit, committed"
	if m := msgs(check(files, b)); !strings.Contains(m, "one of 2 commits") || !strings.Contains(m, "dev <dev@example.com>") || !strings.Contains(m, "hidden from Codex's next diff") {
		t.Errorf("two commits: %q", m)
	}
	b = baselineOf(files)
	b.ByCodex, b.Author = false, "dev <dev@example.com>"
	m := msgs(check(files, b))
	if !strings.Contains(m, "by dev <dev@example.com>") || strings.Contains(m, "commits") {
		t.Errorf("a foreign root commit: %q", m)
	}
	// Pending edits against a foreign baseline are "since the baseline",
	// not since a consolidation.
	edited := codexConsolidated()
	edited["MEMORY.md"] += "- more\n"
	p := byFile(check(edited, b), RuleCodexPending)
	if !strings.Contains(p["MEMORY.md"], "changed since the baseline") {
		t.Errorf("pending against a foreign baseline: %v", p)
	}
}

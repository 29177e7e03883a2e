package demo

import (
	"path/filepath"
	"time"

	"github.com/memtui/memtui/internal/codexdb"
)

// The demo's Codex databases (memories_1.sqlite and state_5.sqlite,
// which go:embed cannot hold as the binary files Codex keeps), as Codex
// would have left them by the demo's day: its three sessions' memories,
// the flaky-CI one cited once, the migration one never (Codex forgets it
// 25 days after its session, as config.toml says), nor the RSS one, which
// Codex forgets on 2026-11-24;
// the consolidation done at the baseline's time; and one session whose
// extraction failed for good (its rollout too long for the model).
var codexFixture = codexdb.Fixture{
	Stage1: []codexdb.Stage1{
		{ThreadID: "0196a1b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b", SourceUpdatedAt: at("2026-11-19T11:02:10Z"), GeneratedAt: at("2026-11-19T11:05:00Z"),
			Slug: "migration_locks", Selected: true, SelectedSourceUpdatedAt: at("2026-11-19T11:02:10Z"),
			RawMemory: "migration runner: advisory lock", RolloutSummary: "Added an advisory lock to the migration runner."},
		{ThreadID: "0196b9c8-7d6e-7f5a-9b4c-3d2e1f0a9b8c", SourceUpdatedAt: at("2026-11-02T10:01:00Z"), GeneratedAt: at("2026-11-02T16:30:00Z"),
			Slug: "flaky_ci", UsageCount: codexdb.Int(1), LastUsage: at("2026-11-05T09:12:00Z"), Selected: true, SelectedSourceUpdatedAt: at("2026-11-02T10:01:00Z"),
			RawMemory: "flaky CI: quarantine", RolloutSummary: "Quarantined two flaky integration tests."},
		{ThreadID: "0195f0e1-2a3b-7c4d-9e5f-6a7b8c9d0e1f", SourceUpdatedAt: at("2026-10-30T20:05:00Z"), GeneratedAt: at("2026-10-31T03:00:00Z"),
			Slug: "rss_dates", Selected: true, SelectedSourceUpdatedAt: at("2026-10-30T20:05:00Z"),
			RawMemory: "blog: RSS dates", RolloutSummary: "Fixed the RSS feed's dates."},
	},
	Jobs: []codexdb.Job{
		{Kind: "memory_consolidate_global", Key: "global", Status: "done", WorkerID: "0196a1b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b",
			Started: at("2026-11-19T11:08:00Z"), Finished: at("2026-11-19T11:11:00Z"), RetryRemaining: 3, LastSuccessWatermark: at("2026-11-19T11:02:10Z")},
		{Kind: "memory_stage1", Key: "0196c0d1-5e6f-7a8b-9c0d-1e2f3a4b5c6d", Status: "error", Started: at("2026-11-18T08:00:00Z"), Finished: at("2026-11-18T08:03:00Z"),
			RetryRemaining: 0, LastError: "context_length_exceeded: the rollout is longer than the model's context window"},
	},
	Threads: []codexdb.Thread{
		{ID: "0196a1b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b", Cwd: "/home/dev/acme-api", Title: "Advisory lock for migrations", GitBranch: "feat/migration-lock",
			RolloutPath: "/home/dev/.codex/sessions/2026/11/19/rollout-2026-11-19T10-12-40-0196a1b2.jsonl", UpdatedAt: at("2026-11-19T11:02:10Z")},
		{ID: "0196b9c8-7d6e-7f5a-9b4c-3d2e1f0a9b8c", Cwd: "/home/dev/acme-api", Title: "Flaky CI",
			RolloutPath: "/home/dev/.codex/sessions/2026/11/02/rollout-2026-11-02T09-15-30-0196b9c8.jsonl", UpdatedAt: at("2026-11-02T10:01:00Z")},
		{ID: "0195f0e1-2a3b-7c4d-9e5f-6a7b8c9d0e1f", Cwd: "/home/dev/blog", Title: "RSS dates",
			RolloutPath: "/home/dev/.codex/sessions/2026/10/30/rollout-2026-10-30T19-40-00-0195f0e1.jsonl", UpdatedAt: at("2026-10-30T20:05:00Z")},
		{ID: "0196c0d1-5e6f-7a8b-9c0d-1e2f3a4b5c6d", Cwd: "/home/dev/ml-pipeline", Title: "Feature store backfill",
			RolloutPath: "/home/dev/.codex/sessions/2026/11/17/rollout-2026-11-17T21-00-00-0196c0d1.jsonl", UpdatedAt: at("2026-11-17T23:40:00Z")},
	},
}

// at is a fixed UTC time of the demo's story.
func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// CodexDatabases writes the demo's Codex databases into the scratch copy
// at dir (dir/.codex), with the pure-Go driver (no C compiler, no
// sqlite3). It is for the demo's own scratch copy only.
func CodexDatabases(dir string) error {
	return codexdb.Write(filepath.Join(dir, ".codex"), codexFixture)
}

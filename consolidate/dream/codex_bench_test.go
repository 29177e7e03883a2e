package dream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// cxLedger is a handbook of the size users report (openai/codex#29818:
// about 2,450 lines, 325 KB): groups tasks with their rollouts and
// keywords, then block-level bullets, a tenth of them repeated from an
// earlier group, some with a relative date.
func cxLedger() string {
	var b strings.Builder
	for g := 0; b.Len() < 325<<10; g++ {
		fmt.Fprintf(&b, "# Task Group: /work/svc%d maintenance\nscope: keeping service %d healthy\napplies_to: cwd=/work/svc%d; reuse_rule=safe across branches\n\n", g, g, g)
		for k := 1; k <= 2; k++ {
			fmt.Fprintf(&b, "## Task %d: Fix the flaky job %d of service %d, done\n### rollout_summary_files\n- rollout_summaries/2026-11-%02dT09-30-15-ab%02d.md (cwd=/work/svc%d, rollout_path=/r/%d.jsonl, updated_at=2026-11-%02dT09:40:00+00:00, thread_id=t%d)\n### keywords\n- svc%d, flaky, job%d, retries\n\n",
				k, k, g, 1+g%28, g%100, g, g, 1+g%28, g, g, k)
		}
		b.WriteString("## Reusable knowledge\n\n")
		for i := 0; i < 12; i++ {
			if i == 0 && g > 0 {
				fmt.Fprintf(&b, "- The job runner of service %d retries a failed step three times before it pages, so a flaky step shows up as slowness first [Task 1]\n", g/2)
				continue
			}
			fmt.Fprintf(&b, "- Service %d keeps fact %d about its queue %d and its worker pool %d in the runbook, checked tomorrow [Task 2]\n", g, i, g*31+i, g*17+i)
		}
		b.WriteString("\n## Failures and how to do differently\n\n")
		fmt.Fprintf(&b, "- when the cache of service %d warms slowly, restart the warmer %d before the deploy\n\n", g, g)
	}
	return b.String()
}

// BenchmarkProposeCodex: every proposer over a store with that handbook
// and a summary over the cap.
func BenchmarkProposeCodex(b *testing.B) {
	files := cxClean()
	files[codex.HandbookFile] = cxLedger()
	files[codex.SummaryFile] = cxBigSummary(12, 15, 12)
	s := cxStore(files)
	b.ReportAllocs()
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		n = len(ProposeCodex(s, cxOpts))
	}
	b.ReportMetric(float64(n), "proposals")
	b.ReportMetric(float64(strings.Count(files[codex.HandbookFile], "\n")), "lines")
}

// TestCodexDedupeCap: a ledger with a copy in nearly every group gets at
// most codexMaxDedupe dedupe proposals in one run.
func TestCodexDedupeCap(t *testing.T) {
	files := cxClean()
	files[codex.HandbookFile] = cxLedger()
	ps := ProposeCodex(cxStore(files), Options{Options: cxOpts.Options, Kinds: []model.ProposalKind{model.KindMerge}})
	if len(ps) != codexMaxDedupe {
		t.Errorf("%d dedupe proposals, want %d", len(ps), codexMaxDedupe)
	}
}

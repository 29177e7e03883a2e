package dream

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/model/memindex"
)

// Merge proposals over realistic directories: every test builds the
// directory in memory, proposes, applies the proposal with Apply, and lints
// the result again.

// mergeOpts proposes merges only, at testNow.
func mergeOpts() Options {
	return Options{Options: consolidate.Options{Now: testmodel.Now}, Kinds: []model.ProposalKind{model.KindMerge}}
}

// mergeDir builds a memory dir from files and an index ("" for none).
func mergeDir(index string, files ...*model.File) *model.MemoryDir {
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	d := &model.MemoryDir{Path: "/mem", Exists: true, Files: files}
	if index != "" {
		d.Index = &model.File{Path: "MEMORY.md", Content: []byte(index), ModTime: testmodel.Now.AddDate(0, 0, -1)}
	}
	return d
}

var mergeProject = &model.Project{Slug: "p"}

// normLines is the set of a text's non-blank lines, whitespace-normalised.
func normLines(s string) map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(s, "\n") {
		if n := normSpace(l); n != "" {
			m[n] = true
		}
	}
	return m
}

// assertFactsKept checks that every distinct non-blank line of every input
// body is in the merged body (whitespace-normalised), or, for a paragraph
// the merged body holds wrapped differently, that the paragraph is.
func assertFactsKept(t *testing.T, merged string, bodies ...string) {
	t.Helper()
	have := normLines(merged)
	flat := normSpace(merged)
	for _, b := range bodies {
		for _, blk := range mdBlocks(b) {
			para := normSpace(strings.Join(blk.lines, "\n"))
			for _, l := range blk.lines {
				if n := normSpace(l); n != "" && !have[n] && !strings.Contains(flat, para) {
					t.Errorf("line lost in the merge: %q\nmerged body:\n%s", l, merged)
				}
			}
		}
	}
}

// body of a file's content.
func bodyOf(b []byte) string { return string(claude.ParseDoc(b).Body(b)) }

// indexEntriesFor counts the list and table entries of MEMORY.md whose
// main reference names p.
func indexEntriesFor(index []byte, p string) int {
	ix := memindex.Parse(index)
	n := 0
	for i := range ix.Entries {
		e := &ix.Entries[i]
		if r, ok := e.Primary(); ok && e.Form != memindex.EntryProse && (r.Target == p || r.Kind == memindex.RefWiki && consolidate.NormName(r.Target) == consolidate.NormName(strings.TrimSuffix(p, ".md"))) {
			n++
		}
	}
	return n
}

func currentFM(name, desc, typ, session, modified string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\nmetadata: \n  node_type: memory\n  type: " + typ +
		"\n  originSessionId: " + session + "\n  modified: " + modified + "\n---\n\n"
}

const (
	sessA = "7b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e"
	sessB = "5f0c2a8e-1d7b-4c3e-9a46-0b8e2f1d7c90"
)

// bystanders are memories with nothing in common with the groups.
func bystanders() []*model.File {
	old := testmodel.Now.AddDate(0, 0, -20)
	return []*model.File{
		testmodel.File("user_role.md", testmodel.Topic("user-role", "Backend engineer on the billing API", "user",
			"Senior Go engineer, new to the frontend; explain React idioms when they come up.\n"), old),
		testmodel.File("reference_grafana.md", testmodel.Topic("grafana", "Where the latency dashboards live", "reference",
			"Latency dashboards are on grafana.internal under Billing / API; alerts page #billing-oncall.\n"), old),
	}
}

func TestProposeMerges(t *testing.T) {
	standup := func(day, session string, lines ...string) string {
		return currentFM("standup-2026-11-"+day, "Standup notes for 2026-11-"+day, "project", session, "2026-11-"+day+"T09:40:00.238Z") +
			strings.Join(lines, "\n") + "\n"
	}
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	racebody := "Always run the Go tests with `-race` before pushing; CI runs `go test -race ./...` and fails on any data race.\n\n" +
		"**Why:** a data race in the invoice batcher shipped once and corrupted totals.\n\n" +
		"**How to apply:** run `go test -race ./...` locally before every push.\n"
	racebody2 := "Run `go test -race ./...` before pushing anything: the CI job fails on any data race it finds.\n\n" +
		"**Why:** a data race in the invoice batcher shipped once and corrupted totals.\n\n" +
		"**How to apply:** before every push run `go test -race ./...` locally, and also under `-count=3` for flaky packages.\n"
	deploy := "Deploy with `make ship`; `npm run deploy` skips the database migrations.\n\n" +
		"**Why:** the migration step lives in the Makefile, not in package.json.\n\n" +
		"**How to apply:** always ship with make, never with npm.\n"
	old, mid, recent := testmodel.Now.AddDate(0, 0, -10), testmodel.Now.AddDate(0, 0, -7), testmodel.Now.AddDate(0, 0, -3)

	tests := []struct {
		name    string
		index   string
		files   []*model.File
		keep    string
		drop    []string
		session string              // the survivor's originSessionId, "" for none
		links   map[string][]string // files whose [[links]] must be repointed, and what they must then hold
		want    []string            // fragments the merged file must hold
		wantIx  []string            // fragments the new MEMORY.md must hold
		notIx   []string            // and must not
		fixes   []string            // rules the proposal must list among its fixes
	}{
		{
			name: "dated series of three standups",
			index: "# Memory\n\n- [Standup 2026-11-16](standup-2026-11-16.md) — backfill at 62%, portal blocked\n\n" +
				"- [Standup 2026-11-17](standup-2026-11-17.md) — backfill at 71%, lock timeout retried\n\n" +
				"- [Standup 2026-11-18](standup-2026-11-18.md) — backfill at 80%, portal unblocked\n\n" +
				"- [Role](user_role.md) — billing backend\n- [Grafana](reference_grafana.md) — dashboards\n",
			files: append(bystanders(),
				testmodel.File("standup-2026-11-16.md", standup("16", sessA,
					"- Invoice v2 backfill at 62%; no errors in the last batch.",
					"- Tax shadow mode found 14 differences, all in reverse-charge invoices.",
					"- Blocked: the portal team waits for the payment-methods review."), old),
				testmodel.File("standup-2026-11-17.md", standup("17", sessB,
					"- Invoice v2 backfill at 71%; one batch retried after a lock timeout.",
					"- Tax shadow mode found 14 differences, all in reverse-charge invoices.",
					"- Blocked: the portal team still waits for the payment-methods review."), mid),
				testmodel.File("standup-2026-11-18.md", standup("18", sessB,
					"- Invoice v2 backfill at 80%; lock timeouts gone after lowering the batch size.",
					"- Tax shadow mode differences at 9, all explained by the old provider's rounding.",
					"- Payment-methods review done; the portal team is unblocked."), recent),
			),
			keep: "standup-2026-11-16.md", drop: []string{"standup-2026-11-17.md", "standup-2026-11-18.md"}, session: sessA,
			want: []string{"From standup-2026-11-17.md (merged 2026-11-21):\n\n- Invoice v2 backfill at 71%", "From standup-2026-11-18.md (merged 2026-11-21):",
				"modified: " + testmodel.Now.UTC().Format("2006-01-02T15:04:05.000Z"), "description: Standup notes for 2026-11-16\n"},
			wantIx: []string{"- [Standup 2026-11-16](standup-2026-11-16.md) — backfill at 62%, portal blocked\n\n- [Role]"},
			notIx:  []string{"standup-2026-11-17", "standup-2026-11-18"},
			fixes:  []string{consolidate.RuleDuplicateMemory},
		},
		{
			name: "two rewrites of one feedback memory under different names",
			index: "# Memory\n\n## Feedback\n- [Race tests](feedback_race_tests.md) — -race before every push\n" +
				"- [Go tests with -race](feedback_go_test_race.md) — CI fails on data races\n" +
				"  Added after the batcher incident.\n" +
				"## Other\n- [Role](user_role.md) — billing backend\n- [Grafana](reference_grafana.md) — dashboards\n",
			files: append(bystanders(),
				// Legacy frontmatter, no metadata.modified: the mtimes decide.
				testmodel.File("feedback_race_tests.md", testmodel.Topic("race-tests", "Run the Go tests with -race before pushing", "feedback", racebody), old),
				testmodel.File("feedback_go_test_race.md", testmodel.Topic("go-test-race", "Run go test with -race before every push", "feedback", racebody2), recent),
			),
			keep: "feedback_race_tests.md", drop: []string{"feedback_go_test_race.md"},
			want:   []string{"From feedback_go_test_race.md (merged 2026-11-21):", "`-count=3`", "name: race-tests\n"},
			wantIx: []string{"- [Race tests](feedback_race_tests.md) — -race before every push\n## Other\n"},
			notIx:  []string{"feedback_go_test_race", "batcher incident"},
			fixes:  []string{consolidate.RuleDuplicateMemory},
		},
		{
			name: "a CRLF pair, the survivor without an index entry",
			index: crlf("# Memory\n\n- [Deploy (copy)](deploy-copy.md) — make ship, not npm\n" +
				"- [Role](user_role.md) — billing backend\n- [Grafana](reference_grafana.md) — dashboards\n"),
			files: append(bystanders(),
				testmodel.File("deploy.md", crlf(currentFM("deploy", "How to deploy the API", "feedback", sessA, "2026-10-01T08:00:00.000Z")+deploy), recent),
				testmodel.File("deploy-copy.md", crlf(currentFM("deploy-copy", "How we deploy", "feedback", sessB, "2026-10-05T08:00:00.000Z")+deploy+
					"\nStaging deploys go through `make ship ENV=staging`.\n"), old),
			),
			keep: "deploy.md", drop: []string{"deploy-copy.md"}, session: sessA,
			want:   []string{"\r\n\r\nFrom deploy-copy.md (merged 2026-11-21):\r\n\r\nStaging deploys go through `make ship ENV=staging`.\r\n"},
			wantIx: []string{"- [Deploy (copy)](deploy.md) — make ship, not npm\r\n- [Role]"},
			notIx:  []string{"deploy-copy.md"},
			fixes:  []string{consolidate.RuleDuplicateMemory},
		},
		{
			name: "another memory links the deleted one by [[name]]",
			index: "# Memory\n\n- [[deploy-process]] — how to deploy\n- [[deploy-steps|Deploy steps]] — the same, newer\n" +
				"- [Release](release.md) — release checklist; see [[deploy-steps]]\n- [Role](user_role.md) — billing backend\n- [Grafana](reference_grafana.md) — dashboards\n",
			files: append(bystanders(),
				testmodel.File("deploy-process.md", testmodel.Topic("deploy-process", "How to deploy the API", "feedback", deploy), old),
				testmodel.File("deploy-steps.md", testmodel.Topic("deploy-steps", "How to deploy the API", "feedback", deploy+"\nRelated: [[release]].\n"), recent),
				testmodel.File("release.md", testmodel.Topic("release", "Release checklist for the billing API", "project",
					"Tag from main, then follow [[deploy-steps]] and [[Deploy Steps|the deploy notes]].\n\n"+
						"Write `[[deploy-steps]]` to link it.\n\nAnnounce in #billing once the canary is green.\n"), old),
			),
			keep: "deploy-process.md", drop: []string{"deploy-steps.md"},
			links:  map[string][]string{"release.md": {"follow [[deploy-process]] and [[deploy-process|the deploy notes]]", "Write `[[deploy-steps]]` to link it."}},
			want:   []string{"Related: [[release]]."},
			wantIx: []string{"- [[deploy-process]] — how to deploy\n- [Release](release.md) — release checklist; see [[deploy-process]]\n"},
			notIx:  []string{"deploy-steps"},
			fixes:  []string{consolidate.RuleDuplicateMemory},
		},
		{
			name: "same name and description; the survivor's empty description is filled",
			index: "# Memory\n\n- [Pool](db_pool.md) — pgx pool settings\n- [Pool again](db_pool_2.md) — pool sizing\n" +
				"- [Role](user_role.md) — billing backend\n- [Grafana](reference_grafana.md) — dashboards\n",
			files: append(bystanders(),
				testmodel.File("db_pool.md", currentFM("db-pool", "", "reference", sessA, "2026-09-01T10:00:00.000Z")+
					"The API uses a pgx pool of 20 connections per instance behind PgBouncer.\n", old),
				testmodel.File("db_pool_2.md", currentFM("db-pool", "pgx pool: size, mode, why", "reference", sessB, "2026-09-02T10:00:00.000Z")+
					"The API uses a pgx pool of 20 connections per instance behind PgBouncer.\n\n"+
					"Prepared statements are off (`default_query_exec_mode=simple_protocol`): PgBouncer runs in transaction mode.\n", recent),
			),
			keep: "db_pool.md", drop: []string{"db_pool_2.md"}, session: sessA,
			want:   []string{"description: \"pgx pool: size, mode, why\"\n", "simple_protocol"},
			wantIx: []string{"- [Pool](db_pool.md) — pgx pool settings\n- [Role]"},
			notIx:  []string{"db_pool_2"},
			fixes:  []string{consolidate.RuleDuplicateMemory, consolidate.RuleNameDuplicate},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mergeDir(tt.index, tt.files...)
			before := consolidate.OrientDir(mergeProject, d, consolidate.Options{Now: testmodel.Now})
			if len(testmodel.Only(before, consolidate.RuleDuplicateMemory)) != len(tt.drop) {
				t.Fatalf("the directory should have %d duplicate-memory findings:\n%s", len(tt.drop), testmodel.Dump(before))
			}
			ps := ProposeDir(mergeProject, d, mergeOpts())
			if len(ps) != 1 {
				t.Fatalf("want one proposal, got %d: %+v", len(ps), ps)
			}
			p := ps[0]
			if testing.Verbose() {
				for _, c := range p.Changes {
					t.Logf("%s %s\n%s", c.Op, c.Path, c.After)
				}
				t.Log(p.Rationale)
			}
			if p.Kind != model.KindMerge || p.MemoryDir != "/mem" || !strings.HasPrefix(p.ID, "merge-") {
				t.Errorf("proposal header: %+v", p)
			}
			if want := "Merge " + listNames(tt.drop) + " into " + tt.keep; p.Title != want {
				t.Errorf("title %q, want %q", p.Title, want)
			}
			for _, frag := range append([]string{tt.keep, "is kept as the oldest"}, tt.drop...) {
				if !strings.Contains(p.Rationale, frag) {
					t.Errorf("rationale lacks %q: %s", frag, p.Rationale)
				}
			}

			// The changes: the survivor updated, the others deleted with
			// their base hashes, the linking files and MEMORY.md updated.
			files := filesOf(d)
			ops := map[string]model.Change{}
			for _, c := range p.Changes {
				ops[c.Path] = c
				if c.Op != model.OpCreate && c.BaseSHA256 != consolidate.SHA256Hex(files[c.Path]) {
					t.Errorf("%s: base hash %s, want that of the file as read", c.Path, c.BaseSHA256)
				}
			}
			for _, dp := range tt.drop {
				if c, ok := ops[dp]; !ok || c.Op != model.OpDelete || c.After != "" {
					t.Errorf("%s: want a delete, got %+v", dp, c)
				}
			}
			kc, ok := ops[tt.keep]
			if !ok || kc.Op != model.OpUpdate {
				t.Fatalf("%s: want an update, got %+v", tt.keep, kc)
			}
			for l := range tt.links {
				if c, ok := ops[l]; !ok || c.Op != model.OpUpdate {
					t.Errorf("%s links a deleted memory: want an update, got %+v", l, c)
				}
			}
			if len(p.Changes) != 1+len(tt.drop)+len(tt.links)+1 {
				t.Errorf("changes: %d, want the survivor, %d deletes, %d relinked files and MEMORY.md", len(p.Changes), len(tt.drop), len(tt.links))
			}
			for _, r := range p.Reads {
				if _, changed := ops[r.Path]; changed || r.SHA256 != consolidate.SHA256Hex(files[r.Path]) {
					t.Errorf("read %+v: changed, or a wrong hash", r)
				}
			}
			for _, f := range tt.files {
				if _, changed := ops[f.Path]; !changed && !slices.ContainsFunc(p.Reads, func(r model.FileRead) bool { return r.Path == f.Path }) {
					t.Errorf("%s was searched for links but is not among the reads", f.Path)
				}
			}
			for _, rule := range tt.fixes {
				if !slices.ContainsFunc(p.Fixes, func(r model.FindingRef) bool { return r.Rule == rule }) {
					t.Errorf("fixes lack %s: %+v", rule, p.Fixes)
				}
			}
			for _, f := range testmodel.Only(before, consolidate.RuleDuplicateMemory) {
				if !slices.Contains(p.Fixes, model.FindingRef{Rule: f.Rule, File: f.File, Line: f.Line}) {
					t.Errorf("fixes lack %+v", f)
				}
			}

			// The merged survivor.
			merged := kc.After
			orig := files[tt.keep]
			od, md := claude.ParseDoc(orig), claude.ParseDoc([]byte(merged))
			if md.Status != od.Status || md.FM.Name != od.FM.Name || md.FM.Type != od.FM.Type {
				t.Errorf("the survivor's frontmatter changed: %+v -> %+v", od.FM, md.FM)
			}
			if md.FM.OriginSessionID != tt.session {
				t.Errorf("originSessionId %q, want the survivor's %q", md.FM.OriginSessionID, tt.session)
			}
			if strings.Contains(string(orig), "\r\n") != strings.Contains(merged, "\r\n") || strings.Contains(string(orig), "\r\n") && strings.Count(merged, "\n") != strings.Count(merged, "\r\n") {
				t.Errorf("line endings not kept:\n%q", merged)
			}
			if od.FM.Description != "" && !strings.HasPrefix(merged, strings.SplitAfter(string(orig), "modified:")[0]) {
				t.Errorf("the survivor's frontmatter bytes changed before modified:\n%s", merged)
			}
			var bodies []string
			for _, dp := range append([]string{tt.keep}, tt.drop...) {
				bodies = append(bodies, bodyOf(files[dp]))
			}
			assertFactsKept(t, string(md.Body([]byte(merged))), bodies...)
			if !strings.HasPrefix(string(md.Body([]byte(merged))), strings.TrimRight(bodyOf(orig), "\r\n")) {
				t.Errorf("the survivor's own text does not come first:\n%s", merged)
			}
			for _, w := range tt.want {
				if !strings.Contains(merged, w) {
					t.Errorf("merged file lacks %q:\n%s", w, merged)
				}
			}

			// MEMORY.md.
			ix := ops["MEMORY.md"].After
			if n := indexEntriesFor([]byte(ix), tt.keep); n != 1 {
				t.Errorf("MEMORY.md has %d entries for %s, want one:\n%s", n, tt.keep, ix)
			}
			for _, w := range tt.wantIx {
				if !strings.Contains(ix, w) {
					t.Errorf("MEMORY.md lacks %q:\n%s", w, ix)
				}
			}
			for _, w := range tt.notIx {
				if strings.Contains(ix, w) {
					t.Errorf("MEMORY.md still holds %q:\n%s", w, ix)
				}
			}

			// Apply, then lint and propose again: the group is gone, and
			// nothing broke.
			after, err := Apply(files, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, dp := range tt.drop {
				if _, ok := after[dp]; ok {
					t.Errorf("%s survived Apply", dp)
				}
			}
			d2 := dirOf(d, after)
			lint2 := consolidate.OrientDir(mergeProject, d2, consolidate.Options{Now: testmodel.Now})
			for _, rule := range []string{consolidate.RuleDuplicateMemory, consolidate.RuleIndexBrokenLink, consolidate.RuleIndexDuplicateEntry, consolidate.RuleMemoryOrphan, consolidate.RuleNameDuplicate, consolidate.RuleFrontmatterInvalid} {
				if got := testmodel.Only(lint2, rule); len(got) > 0 {
					t.Errorf("after the merge: %s", testmodel.Dump(got))
				}
			}
			if got, was := len(testmodel.Only(lint2, consolidate.RuleWikilinkBroken)), len(testmodel.Only(before, consolidate.RuleWikilinkBroken)); got > was {
				t.Errorf("the merge broke wikilinks:\n%s", testmodel.Dump(testmodel.Only(lint2, consolidate.RuleWikilinkBroken)))
			}
			if ps2 := ProposeDir(mergeProject, d2, mergeOpts()); len(ps2) != 0 {
				t.Errorf("a second merge after applying: %+v", ps2)
			}
			for l, frags := range tt.links {
				for _, w := range consolidate.Wikilinks(string(after[l])) {
					for _, dp := range tt.drop {
						if consolidate.NormName(w.Name) == consolidate.NormName(strings.TrimSuffix(dp, ".md")) {
							t.Errorf("%s still links the deleted %s:\n%s", l, dp, after[l])
						}
					}
				}
				for _, f := range frags {
					if !strings.Contains(string(after[l]), f) {
						t.Errorf("%s lacks %q:\n%s", l, f, after[l])
					}
				}
			}

			// Deterministic: the same tree gives the same bytes.
			again := ProposeDir(mergeProject, mergeDir(tt.index, tt.files...), mergeOpts())
			a, _ := json.Marshal(ps)
			b, _ := json.Marshal(again)
			if string(a) != string(b) {
				t.Errorf("a second run differs:\n%s\n%s", a, b)
			}
		})
	}
}

// seriesDir is a minimal dated pair with an index, for the cases that
// must not merge; change edits it first.
func seriesDir(change func(d *model.MemoryDir)) *model.MemoryDir {
	a := testmodel.File("standup-2026-11-16.md", currentFM("standup-2026-11-16", "Standup notes for 2026-11-16", "project", sessA, "2026-11-16T09:40:00.238Z")+
		"- Invoice v2 backfill at 62%; no errors in the last batch.\n", testmodel.Now.AddDate(0, 0, -5))
	b := testmodel.File("standup-2026-11-17.md", currentFM("standup-2026-11-17", "Standup notes for 2026-11-17", "project", sessA, "2026-11-17T09:40:00.238Z")+
		"- Invoice v2 backfill at 71%; one batch retried after a lock timeout.\n", testmodel.Now.AddDate(0, 0, -4))
	d := mergeDir("", append(bystanders(), a, b)...)
	d.Index = testmodel.GoodIndex(d.Files...)
	if change != nil {
		change(d)
	}
	return d
}

func TestProposeMergesNothingToDo(t *testing.T) {
	file := func(d *model.MemoryDir, p string) *model.File {
		for _, f := range d.Files {
			if f.Path == p {
				return f
			}
		}
		t.Fatalf("no %s", p)
		return nil
	}
	tests := []struct {
		name   string
		change func(d *model.MemoryDir)
		opts   func(o *Options)
		// linted: lint still reports the pair, so it is the proposer that
		// declines.
		linted bool
	}{
		{"a clean directory", func(d *model.MemoryDir) {
			d.Files = bystanders()
			d.Index = testmodel.GoodIndex(d.Files...)
		}, nil, false},
		{"lint silenced by an ignore comment", func(d *model.MemoryDir) {
			f := file(d, "standup-2026-11-17.md")
			f.Content = append(f.Content, "<!-- memtui-ignore duplicate-memory -->\n"...)
		}, nil, false},
		{"lint silenced for the project", nil, func(o *Options) {
			o.Ignore = []consolidate.IgnoreRule{{Rules: []string{consolidate.RuleDuplicateMemory}}}
		}, false},
		{"a member read only in part", func(d *model.MemoryDir) { file(d, "standup-2026-11-17.md").Truncated = true }, nil, true},
		{"the survivor read only in part", func(d *model.MemoryDir) { file(d, "standup-2026-11-16.md").Truncated = true }, nil, true},
		{"MEMORY.md read only in part", func(d *model.MemoryDir) { d.Index.Truncated = true }, nil, true},
		{"a member whose frontmatter never closes", func(d *model.MemoryDir) {
			f := file(d, "standup-2026-11-17.md")
			f.Content = []byte(strings.Replace(string(f.Content), "\n---\n", "\n", 1))
		}, nil, true},
		{"a team directory", func(d *model.MemoryDir) { d.Kind = model.DirTeam }, nil, true},
		{"only other kinds asked for", nil, func(o *Options) { o.Kinds = []model.ProposalKind{model.KindReindex} }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The unchanged pair merges, so each case shows what stops it.
			if ps := ProposeDir(mergeProject, seriesDir(nil), mergeOpts()); len(ps) != 1 {
				t.Fatalf("the base case should merge, got %d proposals", len(ps))
			}
			opts := mergeOpts()
			if tt.opts != nil {
				tt.opts(&opts)
			}
			d := seriesDir(tt.change)
			if n := len(testmodel.Only(consolidate.OrientDir(mergeProject, d, opts.Options), consolidate.RuleDuplicateMemory)); (n > 0) != tt.linted {
				t.Fatalf("lint reports %d duplicate-memory findings; want some: %v", n, tt.linted)
			}
			for _, p := range ProposeDir(mergeProject, d, opts) {
				if p.Kind == model.KindMerge {
					t.Errorf("unexpected merge: %s\n%s", p.Title, p.Rationale)
				}
			}
		})
	}
	t.Run("a team directory when asked", func(t *testing.T) {
		opts := mergeOpts()
		opts.IncludeTeam = true
		if ps := ProposeDir(mergeProject, seriesDir(func(d *model.MemoryDir) { d.Kind = model.DirTeam }), opts); len(ps) != 1 {
			t.Errorf("IncludeTeam: want one proposal, got %d", len(ps))
		}
	})
}

// TestProposeMergesPartlySilenced: a member that carries an ignore comment
// stays; the others still merge.
func TestProposeMergesPartlySilenced(t *testing.T) {
	d := seriesDir(func(d *model.MemoryDir) {
		d.Files = append(d.Files, testmodel.File("standup-2026-11-18.md", currentFM("standup-2026-11-18", "Standup notes for 2026-11-18", "project", sessA, "2026-11-18T09:40:00.238Z")+
			"- Invoice v2 backfill at 80%; lock timeouts gone.\n\n<!-- memtui-ignore duplicate-memory -->\n", testmodel.Now.AddDate(0, 0, -3)))
		sort.Slice(d.Files, func(i, j int) bool { return d.Files[i].Path < d.Files[j].Path })
		d.Index = testmodel.GoodIndex(d.Files...)
	})
	ps := ProposeDir(mergeProject, d, mergeOpts())
	if len(ps) != 1 {
		t.Fatalf("want one proposal, got %d", len(ps))
	}
	p := ps[0]
	if p.Title != "Merge standup-2026-11-17.md into standup-2026-11-16.md" {
		t.Errorf("title %q", p.Title)
	}
	for _, c := range p.Changes {
		if c.Path == "standup-2026-11-18.md" || strings.Contains(c.After, "80%") {
			t.Errorf("the silenced member is touched: %+v", c)
		}
	}
}

// TestProposeMergesTwoGroups: one proposal per group, each a transaction of
// its own that applies alone.
func TestProposeMergesTwoGroups(t *testing.T) {
	deploy := "Deploy with `make ship`; `npm run deploy` skips the database migrations.\n\n**Why:** the migration step lives in the Makefile.\n"
	d := seriesDir(func(d *model.MemoryDir) {
		d.Files = append(d.Files,
			testmodel.File("deploy.md", testmodel.Topic("deploy", "How to deploy the API", "feedback", deploy), testmodel.Now.AddDate(0, 0, -9)),
			testmodel.File("deploy-again.md", testmodel.Topic("deploy-again", "How we deploy the API", "feedback", deploy+"\nShip before 16:00 on Fridays.\n"), testmodel.Now.AddDate(0, 0, -1)))
		sort.Slice(d.Files, func(i, j int) bool { return d.Files[i].Path < d.Files[j].Path })
		d.Index = testmodel.GoodIndex(d.Files...)
	})
	ps := ProposeDir(mergeProject, d, mergeOpts())
	if len(ps) != 2 {
		t.Fatalf("want two proposals, got %d", len(ps))
	}
	titles := []string{ps[0].Title, ps[1].Title}
	sort.Strings(titles)
	if titles[0] != "Merge deploy-again.md into deploy.md" || titles[1] != "Merge standup-2026-11-17.md into standup-2026-11-16.md" {
		t.Errorf("titles %q", titles)
	}
	if ps[0].ID == ps[1].ID {
		t.Errorf("two proposals share the ID %s", ps[0].ID)
	}
	for _, p := range ps {
		after, err := Apply(filesOf(d), p)
		if err != nil {
			t.Fatalf("%s: %v", p.Title, err)
		}
		lint := consolidate.OrientDir(mergeProject, dirOf(d, after), consolidate.Options{Now: testmodel.Now})
		if n := len(testmodel.Only(lint, consolidate.RuleDuplicateMemory)); n != 1 {
			t.Errorf("after %q: %d duplicate-memory findings, want the other group's one", p.Title, n)
		}
		if got := testmodel.Only(lint, consolidate.RuleIndexBrokenLink); len(got) > 0 {
			t.Errorf("after %q: %s", p.Title, testmodel.Dump(got))
		}
	}
	// Applying one makes the other stale: both rewrite MEMORY.md.
	after, _ := Apply(filesOf(d), ps[0])
	if _, err := Apply(after, ps[1]); err == nil {
		t.Errorf("the second proposal applied over the first one's MEMORY.md")
	}
}

// TestMergeIndexShapes covers the index shapes real directories use:
// continuation lines, tables, prose mentions, a survivor listed twice, an
// entry that also points elsewhere, no final newline.
func TestMergeIndexShapes(t *testing.T) {
	tests := []struct {
		name, index, want string
		dropped           int // index-duplicate-entry findings the proposal claims
	}{
		{"continuation lines go with their entry",
			"# Memory\n- [A](standup-2026-11-16.md) — day one\n- [B](standup-2026-11-17.md) — day two\n  the backfill\n  the review\n- [Role](user_role.md) — role\n- [G](reference_grafana.md) — dash\n",
			"# Memory\n- [A](standup-2026-11-16.md) — day one\n- [Role](user_role.md) — role\n- [G](reference_grafana.md) — dash\n", 0},
		{"a table row",
			"| File | When |\n|---|---|\n| `standup-2026-11-17.md` | day two |\n| `standup-2026-11-16.md` | day one |\n| `user_role.md` | role |\n| `reference_grafana.md` | dash |\n",
			"| File | When |\n|---|---|\n| `standup-2026-11-16.md` | day one |\n| `user_role.md` | role |\n| `reference_grafana.md` | dash |\n", 0},
		{"a table row repointed when the survivor had none",
			"| File | When |\n|---|---|\n| `standup-2026-11-17.md` | standups |\n| `user_role.md` | role |\n| `reference_grafana.md` | dash |\n",
			"| File | When |\n|---|---|\n| `standup-2026-11-16.md` | standups |\n| `user_role.md` | role |\n| `reference_grafana.md` | dash |\n", 0},
		{"a prose mention is repointed, not dropped",
			"- [A](standup-2026-11-16.md) — day one\n- [Role](user_role.md) — role\n- [G](reference_grafana.md) — dash\n\nThe latest standup is [the 17th](./standup-2026-11-17.md#blockers).\n",
			"- [A](standup-2026-11-16.md) — day one\n- [Role](user_role.md) — role\n- [G](reference_grafana.md) — dash\n\nThe latest standup is [the 17th](standup-2026-11-16.md).\n", 0},
		{"the survivor listed twice, the copy listed twice",
			"- [A](standup-2026-11-16.md) — day one\n- [B](standup-2026-11-17.md) — day two\n- [A again](standup-2026-11-16.md) — dup\n- [B again](Standup-2026-11-17.md) — dup\n- [Role](user_role.md) — role\n- [G](reference_grafana.md) — dash",
			"- [A](standup-2026-11-16.md) — day one\n- [Role](user_role.md) — role\n- [G](reference_grafana.md) — dash", 2},
		{"an entry that also points elsewhere keeps that pointer",
			"- [A](standup-2026-11-16.md) — day one\n- [B](standup-2026-11-17.md) — day two, owner in [Role](user_role.md)\n- [G](reference_grafana.md) — dash\n",
			"- [A](standup-2026-11-16.md) — day one\n- [B](standup-2026-11-16.md) — day two, owner in [Role](user_role.md)\n- [G](reference_grafana.md) — dash\n", 0},
		{"blank-separated entries leave no double blank",
			"# Memory\n\n- [A](standup-2026-11-16.md) — day one\n\n- [B](standup-2026-11-17.md) — day two\n\n- [Role](user_role.md) — role\n\n- [G](reference_grafana.md) — dash\n\n- [B2](standup-2026-11-17.md) — again\n",
			"# Memory\n\n- [A](standup-2026-11-16.md) — day one\n\n- [Role](user_role.md) — role\n\n- [G](reference_grafana.md) — dash\n", 1},
		{"a link named after the file gets the survivor's name",
			"- [standup-2026-11-17.md](standup-2026-11-17.md) — standups\n- [Role](user_role.md) — role\n- [G](reference_grafana.md) — dash\n",
			"- [standup-2026-11-16.md](standup-2026-11-16.md) — standups\n- [Role](user_role.md) — role\n- [G](reference_grafana.md) — dash\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := seriesDir(func(d *model.MemoryDir) { d.Index.Content = []byte(tt.index) })
			ps := ProposeDir(mergeProject, d, mergeOpts())
			if len(ps) != 1 {
				t.Fatalf("want one proposal, got %d", len(ps))
			}
			var got string
			for _, c := range ps[0].Changes {
				if c.Path == "MEMORY.md" {
					got = c.After
				}
			}
			if got != tt.want {
				t.Errorf("MEMORY.md:\n%s\nwant:\n%s", got, tt.want)
			}
			n := 0
			for _, f := range ps[0].Fixes {
				if f.Rule == consolidate.RuleIndexDuplicateEntry {
					n++
				}
			}
			if n != tt.dropped {
				t.Errorf("claims %d index-duplicate-entry fixes, want %d: %+v", n, tt.dropped, ps[0].Fixes)
			}
			after, err := Apply(filesOf(d), ps[0])
			if err != nil {
				t.Fatal(err)
			}
			lint := consolidate.OrientDir(mergeProject, dirOf(d, after), consolidate.Options{Now: testmodel.Now})
			for _, rule := range []string{consolidate.RuleIndexBrokenLink, consolidate.RuleDuplicateMemory, consolidate.RuleMemoryOrphan} {
				if f := testmodel.Only(lint, rule); len(f) > 0 {
					t.Errorf("after the merge: %s", testmodel.Dump(f))
				}
			}
		})
	}
}

func TestMergeBodies(t *testing.T) {
	tests := []struct {
		name, keep, other, want string
	}{
		{"nothing new", "Fact one.\n\nFact two.\n", "Fact  two.\n\nFact one.\n", "Fact one.\n\nFact two.\n"},
		{"a paragraph wrapped otherwise is already there", "Deploy with make ship;\nnever with npm.\n", "Deploy with make ship; never\nwith npm.\n",
			"Deploy with make ship;\nnever with npm.\n"},
		{"only the new items of a flat list",
			"- alpha\n- beta\n", "- beta\n- gamma\n- alpha\n",
			"- alpha\n- beta\n\nFrom o.md (merged 2026-11-21):\n\n- gamma\n"},
		{"a nested list stays whole",
			"- alpha\n- beta\n", "- beta\n  - detail of beta\n- gamma\n",
			"- alpha\n- beta\n\nFrom o.md (merged 2026-11-21):\n\n- beta\n  - detail of beta\n- gamma\n"},
		{"a code block stays whole, blank lines and all",
			"Run it:\n", "Run it:\n\n```sh\nmake ship\n\nmake verify\n```\n",
			"Run it:\n\nFrom o.md (merged 2026-11-21):\n\n```sh\nmake ship\n\nmake verify\n```\n"},
		{"an unclosed fence is closed",
			"Fact.\n", "```\nmake ship\n", "Fact.\n\nFrom o.md (merged 2026-11-21):\n\n```\nmake ship\n```\n"},
		{"the survivor's unclosed fence is closed before the merged text",
			"```\nmake ship\n", "Fact.\n", "```\nmake ship\n```\n\nFrom o.md (merged 2026-11-21):\n\nFact.\n"},
		{"an empty survivor body", "\n", "Fact.\n", "\nFrom o.md (merged 2026-11-21):\n\nFact.\n"},
		{"a partly new paragraph is kept whole", "Alpha beta.\nGamma delta.\n", "Alpha beta.\nEpsilon.\n",
			"Alpha beta.\nGamma delta.\n\nFrom o.md (merged 2026-11-21):\n\nAlpha beta.\nEpsilon.\n"},
		{"CRLF survivor, LF other", "Fact.\r\n", "New fact.\n", "Fact.\r\n\r\nFrom o.md (merged 2026-11-21):\r\n\r\nNew fact.\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, _ := mergeBodies(tt.keep, []mergeSource{{path: "o.md", body: tt.other}}, model.EOL([]byte(tt.keep)), testmodel.Now)
			if got != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tt.want)
			}
			assertFactsKept(t, got, tt.keep, tt.other)
		})
	}
}

func TestSetDescription(t *testing.T) {
	tests := []struct{ name, in, desc, want string }{
		{"empty value", "---\nname: a\ndescription: \ntype: user\n---\nbody\n", "Plain words", "---\nname: a\ndescription: Plain words\ntype: user\n---\nbody\n"},
		{"quoted empty value", "---\nname: a\ndescription: \"\"\ntype: user\n---\nbody\n", "x: y", "---\nname: a\ndescription: \"x: y\"\ntype: user\n---\nbody\n"},
		{"no description key", "---\r\nname: a\r\ntype: user\r\n---\r\nbody\r\n", "yes", "---\r\nname: a\r\ndescription: \"yes\"\r\ntype: user\r\n---\r\nbody\r\n"},
		{"a hash and quotes", "---\nname: a\ndescription:\n---\n", "use \"make\" # not npm", "---\nname: a\ndescription: \"use \\\"make\\\" # not npm\"\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := setDescription([]byte(tt.in), tt.desc)
			if !ok || string(got) != tt.want {
				t.Errorf("got %v %q, want %q", ok, got, tt.want)
			}
			if d := claude.ParseDoc(got).FM.Description; d != tt.desc {
				t.Errorf("reads back as %q", d)
			}
		})
	}
}

// TestProposeMergesExactCopy: a copy that adds nothing leaves the survivor
// as it is (it is read, not written) and is deleted.
func TestProposeMergesExactCopy(t *testing.T) {
	body := "Deploy with `make ship`; `npm run deploy` skips the database migrations.\n\n**Why:** the migration step lives in the Makefile.\n"
	keep := testmodel.File("deploy.md", currentFM("deploy", "How to deploy the API", "feedback", sessA, "2026-10-01T08:00:00.000Z")+body, testmodel.Now.AddDate(0, 0, -9))
	dup := testmodel.File("deploy-2.md", currentFM("deploy-2", "How we deploy", "feedback", sessB, "2026-10-04T08:00:00.000Z")+strings.ReplaceAll(body, "; ", ";\n"), testmodel.Now.AddDate(0, 0, -2))
	d := mergeDir("", append(bystanders(), keep, dup)...)
	d.Index = testmodel.GoodIndex(d.Files...)
	ps := ProposeDir(mergeProject, d, mergeOpts())
	if len(ps) != 1 {
		t.Fatalf("want one proposal, got %d", len(ps))
	}
	p := ps[0]
	var paths []string
	for _, c := range p.Changes {
		paths = append(paths, string(c.Op)+" "+c.Path)
	}
	if want := []string{"update MEMORY.md", "delete deploy-2.md"}; !slices.Equal(paths, want) {
		t.Errorf("changes %q, want %q", paths, want)
	}
	if !slices.Contains(p.Reads, model.FileRead{Path: "deploy.md", SHA256: consolidate.SHA256Hex(keep.Content)}) {
		t.Errorf("the survivor is not among the reads: %+v", p.Reads)
	}
	if !strings.Contains(p.Rationale, "Every line of deploy-2.md is already in it") {
		t.Errorf("rationale: %s", p.Rationale)
	}
	after, err := Apply(filesOf(d), p)
	if err != nil {
		t.Fatal(err)
	}
	if string(after["deploy.md"]) != string(keep.Content) {
		t.Errorf("the survivor changed")
	}
	// A changed survivor makes the proposal stale.
	files := filesOf(d)
	files["deploy.md"] = append(slices.Clone(keep.Content), "More.\n"...)
	if _, err := Apply(files, p); err == nil {
		t.Errorf("applied over a survivor changed since")
	}
}

// TestIDsLeaveOutTheRunsTime: a merge stamps its result with the run's
// time (metadata.modified, the "(merged <day>)" header), yet the same
// files give the same ID a few seconds or a day later, so dream followed
// by dream --apply --only ID finds it; a change to a file it reads still
// gives another ID.
func TestIDsLeaveOutTheRunsTime(t *testing.T) {
	at := func(now time.Time, d *model.MemoryDir) model.Proposal {
		t.Helper()
		opts := mergeOpts()
		opts.Now = now
		ps := ProposeDir(mergeProject, d, opts)
		if len(ps) != 1 {
			t.Fatalf("want one merge, got %d", len(ps))
		}
		return ps[0]
	}
	base := at(testmodel.Now, seriesDir(nil))
	for _, later := range []time.Duration{3 * time.Second, 26 * time.Hour} {
		p := at(testmodel.Now.Add(later), seriesDir(nil))
		if p.ID != base.ID {
			t.Errorf("%v later: ID %s, was %s", later, p.ID, base.ID)
		}
		if reflect.DeepEqual(p.Changes, base.Changes) {
			t.Errorf("%v later: the result carries no stamp of its own, so this test proves nothing", later)
		}
	}
	changed := at(testmodel.Now, seriesDir(func(d *model.MemoryDir) {
		for _, f := range d.Files {
			if f.Path == "standup-2026-11-17.md" {
				f.Content = append(f.Content, "- Portal review moved to Friday.\n"...)
			}
		}
	}))
	if changed.ID == base.ID {
		t.Errorf("a file the merge reads changed, and the ID stayed %s", base.ID)
	}
}

package consolidate

import (
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

func lint(t *testing.T, p *model.Project, d *model.MemoryDir, opts Options) []model.Finding {
	t.Helper()
	if opts.Now.IsZero() {
		opts.Now = testmodel.Now
	}
	if d.Path == "" {
		d.Path = "/mem"
	}
	d.Exists = true
	if p == nil {
		p = &model.Project{Slug: "p"}
	}
	return OrientDir(p, d, opts)
}

func TestFileRulesFireAndStayQuiet(t *testing.T) {
	recent := testmodel.Now.AddDate(0, 0, -3)
	tests := []struct {
		name    string
		content string
		mod     time.Time
		rule    string
		want    int // findings of rule expected
		line    int // line of the first, when want > 0
		msg     string
	}{
		{"clean", testmodel.Topic("deploy", "Deploy with make ship", "feedback", testmodel.Body), recent, "", 0, 0, ""},
		{"no frontmatter", "# Deploy\n\n" + testmodel.Body, recent, RuleFrontmatterMissing, 1, 1, "no frontmatter"},
		{"heading before the fence", "# Deploy\n---\nname: d\ndescription: x\ntype: user\n---\n" + testmodel.Body, recent, RuleFrontmatterNotAtStart, 1, 1, "a heading"},
		{"unclosed", "---\nname: d\ndescription: x\n\n" + testmodel.Body, recent, RuleFrontmatterInvalid, 1, 1, "closing ---"},
		{"garbage", "---\n\t[x: {\n---\n" + testmodel.Body, recent, RuleFrontmatterInvalid, 1, 1, "does not parse"},
		{"unquoted colon", "---\nname: staging\ndescription: Staging host: acme-stg\ntype: reference\n---\n" + testmodel.Body, recent, RuleFrontmatterUnquoted, 1, 3, "quoting"},
		{"quoted colon is fine", "---\nname: staging\ndescription: \"Staging host: acme-stg\"\ntype: reference\n---\n" + testmodel.Body, recent, RuleFrontmatterUnquoted, 0, 0, ""},
		{"empty description", testmodel.Topic("deploy", "", "feedback", testmodel.Body), recent, RuleFrontmatterIncomplete, 1, 1, "description is empty"},
		{"empty name and description", testmodel.Topic("", "", "feedback", testmodel.Body), recent, RuleFrontmatterIncomplete, 1, 1, "name and description are"},
		{"missing type", "---\nname: d\ndescription: x\n---\n" + testmodel.Body, recent, RuleTypeMissing, 1, 1, "no type"},
		{"metadata type counts", "---\nname: d\ndescription: x\nmetadata:\n  type: user\n---\n" + testmodel.Body, recent, RuleTypeMissing, 0, 0, ""},
		{"invalid type", testmodel.Topic("d", "x", "decision", testmodel.Body), recent, RuleTypeInvalid, 1, 4, `"decision"`},
		{"wrong case type", testmodel.Topic("d", "x", "User", testmodel.Body), recent, RuleTypeInvalid, 1, 4, `"User"`},
		{"relative date", testmodel.Topic("d", "x", "project", "The freeze starts tomorrow.\n"), time.Date(2026, 6, 10, 12, 0, 0, 0, time.Local), RuleRelativeDate, 1, 7, "2026-06-11"},
		{"relative date anchored on metadata.modified", "---\nname: d\ndescription: x\nmetadata:\n  type: project\n  modified: 2026-06-10T12:00:00.000Z\n---\n\nShip it tomorrow.\n", recent, RuleRelativeDate, 1, 9, "metadata.modified"},
		{"currently is not a date", testmodel.Topic("d", "x", "project", "Currently we deploy from main; this session fixed it.\n"), recent, RuleRelativeDate, 0, 0, ""},
		{"dates in code are skipped", testmodel.Topic("d", "x", "project", "```\necho tomorrow\n```\nRun `date --date=tomorrow`.\n"), recent, RuleRelativeDate, 0, 0, ""},
		{"month-day without year", testmodel.Topic("d", "x", "project", "Cutover on May 26.\n"), recent, RuleDateMissingYear, 1, 7, "May 26"},
		{"month-day with year", testmodel.Topic("d", "x", "project", "Cutover on May 26, 2026.\n"), recent, RuleDateMissingYear, 0, 0, ""},
		{"recall cut by bytes", testmodel.Topic("d", "x", "reference", strings.Repeat("A line of runbook text that goes on.\n", 130)), recent, RuleRecallTruncated, 1, 0, "4.7KB, over the 4KB recall limit"},
		{"recall cut by lines", testmodel.Topic("d", "x", "reference", strings.Repeat("x\n", 210)), recent, RuleRecallTruncated, 1, 0, "lines"},
		{"small file is recalled whole", testmodel.Topic("d", "x", "reference", testmodel.Body), recent, RuleRecallTruncated, 0, 0, ""},
		{"BOM", "\ufeff" + testmodel.Topic("d", "x", "user", testmodel.Body), recent, RuleEncoding, 1, 1, "byte-order mark"},
		{"NUL bytes", testmodel.Topic("d", "x", "user", "bin\x00ary\n"), recent, RuleEncoding, 1, 7, "NUL"},
		{"invalid UTF-8", testmodel.Topic("d", "x", "user", "caf\xe9\n"), recent, RuleEncoding, 1, 7, "UTF-8"},
		{"CRLF is normal", "---\r\nname: d\r\ndescription: x\r\ntype: user\r\n---\r\n\r\n" + strings.ReplaceAll(testmodel.Body, "\n", "\r\n"), recent, RuleEncoding, 0, 0, ""},
		{"secret", testmodel.Topic("d", "x", "reference", "The bot token is ghp_Xr7Kq2Lm9Pz4Tb6Wn1Yc8Vd3Hf5Js0Ga2Ek7Q for now.\n"), recent, RuleSecret, 1, 7, "github-pat"},
		{"no secret in a sha", testmodel.Topic("d", "x", "reference", "Pinned at 3f2a9c1e4b7d8a0f6e5c4b3a2d1e0f9a8b7c6d5e and run 6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d.\n"), recent, RuleSecret, 0, 0, ""},
		{"stale project memory", testmodel.Topic("d", "x", "project", testmodel.Body), testmodel.Now.AddDate(0, -5, 0), RuleStaleMemory, 1, 0, "days ago"},
		{"old user memory is not stale", testmodel.Topic("d", "x", "user", testmodel.Body), testmodel.Now.AddDate(-1, 0, 0), RuleStaleMemory, 0, 0, ""},
		{"recent project memory is not stale", testmodel.Topic("d", "x", "project", testmodel.Body), testmodel.Now.AddDate(0, -1, 0), RuleStaleMemory, 0, 0, ""},
		{"stub", testmodel.Topic("d", "x", "project", "TBD.\n"), recent, RuleMemoryStub, 1, 7, "1 word"},
		{"short but real body", testmodel.Topic("d", "x", "project", "Staging lives on acme-stg behind the VPN.\n"), recent, RuleMemoryStub, 0, 0, ""},
		{"ignore comment silences", testmodel.Topic("d", "x", "decision", "<!-- memtui-ignore type-invalid -->\n"+testmodel.Body), recent, RuleTypeInvalid, 0, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testmodel.File("topic.md", tt.content, tt.mod)
			d := &model.MemoryDir{Files: []*model.File{f}, Index: testmodel.GoodIndex(f)}
			all := lint(t, nil, d, Options{})
			if tt.rule == "" {
				if len(all) != 0 {
					t.Fatalf("a clean file got findings: %+v", all)
				}
				return
			}
			got := testmodel.Only(all, tt.rule)
			if len(got) != tt.want {
				t.Fatalf("%s: %d findings, want %d: %+v (all: %+v)", tt.rule, len(got), tt.want, got, all)
			}
			if tt.want == 0 {
				return
			}
			if got[0].Line != tt.line {
				t.Errorf("line %d, want %d", got[0].Line, tt.line)
			}
			if !strings.Contains(got[0].Message, tt.msg) {
				t.Errorf("message %q lacks %q", got[0].Message, tt.msg)
			}
			if got[0].Suggestion == "" {
				t.Error("no suggestion")
			}
			if got[0].File != "topic.md" || got[0].MemoryDir != "/mem" || got[0].Project != "p" {
				t.Errorf("where: %q %q %q", got[0].Project, got[0].MemoryDir, got[0].File)
			}
		})
	}
}

func TestSecretIsMaskedInTheMessage(t *testing.T) {
	tok := "ghp_Xr7Kq2Lm9Pz4Tb6Wn1Yc8Vd3Hf5Js0Ga2Ek7Q"
	f := testmodel.File("ci.md", testmodel.Topic("ci", "CI bot", "reference", "token "+tok+"\n"), testmodel.Now)
	got := testmodel.Only(lint(t, nil, &model.MemoryDir{Files: []*model.File{f}, Index: testmodel.GoodIndex(f)}, Options{}), RuleSecret)
	if len(got) != 1 {
		t.Fatalf("want one secret finding, got %+v", got)
	}
	if strings.Contains(got[0].Message+got[0].Suggestion, tok) || strings.Contains(got[0].Message, tok[4:]) {
		t.Errorf("the secret leaks: %q", got[0].Message)
	}
}

func TestNameDuplicateAndWikilinks(t *testing.T) {
	a := testmodel.File("reference_db_pooling.md", testmodel.Topic("db-notes", "pooling", "reference", "See [[db tooling]] and [[missing-note]].\n"), testmodel.Now)
	b := testmodel.File("reference_db_tooling.md", testmodel.Topic("db-notes", "tooling", "reference", "Links back to [[reference_db_pooling]] and `[[in code]]`.\n"), testmodel.Now)
	all := lint(t, nil, &model.MemoryDir{Files: []*model.File{a, b}, Index: testmodel.GoodIndex(a, b)}, Options{})
	dups := testmodel.Only(all, RuleNameDuplicate)
	if len(dups) != 1 || dups[0].File != "reference_db_tooling.md" || dups[0].Line != 2 {
		t.Errorf("name-duplicate: %+v", dups)
	}
	wl := testmodel.Only(all, RuleWikilinkBroken)
	if len(wl) != 2 {
		t.Fatalf("wikilink-broken: want [[missing-note]] and [[db tooling]] (no memory has that name), got %+v", wl)
	}
	for _, f := range wl {
		if strings.Contains(f.Message, "in code") || strings.Contains(f.Message, "reference_db_pooling") {
			t.Errorf("false alarm: %s", f.Message)
		}
	}
}

type fakeProbe map[string]bool

func (fp fakeProbe) Exists(root, p string) (bool, bool) {
	if root != "/home/dev/acme" {
		return false, false
	}
	return fp[p], true
}

func TestDanglingPath(t *testing.T) {
	probe := fakeProbe{"internal/billing/invoice.go": true, "main.go": true}
	content := testmodel.Topic("billing", "billing notes", "project",
		"The invoice code is in internal/billing/invoice.go and internal/billing/legacy.go.\n"+
			"Entry point `main.go`; gone: `cmd/old.go`. Docs at https://example.com/src/x.go.\n"+
			"Mentioned in passing: config.json.\n")
	f := testmodel.File("project_billing.md", content, testmodel.Now)
	d := &model.MemoryDir{Files: []*model.File{f}, Index: testmodel.GoodIndex(f)}
	known := &model.Project{Slug: "-home-dev-acme", Root: "/home/dev/acme"}
	got := testmodel.Only(lint(t, known, d, Options{Paths: probe}), RuleDanglingPath)
	var names []string
	for _, g := range got {
		names = append(names, g.Message)
	}
	if len(got) != 2 || !strings.Contains(names[0], "internal/billing/legacy.go") || !strings.Contains(names[1], "cmd/old.go") {
		t.Fatalf("want legacy.go and cmd/old.go, got %q", names)
	}
	if got[0].Line != 7 || got[1].Line != 8 {
		t.Errorf("lines %d, %d; want 7, 8", got[0].Line, got[1].Line)
	}
	// Root unknown: nothing can be said, so nothing is.
	unknown := &model.Project{Slug: "-home-dev-acme"}
	if got := testmodel.Only(lint(t, unknown, d, Options{Paths: probe}), RuleDanglingPath); len(got) != 0 {
		t.Errorf("fired without a known root: %+v", got)
	}
	other := &model.Project{Slug: "x", Root: "/elsewhere"}
	if got := testmodel.Only(lint(t, other, d, Options{Paths: probe}), RuleDanglingPath); len(got) != 0 {
		t.Errorf("fired when the probe cannot know: %+v", got)
	}
}

func TestProvenanceSwept(t *testing.T) {
	content := func(id string) string {
		return "---\nname: d\ndescription: x\nmetadata:\n  type: project\n  originSessionId: " + id + "\n---\n\n" + testmodel.Body
	}
	kept := testmodel.File("a.md", content("6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"), testmodel.Now)
	gone := testmodel.File("b.md", content("7b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e"), testmodel.Now)
	d := &model.MemoryDir{Files: []*model.File{kept, gone}, Index: testmodel.GoodIndex(kept, gone)}
	p := &model.Project{Slug: "p", ConfigDir: "/c", Sessions: map[string]bool{"6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d": true}}
	got := testmodel.Only(lint(t, p, d, Options{}), RuleProvenanceSwept)
	if len(got) != 1 || got[0].File != "b.md" || got[0].Line != 6 {
		t.Fatalf("want b.md:6, got %+v", got)
	}
	// Another project of the same config dir holds the transcript (a
	// session started in a subdirectory): not swept.
	sub := &model.Project{Slug: "p-sub", ConfigDir: "/c", Sessions: map[string]bool{"7b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e": true}}
	scan := &model.Scan{Projects: []*model.Project{{Slug: "p", ConfigDir: "/c", Sessions: p.Sessions, Dirs: []*model.MemoryDir{d}}, sub}}
	if got := testmodel.Only(orientScan(scan, Options{Now: testmodel.Now}), RuleProvenanceSwept); len(got) != 0 {
		t.Errorf("swept although another project holds the transcript: %+v", got)
	}
	// No transcripts listed at all (--memory-dir): nothing can be said.
	if got := testmodel.Only(lint(t, &model.Project{Slug: "x"}, d, Options{}), RuleProvenanceSwept); len(got) != 0 {
		t.Errorf("fired without transcripts: %+v", got)
	}
}

func TestProblemsAndEmptyDir(t *testing.T) {
	d := &model.MemoryDir{Problems: []model.Problem{
		{Path: "link.md", Kind: model.ProblemSymlink, Detail: "-> real.md"},
		{Path: "out.md", Kind: model.ProblemSymlinkEscape, Detail: "/etc/passwd"},
		{Path: "loop.md", Kind: model.ProblemSymlinkLoop, Detail: "too many links"},
		{Path: "up", Kind: model.ProblemLinkSkipped, Detail: "symlink to the folder ./ (the memory dir itself); not followed"},
		{Path: "locked.md", Kind: model.ProblemUnreadable, Detail: "permission denied"},
		{Path: "x.md", Kind: model.ProblemNotFile, Detail: "a directory"},
		{Path: "huge.md", Kind: model.ProblemTooLarge, Detail: "20 MB"},
	}}
	all := lint(t, nil, d, Options{})
	if n := len(testmodel.Only(all, RuleSymlink)); n != 4 {
		t.Errorf("symlink findings: %d, want 4", n)
	}
	if n := len(testmodel.Only(all, RuleFileUnreadable)); n != 2 {
		t.Errorf("file-unreadable findings: %d, want 2", n)
	}
	if n := len(testmodel.Only(all, RuleMemdirEmpty)); n != 0 {
		t.Error("a directory with problems is not empty")
	}
	if n := len(testmodel.Only(lint(t, nil, &model.MemoryDir{}, Options{}), RuleMemdirEmpty)); n != 1 {
		t.Errorf("empty dir: %d memdir-empty findings, want 1", n)
	}
	f := testmodel.File("a.md", testmodel.Topic("a", "b", "user", testmodel.Body), testmodel.Now)
	if n := len(testmodel.Only(lint(t, nil, &model.MemoryDir{Files: []*model.File{f}, Index: testmodel.GoodIndex(f)}, Options{}), RuleMemdirEmpty)); n != 0 {
		t.Error("a dir with files is not empty")
	}
}

func TestProjectIgnore(t *testing.T) {
	f := testmodel.File("a.md", testmodel.Topic("a", "b", "decision", testmodel.Body), testmodel.Now)
	d := &model.MemoryDir{Files: []*model.File{f}, Index: testmodel.GoodIndex(f)}
	p := &model.Project{Slug: "-home-dev-acme", Root: "/home/dev/acme"}
	if n := len(testmodel.Only(lint(t, p, d, Options{Ignore: []IgnoreRule{{Project: "acme", Rules: []string{RuleTypeInvalid}}}}), RuleTypeInvalid)); n != 0 {
		t.Error("project ignore did not silence the rule")
	}
	if n := len(testmodel.Only(lint(t, p, d, Options{Ignore: []IgnoreRule{{Project: "webshop", Rules: []string{RuleTypeInvalid}}}}), RuleTypeInvalid)); n != 1 {
		t.Error("an ignore for another project silenced this one")
	}
}

func TestConfigFindings(t *testing.T) {
	scan := &model.Scan{Config: []model.ConfigProblem{
		{Kind: model.SettingsInvalid, Source: "/c/settings.json", Line: 3, Detail: "not JSON", Suggestion: "fix it"},
		{Kind: model.OverrideInvalid, Source: "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", Detail: "relative", Suggestion: "absolute"},
	}}
	got := orientScan(scan, Options{Now: testmodel.Now})
	if len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
	rules := got[0].Rule + "," + got[1].Rule
	if !strings.Contains(rules, RuleSettingsInvalid) || !strings.Contains(rules, RuleOverrideInvalid) {
		t.Errorf("rules %s", rules)
	}
	for _, f := range got {
		if f.Severity != model.Error {
			t.Errorf("%s severity %v", f.Rule, f.Severity)
		}
	}
}

func TestEveryRuleHasAStableSeverityAndSummary(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if seen[r.ID] || r.Summary == "" || strings.ToLower(r.ID) != r.ID {
			t.Errorf("rule %+v", r)
		}
		seen[r.ID] = true
	}
	if len(seen) < 36 {
		t.Errorf("only %d rules", len(seen))
	}
}

func TestSecretLabel(t *testing.T) {
	for in, want := range map[string]string{
		"Uncovered a GitHub Personal Access Token, potentially leading to unauthorized repository access.": "a GitHub Personal Access Token",
		"Identified a pattern that may indicate AWS credentials, risking unauthorized cloud access.":       "AWS credentials",
		"Found an OpenAI API Key, posing a risk of unauthorized access.":                                   "an OpenAI API Key",
		"Credentials embedded in a URL (scheme://user:password@host)":                                      "Credentials embedded in a URL",
		"": "a secret",
	} {
		if got := SecretLabel(in); got != want {
			t.Errorf("SecretLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormNameMatchesUnicodePath(t *testing.T) {
	for _, s := range []string{"", "a", "Deploy Steps.md", " x_y z ", "already-fine", "MiXeD_Case name", "Ünïcode Name", "ÀB_c", "a\tb", "tab\t", "\xff bad", "x.md.md"} {
		want := normNameUnicode(strings.TrimSpace(strings.TrimSuffix(s, ".md")))
		if got := NormName(s); got != want {
			t.Errorf("NormName(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestFrontLinesMatchesSplit checks keyLine and unquotedLine, which walk
// the frontmatter lines in place, against reading them from a full split.
func TestFrontLinesMatchesSplit(t *testing.T) {
	splitKeyLine := func(fs *CheckedFile, key string) int {
		lines := strings.Split(fs.text, "\n")
		for i := fs.doc.Open; i < fs.doc.Close-1 && i < len(lines); i++ {
			if strings.HasPrefix(strings.TrimLeft(lines[i], " \t"), key+":") {
				return i + 1
			}
		}
		return fs.doc.Open
	}
	splitUnquoted := func(fs *CheckedFile) int {
		lines := strings.Split(fs.text, "\n")
		for i := fs.doc.Open; i < fs.doc.Close-1 && i < len(lines); i++ {
			l := strings.TrimRight(lines[i], "\r")
			_, v, ok := strings.Cut(strings.TrimLeft(l, " "), ": ")
			if ok && (strings.Contains(v, ": ") || strings.Contains(v, " #") || strings.HasSuffix(v, ":")) &&
				!strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, "'") {
				return i + 1
			}
		}
		return fs.doc.Open
	}
	for _, text := range []string{
		"", "no frontmatter\n", "---\nname: a\ntype: user\n---\nbody\n",
		"---\r\nname: a\r\ndescription: x: y\r\n---\r\n",
		"<!-- c -->\n---\nname: a\ndescription: b # c\nmetadata:\n  originSessionId: s\n---\n",
		"---\nname: a\n", "---\n---\n", "---\n\tname: a\n  type: b:\n---",
		"---\nnamex: a\nname : b\nname:c\n---\n",
	} {
		fs := newFileState(&model.File{Path: "a.md", Content: []byte(text)})
		for _, key := range []string{"name", "type", "description", "originSessionId", "metadata"} {
			if got, want := keyLine(fs, key), splitKeyLine(fs, key); got != want {
				t.Errorf("keyLine(%q, %s) = %d, want %d", text, key, got, want)
			}
		}
		if got, want := unquotedLine(fs), splitUnquoted(fs); got != want {
			t.Errorf("unquotedLine(%q) = %d, want %d", text, got, want)
		}
	}
}

// orientScan checks every directory of a scan whose directories are in
// hand, as app's Check does after loading each one.
func orientScan(scan *model.Scan, opts Options) []model.Finding {
	opts = opts.ForScan(scan)
	jobs := DirJobs(scan, nil)
	results := make([][]model.Finding, len(jobs))
	for i, j := range jobs {
		results[i] = OrientDir(j.P, j.D, opts)
	}
	return MergeFindings(scan, results)
}

package dream

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/model"
)

// Fixtures copied from consolidate's tests (test files cannot import each
// other's): the proposers are tested on the same directories the checks are.

// (from consolidate/files_test.go)
var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.Local)

// (from consolidate/files_test.go)
func topic(name, desc, typ, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\ntype: " + typ + "\n---\n\n" + body
}

// (from consolidate/files_test.go)
// mem builds a topic file modified at mod.
func mem(path, content string, mod time.Time) *model.File {
	return &model.File{Path: path, Content: []byte(content), Size: int64(len(content)), ModTime: mod}
}

// (from consolidate/files_test.go)
func only(fs []model.Finding, rule string) []model.Finding {
	var out []model.Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// (from consolidate/index_test.go)
// ixTopics builds plain ixTopic files for the given paths.
func ixTopics(paths ...string) []*model.File {
	var fs []*model.File
	for _, p := range paths {
		stem := strings.TrimSuffix(p[strings.LastIndex(p, "/")+1:], ".md")
		fs = append(fs, ixTopic(p, stem, "about "+stem))
	}
	return fs
}

// (from consolidate/scan_test.go)
// capDir is a memory dir of n memories, the i-th modified i hours after
// base, marked as the loader marks them: the oldest n-200 past the cap.
// Every file is in the index.
func capDir(n int, base time.Time) *model.MemoryDir {
	d := &model.MemoryDir{Path: "/cfg/projects/p/memory", Exists: true, ScanListed: n}
	for i := 0; i < n; i++ {
		f := mem(fmt.Sprintf("m%03d.md", i), topic(fmt.Sprintf("m%d", i), fmt.Sprintf("Fact number %d about ticket %d", i, i*7), "project",
			fmt.Sprintf("Ticket %d is owned by team %d; it ships in sprint %d with flag f%d.\n", i*7, i%13, i%17, i)), base.Add(time.Duration(i)*time.Hour))
		if i < n-model.RecallScanCap {
			f.Scan = model.ScanPastCap
		}
		d.Files = append(d.Files, f)
	}
	d.Index = goodIndex(d.Files...)
	return d
}

// (from consolidate/files_test.go)
const body = "Deploy with `make ship`; npm run deploy skips the migrations.\n\n**Why:** the migration step lives in the Makefile.\n"

// (from consolidate/files_test.go)
// goodIndex references every file so index rules stay quiet.
func goodIndex(files ...*model.File) *model.File {
	var b strings.Builder
	b.WriteString("# Memory\n\n")
	for _, f := range files {
		b.WriteString("- [" + f.Path + "](" + f.Path + ") — about " + strings.TrimSuffix(f.Path, ".md") + "\n")
	}
	return &model.File{Path: "MEMORY.md", Content: []byte(b.String())}
}

// (from consolidate/scan_test.go)
// logWith is a transcript log with the observations given.
func logWith(obs ...model.MemObservation) *model.TranscriptLog {
	return &model.TranscriptLog{Sessions: map[string]*model.Session{}, Observations: obs, Oldest: testNow.AddDate(0, -1, 0)}
}

// (from consolidate/index_test.go)
// ixTopic builds a ixTopic file with ordinary frontmatter and a real body.
func ixTopic(path, name, desc string) *model.File {
	return &model.File{Path: path, Content: []byte("---\nname: " + name + "\ndescription: " + desc + "\ntype: project\n---\n\n" +
		"The fact itself, with enough words that it is not a stub.\n\n**Why:** it matters.\n\n**How to apply:** use it.\n")}
}

// (from consolidate/index_test.go)
func ixDump(fs []model.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s %s:%d %s -> %s\n", f.Rule, f.File, f.Line, f.Message, f.Suggestion)
	}
	return b.String()
}

// (from consolidate/files_test.go)
func lint(t *testing.T, p *model.Project, d *model.MemoryDir, opts consolidate.Options) []model.Finding {
	t.Helper()
	if opts.Now.IsZero() {
		opts.Now = testNow
	}
	if d.Path == "" {
		d.Path = "/mem"
	}
	d.Exists = true
	if p == nil {
		p = &model.Project{Slug: "p"}
	}
	return consolidate.OrientDir(p, d, opts)
}

// (from consolidate/index_test.go)
// ixEntryLines writes n entries "- [Entry i](entry-i.md) — hook i" and the
// files they point at.
func ixEntryLines(n int, eol string) (string, []*model.File) {
	var b strings.Builder
	var fs []*model.File
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- [Entry %d](entry-%d.md) — hook %d%s", i, i, i, eol)
		fs = append(fs, ixTopic(fmt.Sprintf("entry-%d.md", i), fmt.Sprintf("entry-%d", i), fmt.Sprintf("about entry %d", i)))
	}
	return b.String(), fs
}

// (from consolidate/index_test.go)
var ixTestNow = time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)

// (from consolidate/index_test.go)
// ixNoIndex stands for a directory without MEMORY.md.
const ixNoIndex = "\x00no index"

// (from consolidate/nudges_test.go)
// lintFiles lints a directory of the given topic files (path → content),
// all indexed, and returns the findings of rule.
func lintFiles(t *testing.T, rule string, files map[string]string) []model.Finding {
	t.Helper()
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var fs []*model.File
	for _, p := range paths {
		fs = append(fs, mem(p, files[p], testNow.AddDate(0, 0, -3)))
	}
	return only(lint(t, nil, &model.MemoryDir{Files: fs, Index: goodIndex(fs...)}, consolidate.Options{}), rule)
}

// (from consolidate/index_test.go)
// ixCleanIndex is a realistic index in the shapes real directories use, with
// every file present: no index rule may fire on it.
const ixCleanIndex = "# Memory Index\r\n" +
	"\r\n" +
	"Pointers to the memories of this project.\r\n" +
	"\r\n" +
	"## User\r\n" +
	"- [User role](user_role.md) — data scientist; explain Go idioms when they come up\r\n" +
	"- [Preferences](user_prefs.md) - terse answers, no emoji\r\n" +
	"\r\n" +
	"## Feedback\r\n" +
	"- [Testing](feedback_testing.md): always run with -race before pushing\r\n" +
	"- [[feedback-style|Style]], tabs and gofmt, never hand-align\r\n" +
	"\r\n" +
	"## Project\r\n" +
	"| File | When it matters |\r\n" +
	"|------|-----------------|\r\n" +
	"| `project_auth.md` | touching login or sessions |\r\n" +
	"| `project/deploy.md` | anything that ships |\r\n" +
	"\r\n" +
	"The rewrite is driven by [legal](project_legal.md), so ask before cutting scope.\r\n" +
	"\r\n" +
	"## References\r\n" +
	"- [Grafana](https://grafana.example/d/latency) — latency dashboards\r\n" +
	"- [Runbooks](reference_runbooks.md) — where the on-call docs live\r\n" +
	"\r\n" +
	"Older entries: [archive](MEMORY-archive.md).\r\n"

// (from consolidate/index_test.go)
func ixCleanFiles() []*model.File {
	return append(ixTopics("user_role.md", "user_prefs.md", "feedback_testing.md", "project_auth.md", "project/deploy.md",
		"project_legal.md", "reference_runbooks.md", "old_one.md", "logs/2026/07/2026-07-30.md", "sessions/s1.md"),
		ixTopic("feedback_style.md", "feedback-style", "formatting rules"),
		&model.File{Path: "MEMORY-archive.md", Content: []byte("# Archive\n\n- [Old one](old_one.md) — superseded in June 2026\n")})
}

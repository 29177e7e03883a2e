package testmodel

import (
	"fmt"
	"strings"

	"github.com/memtui/memtui/model"
)

// IndexTopic builds a topic file with ordinary frontmatter (type project)
// and a real body.
func IndexTopic(path, name, desc string) *model.File {
	return &model.File{Path: path, Content: []byte("---\nname: " + name + "\ndescription: " + desc + "\ntype: project\n---\n\n" +
		"The fact itself, with enough words that it is not a stub.\n\n**Why:** it matters.\n\n**How to apply:** use it.\n")}
}

// IndexTopics builds plain IndexTopic files for the given paths, each
// named after its file.
func IndexTopics(paths ...string) []*model.File {
	var fs []*model.File
	for _, p := range paths {
		stem := strings.TrimSuffix(p[strings.LastIndex(p, "/")+1:], ".md")
		fs = append(fs, IndexTopic(p, stem, "about "+stem))
	}
	return fs
}

// EntryLines writes n index entries "- [Entry i](entry-i.md) — hook i",
// each ended with eol, and the files they point at.
func EntryLines(n int, eol string) (string, []*model.File) {
	var b strings.Builder
	var fs []*model.File
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- [Entry %d](entry-%d.md) — hook %d%s", i, i, i, eol)
		fs = append(fs, IndexTopic(fmt.Sprintf("entry-%d.md", i), fmt.Sprintf("entry-%d", i), fmt.Sprintf("about entry %d", i)))
	}
	return b.String(), fs
}

// Dump is findings one a line ("rule file:line message -> suggestion"),
// for failure messages.
func Dump(fs []model.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s %s:%d %s -> %s\n", f.Rule, f.File, f.Line, f.Message, f.Suggestion)
	}
	return b.String()
}

// CleanIndex is a realistic index in the shapes real directories use,
// with every file present (CleanFiles): no index rule may fire on it.
const CleanIndex = "# Memory Index\r\n" +
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

// CleanFiles are the files CleanIndex points at, and the ones it reaches
// through them.
func CleanFiles() []*model.File {
	return append(IndexTopics("user_role.md", "user_prefs.md", "feedback_testing.md", "project_auth.md", "project/deploy.md",
		"project_legal.md", "reference_runbooks.md", "old_one.md", "logs/2026/07/2026-07-30.md", "sessions/s1.md"),
		IndexTopic("feedback_style.md", "feedback-style", "formatting rules"),
		&model.File{Path: "MEMORY-archive.md", Content: []byte("# Archive\n\n- [Old one](old_one.md) — superseded in June 2026\n")})
}

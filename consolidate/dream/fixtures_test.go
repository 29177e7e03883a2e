package dream

import (
	"sort"
	"testing"
	"time"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/internal/testmodel"
	"github.com/memtui/memtui/model"
)

// The proposers are tested on the same directories the checks are: the
// builders of those are internal/testmodel's. What stays here runs the
// checks themselves (consolidate.OrientDir), which test support must not
// import: copies of consolidate's own test helpers.

// (from consolidate/files_test.go)
func lint(t *testing.T, p *model.Project, d *model.MemoryDir, opts consolidate.Options) []model.Finding {
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
	return consolidate.OrientDir(p, d, opts)
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
		fs = append(fs, testmodel.File(p, files[p], testmodel.Now.AddDate(0, 0, -3)))
	}
	return testmodel.Only(lint(t, nil, &model.MemoryDir{Files: fs, Index: testmodel.GoodIndex(fs...)}, consolidate.Options{}), rule)
}

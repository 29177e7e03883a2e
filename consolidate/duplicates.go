package consolidate

import (
	"fmt"
	"strings"

	"github.com/memtui/memtui/consolidate/similar"
	"github.com/memtui/memtui/model"
)

// The duplicate-memory check and the items the merge proposer groups: the
// engine that finds near-duplicates is package similar.

// checkDuplicates reports every member of a duplicate group except the one
// to keep. Files under logs/ are skipped: daily logs are a series by design.
func checkDuplicates(s *dirState) {
	for _, g := range similar.Find(dupItems(s)) {
		keep := g.Paths[0]
		for _, p := range g.Paths[1:] {
			s.report(RuleDuplicateMemory, p, 0,
				fmt.Sprintf("duplicate of %s (%s); %s is kept as the older one", keep, g.Reason, keep),
				fmt.Sprintf("merge it into %s and delete it", keep))
		}
	}
}

// dupItems is what checkDuplicates hands similar.Find: the directory's
// topic files outside logs/, with the frontmatter's modified date when
// there is one (else the file's mtime).
func dupItems(s *dirState) []similar.Item {
	items := make([]similar.Item, 0, len(s.files))
	for _, fs := range s.files {
		if DupSkipped(fs.f) {
			continue
		}
		items = append(items, DupItem(fs.f, &fs.doc, dupBody(fs)))
	}
	return items
}

// DupSkipped reports the files checkDuplicates leaves alone: daily logs,
// and whatever Claude Code's scan does not list as a memory (facts 2.1).
func DupSkipped(f *model.File) bool {
	return !isMemory(f) || strings.HasPrefix(f.Path, "logs/") || strings.Contains(f.Path, "/logs/")
}

// DupItem is a topic file as similar.Find sees it (Dream's merge
// proposer builds the same items, so its groups are lint's).
func DupItem(f *model.File, doc *model.Doc, body string) similar.Item {
	mod := doc.FM.ModifiedTime
	if mod.IsZero() {
		mod = f.ModTime
	}
	return similar.Item{
		Path:        f.Path,
		Name:        doc.FM.Name,
		Description: doc.FM.Description,
		Body:        body,
		Modified:    mod,
		Type:        doc.FM.Type,
	}
}

// dupBody is fs.doc.Body(content) without copying the content again:
// fs.text already holds it as a string.
func dupBody(fs *CheckedFile) string {
	if fs.doc.BodyStart > len(fs.text) {
		return ""
	}
	return fs.text[fs.doc.BodyStart:]
}

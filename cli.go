package main

import (
	"bufio"
	"context"

	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
	"github.com/memtui/memtui/model"
)

// What several commands share: walking the loaded directories and the
// per-project layout of their listings.

// eachLoadedDir loads every directory of the session's scan in turn and
// calls fn with it; the first error (a load's or fn's) ends the walk.
func (s *session) eachLoadedDir(ctx context.Context, fn func(p *model.Project, d *model.MemoryDir) error) error {
	for _, p := range s.scan.Projects {
		for _, d := range p.Dirs {
			if err := memfs.LoadDir(ctx, d, s.opts); err != nil {
				return err
			}
			if err := fn(p, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// projectHeading starts a project's block in a per-directory listing
// (history, ls): its name on a line of its own, after a blank line when
// another project's block came before. last is the project written last.
func projectHeading(bw *bufio.Writer, p *model.Project, last **model.Project, proj paint.Painter, home string) {
	if p == *last {
		return
	}
	if *last != nil {
		bw.WriteString("\n")
	}
	*last = p
	bw.WriteString(proj.Paint(safe.ShowLine(report.Tilde(p.Name(), home))) + "\n")
}

package ui

import (
	"context"
	"errors"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/forensics"
	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/model"
)

// transcriptsMsg carries one project's log and its directories checked
// again with it. olds are the directories the new values replace: one
// reloaded meanwhile is not replaced by a stale value.
type transcriptsMsg struct {
	gen, idx, seq int
	log           *model.TranscriptLog
	err           error
	olds, dirs    []*dirData
}

// snapshot copies a project for a Cmd: Update may set its Log or replace
// one of its Dirs while the Cmd reads it.
func snapshot(p *model.Project) *model.Project {
	c := *p
	c.Dirs = slices.Clone(p.Dirs)
	return &c
}

// readTranscripts starts reading project idx's transcripts unless a read
// is already running, in which case one more read follows it (an agent
// wrote a memory: its transcript has the write by now). At most
// cfg.Workers reads run at once: a first start may read gigabytes.
func (m *Model) readTranscripts(idx int) tea.Cmd {
	if m.transcripts == nil || idx < 0 || idx >= len(m.data) {
		return nil
	}
	pd := m.data[idx]
	if !pd.loaded {
		return nil
	}
	if pd.logReading {
		pd.logAgain = true
		return nil
	}
	pd.logReading, pd.logAgain = true, false
	pd.logSeq++
	if m.logLimit == nil {
		m.logLimit = pool.NewLimit(m.cfg.Workers)
	}
	if m.logCtx == nil {
		m.logCtx, m.logStop = context.WithCancel(m.ctx)
	}
	snap := snapshot(pd.p)
	olds := slices.Clone(pd.dirs)
	gen, seq, ctx, limit, read, copts := m.gen, pd.logSeq, m.logCtx, m.logLimit, m.transcripts, m.copts
	return func() tea.Msg {
		var msg tea.Msg
		limit.Do(ctx, func() {
			log, err := read(ctx, snap)
			tm := transcriptsMsg{gen: gen, idx: idx, seq: seq, log: log, err: err, olds: olds}
			if err == nil && log != nil {
				snap.Log = log
				for _, dd := range olds {
					tm.dirs = append(tm.dirs, dd.withLog(snap, copts))
				}
			}
			msg = tm
		})
		return msg // nil when cancelled before a slot was free
	}
}

// onTranscripts takes a project's log in: every view derived from the
// project (findings with lost updates, provenance, heat, the dream gate)
// catches up.
func (m *Model) onTranscripts(msg transcriptsMsg) tea.Cmd {
	if msg.gen != m.gen || msg.idx >= len(m.data) {
		return nil
	}
	pd := m.data[msg.idx]
	if msg.seq != pd.logSeq {
		return nil
	}
	pd.logReading = false
	var cmds []tea.Cmd
	if pd.logAgain {
		cmds = append(cmds, m.readTranscripts(msg.idx))
	}
	if msg.err != nil {
		if !errors.Is(msg.err, context.Canceled) {
			pd.logErr = msg.err
			m.status = "transcripts of " + report.Tilde(pd.p.Name(), m.c.home) + " could not be read: " + msg.err.Error()
		}
		return tea.Batch(cmds...)
	}
	if msg.log == nil {
		return tea.Batch(cmds...)
	}
	pd.logErr = nil
	pd.p.Log = msg.log
	m.countProblems()
	for k, old := range msg.olds {
		di := pd.dirIndex(old.d.Path)
		switch {
		case di < 0:
		case pd.dirs[di] == old:
			pd.dirs[di] = msg.dirs[k]
		default:
			// Reloaded while the transcripts were read: the reload has
			// queued another read (logAgain), whose message checks the
			// new value with the log, off the UI thread.
		}
	}
	pd.summarize()
	m.projects.refresh(msg.idx)
	if m.projects.selected() == msg.idx {
		m.memories.setProject(pd)
		cmds = append(cmds, m.requestPreview(false))
	}
	m.changes.rebuild(m.data) // cheap: only directories that changed are compared again
	cmds = append(cmds, m.dataChanged())
	return tea.Batch(cmds...)
}

// withLog returns a copy of dd checked against p's transcript log: its
// lost-update findings, and each file's provenance and heat and the
// directory's dream gate. dd itself is left alone (it may be on screen).
func (dd *dirData) withLog(p *model.Project, copts consolidate.Options) *dirData {
	nd := *dd
	if p.Log == nil {
		return &nd
	}
	nd.findings = append(slices.DeleteFunc(slices.Clone(dd.findings), func(f model.Finding) bool {
		// The checks TranscriptFindings runs again with the log (a deleted
		// memory memtui's own records told of is told again, with who
		// removed it).
		return consolidate.TranscriptRules[f.Rule]
	}), consolidate.TranscriptFindings(p, dd.d, copts)...)
	consolidate.SortFindings(nd.findings)
	nd.byFile = make(map[string][]model.Finding, len(dd.byFile))
	for _, f := range nd.findings {
		nd.byFile[f.File] = append(nd.byFile[f.File], f)
	}
	nd.log = p.Log
	nd.prov = forensics.Provenance(dd.d, p.Log)
	nd.heat = forensics.HeatOf(dd.d, p.Log)
	nd.gate = forensics.GateOf(dd.d, p.Log, copts.Now)
	return &nd
}

package codex

import (
	"slices"
	"testing"

	"github.com/memtui/memtui/model"
)

// fxStore is a store whose one rollout summary is fxCited's thread.
func fxStore() *Store {
	return &Store{Home: fxHome, Root: fxHome + "/memories", Exists: true, Files: []*model.File{
		{Path: SummaryFile, Content: []byte("v1\n\n## User Profile\nA backend engineer.\n")},
		{Path: HandbookFile, Content: []byte("# Task Group: release\n")},
		{Path: "rollout_summaries/2025-02-11T15-35-19-jqmb.md", Content: []byte("thread_id: " + fxCited + "\nupdated_at: 2025-02-11T15:40:00+00:00\nrollout_path: /r.jsonl\ncwd: /home/dev/api\n\n# Cut release 2.3\n")},
		{Path: "rollout_summaries/2025-03-01T10-00-00-abcd.md", Content: []byte("thread_id: 0195aaaa-0000-7000-8000-000000000001\n\n# Other\n")},
	}}
}

// TestAggregate: per file its reads, citations (and its thread's), loads
// and writers; a thread kept twice (a copy in archived_sessions) counts
// once; a session that only had the summary loaded is counted, not
// listed.
func TestAggregate(t *testing.T) {
	main := ParseRollout("/h/sessions/2026/11/20/rollout-a.jsonl", []byte(linuxRollout()), []string{fxHome})
	copyOf := ParseRollout("/h/archived_sessions/rollout-a.jsonl", []byte(linuxRollout()), []string{fxHome})
	other := ParseRollout("/h/sessions/2026/11/19/rollout-b.jsonl", []byte(rl(0, "session_meta", meta("0199ffff-0000-7000-8000-000000000002", "/home/dev/blog"))+"\n"+rl(1, "response_item", message("developer", injected))+"\n"), []string{fxHome})
	outside := ParseRollout("/h/sessions/2026/11/18/rollout-c.jsonl", []byte(rl(0, "session_meta", meta("0199eeee-0000-7000-8000-000000000003", "/w"))+"\n"+
		rl(1, "response_item", message("assistant", "<oai-mem-citation>\n<citation_entries>\n/work/shop/README.md:1-3|note=[not memory]\n</citation_entries>\n</oai-mem-citation>"))+"\n"), []string{fxHome})
	p := Aggregate(fxStore(), []*Rollout{main, copyOf, other, outside})

	if len(p.Sessions) != 2 || p.Sessions[0].ThreadID != fxThread || p.Loaded != 1 || p.Rollouts != 4 {
		t.Fatalf("sessions %d, loaded-only %d, rollouts %d", len(p.Sessions), p.Loaded, p.Rollouts)
	}
	s := p.Sessions[0]
	if !s.Loaded || len(s.Reads) != 3 || len(s.Citations) != 2 || len(s.NoteWrites) != 2 {
		t.Errorf("session: loaded %v, %d reads, %d citations, %d notes", s.Loaded, len(s.Reads), len(s.Citations), len(s.NoteWrites))
	}
	if got := s.ReadPaths(); !slices.Equal(got, []string{"MEMORY.md", "skills/release-notes/SKILL.md"}) {
		t.Errorf("read paths %q (a failed read is left out)", got)
	}
	h := p.Files[HandbookFile]
	if h == nil || !h.Exists || h.Reads != 1 || !slices.Equal(h.ReadBy, []string{fxThread}) || h.Citations != 1 || !slices.Equal(h.Ranges, []LineRange{{12, 20}}) {
		t.Errorf("MEMORY.md: %+v", h)
	}
	rs := p.Files["rollout_summaries/2025-02-11T15-35-19-jqmb.md"]
	if rs == nil || rs.ThreadID != fxCited || rs.ThreadCitations != 1 || !slices.Equal(rs.ThreadCitedBy, []string{fxThread}) || rs.Citations != 1 || rs.Reads != 0 {
		t.Errorf("the cited thread's summary: %+v", rs)
	}
	if o := p.Files["rollout_summaries/2025-03-01T10-00-00-abcd.md"]; o == nil || o.Used() {
		t.Errorf("an uncited summary: %+v", o)
	}
	sum := p.Files[SummaryFile]
	if sum.Loads != 2 || sum.Citations != 1 {
		t.Errorf("summary: %+v", sum)
	}
	note := p.Files["extensions/ad_hoc/notes/2026-11-20T09-00-07-deploy-days.md"]
	if note == nil || note.Exists || len(note.Writes) != 1 || note.Writes[0].ThreadID != fxThread || note.Writes[0].Cwd != "/home/dev/shop" {
		t.Errorf("note: %+v", note)
	}
	if got := len(note.Sessions(p)); got != 1 {
		t.Errorf("the note's sessions: %d", got)
	}
	if got := len(h.Sessions(p)); got != 1 {
		t.Errorf("MEMORY.md's sessions: %d", got)
	}
	if _, ok := p.Files["/work/shop/README.md"]; ok {
		t.Error("a cited file outside the store is one of its files")
	}
	if len(p.Problems) != 2 || p.Problems[0].Transcript != main.Path {
		t.Errorf("problems: %+v", p.Problems)
	}
}

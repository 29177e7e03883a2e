package transcript

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/model"
)

// problemText is every problem, one a line, as a person reads them.
func problemText(ps []model.TranscriptProblem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestNotJSONLineProblem: a broken line that names a memory file is said,
// by its transcript and line number, and the write after it still counts;
// a transcript of many broken lines makes a bounded list that says more
// were not listed.
func TestNotJSONLineProblem(t *testing.T) {
	w := newTlogWorld(t)
	p := w.memPath("x.md")
	b := newLines(uuid1, "/p", time.Date(2026, 8, 1, 10, 0, 0, 0, time.UTC))
	broken := `{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Write","input":{"file_path":"` + p + `"` // cut short
	tr := w.file(uuid1+".jsonl", b.prompt("go"), broken,
		b.call("toolu_W", "Write", map[string]any{"file_path": p, "content": "ok"}),
		b.result("toolu_W", "File created successfully at: "+p, false, writeTUR(p, "ok", nil)))
	l := w.read(w.opts())
	want := []model.TranscriptProblem{{Transcript: tr, Message: "line 2 is not JSON and was skipped"}}
	if !reflect.DeepEqual(l.Problems, want) {
		t.Errorf("problems = %q, want %q", l.Problems, want)
	}
	if len(l.Writes) != 1 || l.Writes[0].Line != 4 {
		t.Errorf("writes after the broken line = %+v", l.Writes)
	}

	lines := []string{b.prompt("go")}
	for range 50 {
		lines = append(lines, broken)
	}
	w.file(uuid2+".jsonl", lines...)
	l = w.read(w.opts())
	var in2 []model.TranscriptProblem
	for _, pr := range l.Problems {
		if strings.HasSuffix(pr.Transcript, uuid2+".jsonl") {
			in2 = append(in2, pr)
		}
	}
	if len(in2) != maxFileProblems || in2[0].Message != "line 2 is not JSON and was skipped" ||
		in2[len(in2)-1].Message != "further problems in this transcript are not listed" {
		t.Errorf("50 broken lines: %d problems %q", len(in2), in2)
	}
}

package txn

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// stepLog builds n steps that record what ran: "do i" and "undo i". Step
// failAt fails (partly, when partial); undoFails lists steps whose undo
// fails; steps in noUndo have none.
func stepLog(n, failAt int, partial bool, undoFails, noUndo []int) ([]txStep, *[]string) {
	var log []string
	steps := make([]txStep, n)
	for i := range steps {
		steps[i] = txStep{name: fmt.Sprintf("step %d", i), path: fmt.Sprintf("f%d.md", i), do: func() error {
			log = append(log, fmt.Sprintf("do %d", i))
			if i == failAt {
				err := fmt.Errorf("step %d failed", i)
				if partial {
					return partly(err)
				}
				return err
			}
			return nil
		}}
		if !slices.Contains(noUndo, i) {
			steps[i].undo = func() error {
				log = append(log, fmt.Sprintf("undo %d", i))
				if slices.Contains(undoFails, i) {
					return fmt.Errorf("undo %d failed", i)
				}
				return nil
			}
		}
	}
	return steps, &log
}

// A failure at each step runs exactly the undos of the steps done before
// it, newest first, and says which step failed and why.
func TestRunStepsUnwindsTheDoneStepsInReverse(t *testing.T) {
	const n = 5
	for failAt := range n {
		steps, log := stepLog(n, failAt, false, nil, nil)
		var after []string
		f := runSteps(steps, func(name string) { after = append(after, name) })
		if f == nil {
			t.Fatalf("fail at %d: no failure reported", failAt)
		}
		var want []string
		for i := 0; i <= failAt; i++ {
			want = append(want, fmt.Sprintf("do %d", i))
		}
		for i := failAt - 1; i >= 0; i-- {
			want = append(want, fmt.Sprintf("undo %d", i))
		}
		if !slices.Equal(*log, want) {
			t.Errorf("fail at %d: ran %v, want %v", failAt, *log, want)
		}
		if f.step != failAt || f.name != fmt.Sprintf("step %d", failAt) || f.path != fmt.Sprintf("f%d.md", failAt) ||
			f.err == nil || f.err.Error() != fmt.Sprintf("step %d failed", failAt) || len(f.undoErrs) != 0 {
			t.Errorf("fail at %d: %+v", failAt, f)
		}
		// The hook saw the steps that succeeded, and only those.
		if len(after) != failAt {
			t.Errorf("fail at %d: after ran for %v", failAt, after)
		}
	}
	steps, log := stepLog(n, -1, false, nil, nil)
	if f := runSteps(steps, nil); f != nil {
		t.Fatalf("no step fails, yet %+v", f)
	}
	if len(*log) != n || strings.Contains(strings.Join(*log, ","), "undo") {
		t.Errorf("a transaction that succeeded ran %v", *log)
	}
}

// A step that fails partly has its own undo run first, then the others'.
func TestRunStepsUndoesAPartlyFailedStep(t *testing.T) {
	steps, log := stepLog(4, 2, true, nil, nil)
	f := runSteps(steps, nil)
	want := []string{"do 0", "do 1", "do 2", "undo 2", "undo 1", "undo 0"}
	if !slices.Equal(*log, want) {
		t.Errorf("ran %v, want %v", *log, want)
	}
	var pe *partialError
	if f == nil || f.step != 2 || errors.As(f.err, &pe) || f.err.Error() != "step 2 failed" {
		t.Errorf("%+v", f)
	}
}

// Every undo runs even when others fail, and every undo error is
// reported, in the order the undos ran; steps without an undo are passed.
func TestRunStepsReportsEveryUndoError(t *testing.T) {
	steps, log := stepLog(5, 4, false, []int{0, 2}, []int{1})
	f := runSteps(steps, nil)
	want := []string{"do 0", "do 1", "do 2", "do 3", "do 4", "undo 3", "undo 2", "undo 0"}
	if !slices.Equal(*log, want) {
		t.Errorf("ran %v, want %v", *log, want)
	}
	if f == nil || len(f.undoErrs) != 2 || f.undoErrs[0].Error() != "undo 2 failed" || f.undoErrs[1].Error() != "undo 0 failed" {
		t.Fatalf("%+v", f)
	}
	j := f.joined()
	if !errors.Is(j, f.err) || !errors.Is(j, f.undoErrs[0]) || !errors.Is(j, f.undoErrs[1]) {
		t.Errorf("joined %v", j)
	}
}

// A step's error that names its file (atFile) is reported at that file,
// with the error itself underneath, still matched by errors.As.
func TestRunStepsAtFile(t *testing.T) {
	ce := &ConflictError{Path: "b.md", Reason: "changed"}
	steps := []txStep{{name: "check", path: "", do: func() error { return atFile("b.md", ce) }}}
	f := runSteps(steps, nil)
	var got *ConflictError
	if f == nil || f.path != "b.md" || f.err != error(ce) || !errors.As(f.err, &got) {
		t.Errorf("%+v", f)
	}
	if atFile("x.md", nil) != nil {
		t.Error("atFile of no error is an error")
	}
}

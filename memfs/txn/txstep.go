package txn

// A write transaction (DESIGN §5) is a list of steps, each carrying its
// own undo: take the locks, write the journal, stage a file, swap it in,
// move one, check them all, commit. One executor runs them; at the first
// failure it runs the undos of the steps done so far, newest first, so no
// error path unwinds by hand. Crash recovery unwinds an interrupted
// entry's recorded changes with the same undos, and `memtui undo` is a
// transaction of its own, built from the entry it reverses.

import "errors"

// testHookStep, when set, runs after every step of a transaction that
// succeeded (its name: "journal", "apply 0 exchanged", "commit", ...).
// The crash tests kill the process there, so every step boundary is a
// kill point.
var testHookStep func(step string)

func step(s string) {
	if testHookStep != nil {
		testHookStep(s)
	}
}

// txStep is one step of a write transaction.
type txStep struct {
	// name says what the step has done once it succeeded ("apply 2
	// exchanged"): the crash tests stop there.
	name string
	// path is the file (relative to the memory dir) a failure of the step
	// is about; "" for none, or when the error names it (atFile).
	path string
	do   func() error
	// undo puts back what do did; nil when there is nothing to put back.
	// It runs only once do has succeeded (or failed partly), so it knows
	// what there is to undo.
	undo func() error
}

// partly marks the error of a step that failed after changing something
// it could not put back at once (a file moved that could not be moved
// back): its own undo runs too, first.
func partly(err error) error { return &partialError{err} }

type partialError struct{ err error }

func (e *partialError) Error() string { return e.err.Error() }
func (e *partialError) Unwrap() error { return e.err }

// atFile names the file a step's error is about, for a step that
// concerns several (a check of every file): path, err as the checks
// return them. nil when err is.
func atFile(path string, err error) error {
	if err == nil {
		return nil
	}
	return &fileError{path: path, err: err}
}

type fileError struct {
	path string
	err  error
}

func (e *fileError) Error() string { return e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// txFailure is what became of a transaction whose step failed.
type txFailure struct {
	step int    // the index of the step that failed
	name string // its name
	path string // the file it is about, "" for none
	err  error  // why, as the step said (without partly or atFile)
	// undoErrs are the errors the undos reported, in the order they ran
	// (the newest step's first); each undo ran whatever the others said.
	undoErrs []error
}

// runSteps runs steps in order, calling after (when not nil) with the name
// of each that succeeds. At the first failure it stops and unwinds: the
// undos of the steps done, newest first (the failed step's own first,
// when it failed partly). It returns nil when every step succeeded.
func runSteps(steps []txStep, after func(name string)) *txFailure {
	for i, s := range steps {
		err := s.do()
		if err == nil {
			if after != nil {
				after(s.name)
			}
			continue
		}
		f := &txFailure{step: i, name: s.name, path: s.path}
		done := steps[:i]
		if pe, ok := err.(*partialError); ok {
			done, err = steps[:i+1], pe.err
		}
		if fe, ok := err.(*fileError); ok {
			f.path, err = fe.path, fe.err
		}
		f.err = err
		f.undoErrs = unwind(done)
		return f
	}
	return nil
}

// unwind runs the undos of steps, the last step's first, and returns the
// errors they reported: an undo that fails does not stop the others.
func unwind(steps []txStep) []error {
	var errs []error
	for i := len(steps) - 1; i >= 0; i-- {
		if u := steps[i].undo; u != nil {
			if err := u(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// joined is the failure's error with the undos' errors after it: what a
// caller without a journal to note them in reports.
func (f *txFailure) joined() error {
	if len(f.undoErrs) == 0 {
		return f.err
	}
	return errors.Join(append([]error{f.err}, f.undoErrs...)...)
}

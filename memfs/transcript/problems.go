package transcript

import (
	"fmt"

	"github.com/memtui/memtui/model"
)

// maxFileProblems bounds the problems kept for one transcript: a hostile
// file of a million broken lines must not make a million messages.
const maxFileProblems = 8

// problem is a transcript problem about path, its message formatted.
func problem(path, format string, args ...any) model.TranscriptProblem {
	return model.TranscriptProblem{Transcript: path, Message: fmt.Sprintf(format, args...)}
}

// addProblem records a problem of st's file, up to maxFileProblems; the
// last kept one then says that more were not listed.
func (st *fileState) addProblem(format string, args ...any) {
	switch n := len(st.Problems); {
	case n < maxFileProblems-1:
		st.Problems = append(st.Problems, problem(st.Path, format, args...))
	case n == maxFileProblems-1:
		st.Problems = append(st.Problems, problem(st.Path, "further problems in this transcript are not listed"))
	}
}

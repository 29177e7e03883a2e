// Command memtui reviews and curates the memories coding agents keep on disk,
// Claude Code's auto memory first. This file is the process's entry: the
// flags and commands are in cli.go and one cmd_*.go file per command; the
// work happens in app (the application core both faces use), memfs (disk),
// consolidate (checks and proposals) and internal/report (printing).
package main

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/fang"
	"github.com/charmbracelet/x/term"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/memfs"
)

// Exit codes of the CLI contract (DESIGN.md section 2).
const (
	exitOK       = 0
	exitFindings = 1 // lint found something at error severity
	exitUsage    = 2 // bad flags, unreadable directories, nothing to check
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// run executes memtui with args and returns the process exit code. A
// question (hook install's) is answered on the process's stdin.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	return runWith(ctx, args, input{r: os.Stdin, tty: term.IsTerminal(os.Stdin.Fd())}, stdout, stderr, getenv)
}

// input is where a command reads a person's answer to a question, and
// whether a person is there to give one (a terminal).
type input struct {
	r   io.Reader
	tty bool
}

// runWith is run with the answers read from in: tests give the answer, or
// say no terminal is there.
func runWith(ctx context.Context, args []string, in input, stdout, stderr io.Writer, getenv func(string) string) int {
	g := &globals{getenv: getenv, in: in}
	defer func() {
		for _, f := range g.cleanup {
			f()
		}
	}()
	root := newRoot(g, stdout, stderr)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	v, commit := versionString()
	err := fang.Execute(ctx, root,
		fang.WithVersion(v), fang.WithCommit(commit),
		fang.WithoutManpage(),
		fang.WithErrorHandler(safeErrors),
		fang.WithColorSchemeFunc(g.fangColors),
	)
	if err != nil {
		return exitUsage
	}
	return g.exit
}

// fangColors are fang's help and error colours for the theme the user
// chose, if any. (fang asks the terminal for its background before it
// calls this, whatever the theme: it has no way to be told.)
func (g *globals) fangColors(ld lipgloss.LightDarkFunc) fang.ColorScheme {
	t := g.theme
	if t == "" { // --help runs before MEMTUI_THEME is read
		t, _ = memfs.ParseTheme(g.getenv("MEMTUI_THEME"))
	}
	if dark, ok := t.Forced(); ok {
		ld = lipgloss.LightDark(dark)
	}
	return fang.DefaultColorScheme(ld)
}

// safeErrors prints an error as fang does, made safe first: errors quote
// paths, titles and a proposer's words, so an error is shown on one line
// (a newline in a file name shows as \n), secrets masked. Only advice memtui
// wrote on several lines itself, its quoted parts made safe as it was
// built, keeps its lines.
func safeErrors(w io.Writer, st fang.Styles, err error) {
	var advice app.Advice
	if !errors.As(err, &advice) {
		err = shownError{err}
	}
	st.ErrorText = st.ErrorText.Transform(sentenceCase)
	fang.DefaultErrorHandler(w, st, err)
}

// sentenceCase starts a message with a capital when its first word is a
// plain word. fang's own transform title-cases the whole first word, which
// printed a flag as --Last or --Config-Dir and a proposal ID as
// Absolutize-Dates-…, neither of which can be typed back; it also folded
// runs of blanks.
func sentenceCase(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if word == "" {
		return s
	}
	for _, r := range word {
		if !unicode.IsLower(r) {
			return s
		}
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// shownError is an error whose text is masked and made safe to print.
type shownError struct{ err error }

func (e shownError) Error() string { return safe.ShowLine(e.err.Error()) }
func (e shownError) Unwrap() error { return e.err }

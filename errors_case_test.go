package main

import (
	"strings"
	"testing"
)

// TestErrorsKeepFlagsAndIDsAsTyped: an error's first word is capitalised
// only when it is a plain word; a flag or an ID comes out as it can be
// typed back (fang alone printed --Last and Absolutize-Dates-…).
func TestErrorsKeepFlagsAndIDsAsTyped(t *testing.T) {
	for in, want := range map[string]string{
		"no journal entry":               "No journal entry",
		"--last undoes the newest entry": "--last undoes the newest entry",
		`"absolutize-dates-3c" names 3`:  `"absolutize-dates-3c" names 3`,
		"memtui-ignore needs a rule":     "memtui-ignore needs a rule",
		"unknown  rule":                  "Unknown  rule",
		"":                               "",
	} {
		if got := sentenceCase(in); got != want {
			t.Errorf("sentenceCase(%q) = %q, want %q", in, got, want)
		}
	}
	code, _, stderr := runCLI(t, env(), "undo", "--last", "x")
	if code != exitUsage || !strings.Contains(stderr, "--last undoes") {
		t.Errorf("exit %d, %q: the flag must read --last", code, stderr)
	}
}

// TestHelpShowsNoMarkup: --help prints flag descriptions as they read,
// without the backticks pflag's convention leaves raw in fang's help.
func TestHelpShowsNoMarkup(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"lint", "--help"}, {"dream", "--help"}, {"index", "--help"}, {"journal", "prune", "--help"}} {
		_, stdout, _ := runCLI(t, env(), args...)
		if !strings.Contains(stdout, "--") || strings.Contains(stdout, "`") {
			t.Errorf("%v: a backtick in the help (or no help):\n%s", args, stdout)
		}
	}
}

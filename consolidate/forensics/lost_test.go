package forensics

import "testing"

func TestSaysWholeSentencesOnly(t *testing.T) {
	flow := flowWords(splitLines("Never deploy on Fridays.\nThe staging DB resets\nnightly; back it up first.\n\n- Tag every\n  release by hand\n"))
	for line, want := range map[string]bool{
		"The staging DB resets nightly.": true,  // re-wrapped
		"back it up first":               true,  // a sentence of a line
		"- tag every release by hand":    true,  // a wrapped list item, case aside
		"Deploy on Fridays.":             false, // part of a sentence: "never" changes it
		"staging DB resets":              false, // likewise
		"Tag every release":              false,
	} {
		if got := says(flow, line); got != want {
			t.Errorf("says(%q) = %v, want %v (flow %q)", line, got, want, flow)
		}
	}
}

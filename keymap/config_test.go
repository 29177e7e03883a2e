package keymap

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// Every binding has one name, no two names fold alike (case, "-" and "_"
// aside), and each name finds its binding.
func TestNamesAreUniqueAndFindTheirBinding(t *testing.T) {
	names := Names()
	n := 0
	for _, g := range groupsOf(Default()) {
		n += len(g.Interface().(interface{ Group() Group }).Group().Bindings)
	}
	if len(names) != n || n < 50 {
		t.Fatalf("%d names for %d bindings", len(names), n)
	}
	folded := map[string]string{}
	k := Default()
	for _, name := range names {
		if prev, ok := folded[fold(name)]; ok {
			t.Errorf("%s and %s are the same name to a user", prev, name)
		}
		folded[fold(name)] = name
		if strings.Count(name, ".") != 1 || name != strings.ToLower(name) {
			t.Errorf("%s: want group.action in lower case", name)
		}
		if k.Binding(name) == nil {
			t.Errorf("%s finds no binding", name)
		}
	}
	if b := k.Binding("proposals.accept_shown"); b == nil || b.Help().Desc != k.Proposals.AcceptShown.Help().Desc {
		t.Errorf("proposals.accept_shown is not ProposalsKeys.AcceptShown")
	}
	if k.Binding("proposals") != nil || k.Binding("nope.quit") != nil {
		t.Error("a name that is no binding found one")
	}
}

func press(s string) fakeKey { return fakeKey(s) }

func TestWithReplacesKeysAndHelp(t *testing.T) {
	base := Default()
	k, probs := base.With([]Override{
		{Name: "global.quit", Keys: []string{"Q", "ctrl+c"}},
		{Name: "Proposals.Accept-Shown", Keys: []string{"ctrl+a"}}, // case, "-" and "_" do not matter
		{Name: "refresh", Keys: []string{"F5"}},                    // a bare action of one group only
		{Name: "move.up", Keys: []string{"up", "k", "ctrl+p"}},
	})
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	if !key.Matches(press("Q"), k.Global.Quit) || key.Matches(press("q"), k.Global.Quit) || !key.Matches(press("ctrl+c"), k.Global.Quit) {
		t.Errorf("quit takes %v", k.Global.Quit.Keys())
	}
	if got := k.Global.Quit.Help(); got.Key != "Q/ctrl+c" || got.Desc != "quit" {
		t.Errorf("quit's help is %+v, want Q/ctrl+c and its own words", got)
	}
	if !key.Matches(press("ctrl+a"), k.Proposals.AcceptShown) || k.Proposals.AcceptShown.Help().Key != "ctrl+a" {
		t.Errorf("accept_shown: %v %q", k.Proposals.AcceptShown.Keys(), k.Proposals.AcceptShown.Help().Key)
	}
	if !key.Matches(press("f5"), k.Global.Refresh) {
		t.Errorf("refresh takes %v", k.Global.Refresh.Keys())
	}
	if got := k.Move.Up.Help().Key; got != "↑/k" {
		t.Errorf("up's help key is %q, want the arrow drawn as the defaults draw it", got)
	}
	// One key written twice (shift+y is Y) is one key.
	k2, probs := base.With([]Override{{Name: "views.journal", Keys: []string{"Y", "shift+y", "Y"}}})
	if got := k2.Views.Journal; len(probs) > 0 || !slices.Equal(got.Keys(), []string{"Y"}) || got.Help().Key != "Y" {
		t.Errorf("journal takes %v, help %q (%v); want Y once", got.Keys(), got.Help().Key, probs)
	}
	// The map rebound from is unchanged.
	if !key.Matches(press("q"), base.Global.Quit) || base.Global.Quit.Help().Key != "q" {
		t.Error("With changed the map it was called on")
	}
	// What is not overridden keeps its keys.
	if !slices.Equal(k.Global.Help.Keys(), base.Global.Help.Keys()) {
		t.Error("an untouched binding changed")
	}
}

// Each bad entry is left out with a problem naming it; the good ones
// around it apply.
func TestWithLeavesOutBadEntries(t *testing.T) {
	cases := []struct {
		o    Override
		want string
	}{
		{Override{Name: "proposals.acept", Keys: []string{"z"}}, `"proposals.acept" names no binding; did you mean proposals.accept?`},
		{Override{Name: "frobnicate", Keys: []string{"z"}}, `"frobnicate" names no binding (docs/KEYS.md lists them)`},
		{Override{Name: "accept", Keys: []string{"z"}}, `"accept" means more than one binding (proposals.accept, input.accept)`},
		{Override{Name: "journal.undo", Keys: nil}, "journal.undo: no keys given"},
		{Override{Name: "journal.filter", Keys: []string{"ctlr+f"}}, `journal.filter: "ctlr+f" is not a key: "ctlr" is not a modifier`},
		{Override{Name: "journal.back", Keys: []string{"escap"}}, `"escap" is neither one character nor a key's name`},
		{Override{Name: "dialog.confirm", Keys: []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}}, "9 keys given, more than the 8"},
		// A key another binding live in the same view takes.
		{Override{Name: "proposals.accept", Keys: []string{"x"}}, `keys: proposals.accept: "x" is also the key of proposals.reject, live with it in the proposals view; ignored`},
		{Override{Name: "global.help", Keys: []string{"j"}}, `global.help: "j" is also the key of move.down`},
	}
	var os []Override
	for i, c := range cases {
		c.o.Line = i + 1
		os = append(os, c.o)
	}
	os = append(os, Override{Name: "changes.revert", Keys: []string{"ctrl+z"}, Line: 99})
	k, probs := Default().With(os)
	if len(probs) != len(cases) {
		t.Errorf("%d problems for %d bad entries:\n%v", len(probs), len(cases), probs)
	}
	for i, c := range cases {
		found := false
		for _, p := range probs {
			if p.Override.Line == i+1 {
				found = true
				if !strings.Contains(p.Text, c.want) || !strings.HasPrefix(p.Text, "keys: ") || !strings.HasSuffix(p.Text, "; ignored") {
					t.Errorf("%s: problem %q, want it to say %q", c.o.Name, p.Text, c.want)
				}
			}
		}
		if !found {
			t.Errorf("%s %v: no problem reported", c.o.Name, c.o.Keys)
		}
	}
	// The bad entries changed nothing; the good one applied.
	d := Default()
	for _, b := range []struct{ got, want key.Binding }{{k.Proposals.Accept, d.Proposals.Accept}, {k.Global.Help, d.Global.Help},
		{k.Journal.Undo, d.Journal.Undo}, {k.Journal.Filter, d.Journal.Filter}, {k.Dialog.Confirm, d.Dialog.Confirm}} {
		if !slices.Equal(b.got.Keys(), b.want.Keys()) {
			t.Errorf("a left-out entry changed %q to %v", b.want.Help().Desc, b.got.Keys())
		}
	}
	if !key.Matches(press("ctrl+z"), k.Changes.Revert) {
		t.Errorf("the good entry among bad ones did not apply: revert takes %v", k.Changes.Revert.Keys())
	}
	if got := overlaps(k); len(got) > 0 {
		t.Errorf("the map With returns has clashes:\n%s", strings.Join(got, "\n"))
	}
}

// Two overrides may swap two bindings' keys; of two taking the same key
// the later is left out; an override taken out gives its binding its
// default keys back, and one that then clashes with them goes too.
func TestWithClashesBetweenOverrides(t *testing.T) {
	k, probs := Default().With([]Override{
		{Name: "proposals.accept", Keys: []string{"x"}},
		{Name: "proposals.reject", Keys: []string{"a"}},
	})
	if len(probs) > 0 || !key.Matches(press("x"), k.Proposals.Accept) || !key.Matches(press("a"), k.Proposals.Reject) {
		t.Errorf("a swap: %v; accept %v, reject %v", probs, k.Proposals.Accept.Keys(), k.Proposals.Reject.Keys())
	}

	k, probs = Default().With([]Override{
		{Name: "journal.undo", Keys: []string{"Y"}, Line: 1},
		{Name: "journal.filter", Keys: []string{"Y"}, Line: 2},
	})
	if len(probs) != 1 || probs[0].Override.Line != 2 || !strings.Contains(probs[0].Text, `journal.filter: "Y" is also the key of journal.undo`) {
		t.Errorf("the later of two overrides on one key must be left out: %v", probs)
	}
	if !key.Matches(press("Y"), k.Journal.Undo) || !key.Matches(press("/"), k.Journal.Filter) {
		t.Errorf("undo %v, filter %v", k.Journal.Undo.Keys(), k.Journal.Filter.Keys())
	}

	// reject takes "q" (quit's): left out, so reject is "x" again, which
	// accept took: accept goes too.
	k, probs = Default().With([]Override{
		{Name: "proposals.accept", Keys: []string{"x"}, Line: 1},
		{Name: "proposals.reject", Keys: []string{"q"}, Line: 2},
	})
	if len(probs) != 2 {
		t.Fatalf("want both left out, got %v", probs)
	}
	if got := overlaps(k); len(got) > 0 || !slices.Equal(k.Proposals.Accept.Keys(), Default().Proposals.Accept.Keys()) {
		t.Errorf("accept %v; clashes %v", k.Proposals.Accept.Keys(), got)
	}

	// The same name twice: the first counts.
	k, probs = Default().With([]Override{{Name: "quit", Keys: []string{"Q"}, Line: 3}, {Name: "global.quit", Keys: []string{"ctrl+q"}, Line: 5}})
	if len(probs) != 1 || !strings.Contains(probs[0].Text, "global.quit was rebound already (line 3)") || !key.Matches(press("Q"), k.Global.Quit) {
		t.Errorf("a name given twice: %v, quit %v", probs, k.Global.Quit.Keys())
	}
}

// --readonly still disables a rebound binding that writes, and the
// binding keeps its new keys for the status line's word about it.
func TestReadOnlyAfterWith(t *testing.T) {
	k, probs := Default().With([]Override{{Name: "proposals.accept", Keys: []string{"Y"}}, {Name: "global.quit", Keys: []string{"Q"}}})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	ro := k.ReadOnly()
	if ro.Proposals.Accept.Enabled() || key.Matches(press("Y"), ro.Proposals.Accept) || !slices.Equal(ro.Proposals.Accept.Keys(), []string{"Y"}) {
		t.Errorf("read-only accept: enabled %v, keys %v", ro.Proposals.Accept.Enabled(), ro.Proposals.Accept.Keys())
	}
	if !key.Matches(press("Q"), ro.Global.Quit) {
		t.Error("read-only lost the rebound quit")
	}
}

func TestParseKey(t *testing.T) {
	for in, want := range map[string]string{
		"q": "q", "G": "G", "?": "?", "/": "/", "+": "+", "é": "é",
		"enter": "enter", "Enter": "enter", "return": "enter", "ESCAPE": "esc", "pgdn": "pgdown", "PageUp": "pgup",
		"space": "space", "f5": "f5", "F12": "f12",
		"ctrl+c": "ctrl+c", "Ctrl+C": "ctrl+shift+c", "shift+g": "G", "alt+G": "alt+shift+g",
		"shift+alt+ctrl+x": "ctrl+alt+shift+x", "shift+tab": "shift+tab", "ctrl++": "ctrl++", "alt+up": "alt+up",
	} {
		if got, err := ParseKey(in); err != nil || got != want {
			t.Errorf("ParseKey(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", " ", "\t", "\x1b", "\x1b[2J", "\u009b", "\u202e", "\u0301", "a\x00", "ctrl+", "ctlr+c",
		"ctrl+ctrl+c", "ab", "f0", "f64", "f01", "enterr", strings.Repeat("a", 49), "\xff", "ctrl+\x07"} {
		if got, err := ParseKey(in); err == nil {
			t.Errorf("ParseKey(%q) = %q, want an error", in, got)
		}
	}
}

// A hostile entry (control characters, a huge list, a huge name) is left
// out with a problem that quotes it short. (Made safe is the printer's
// job: app's notes go through internal/safe, checked in hostile_test.go.)
func TestWithHostileEntries(t *testing.T) {
	huge := make([]string, 100000)
	for i := range huge {
		huge[i] = "x"
	}
	long := strings.Repeat("\x1b]52;c;aGVsbG8=\a", 10000)
	_, probs := Default().With([]Override{
		{Name: "global.quit\x1b[2J", Keys: []string{"q"}},
		{Name: "global.help", Keys: []string{"\x1b]0;pwned\a"}},
		{Name: "global.refresh", Keys: huge},
		{Name: long, Keys: []string{"q"}},
		{Name: "views.browse", Keys: []string{long}},
	})
	if len(probs) != 5 {
		t.Fatalf("want 5 problems, got %v", probs)
	}
	for _, p := range probs {
		if len(p.Text) > 300 {
			t.Errorf("problem is long (%d bytes): %q", len(p.Text), p.Text)
		}
	}
}

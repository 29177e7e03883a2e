package keymap

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

// overlaps lists, for every scope, each key claimed by two live bindings
// (the first match would silently win), naming both bindings: Clashes,
// the check a config file's rebinding passes too, in words.
func overlaps(k KeyMap) []string {
	var out []string
	for _, c := range k.Clashes() {
		out = append(out, fmt.Sprintf("%s: key %q is bound to both %s and %s", c.Scope, c.Key, c.A, c.B))
	}
	return out
}

// No two bindings live at the same time claim the same key. Keys that mean
// different things in different places (v, J/K, u, m, M, w, esc, enter) are
// fine because their groups are never live together.
func TestNoKeyBoundTwiceInAScope(t *testing.T) {
	for _, o := range overlaps(Default()) {
		t.Error(o)
	}
}

// The check above catches a key bound twice: the preview's v moved onto
// the browse view's o.
func TestOverlapIsCaught(t *testing.T) {
	k := Default()
	k.Preview.Source.SetKeys("o")
	got := strings.Join(overlaps(k), "\n")
	if !strings.Contains(got, `browse: key "o" is bound to both browse.sort and preview.source`) {
		t.Errorf("an overlap in the browse view was not reported; got:\n%s", got)
	}
	// Groups never live together may share a key.
	k = Default()
	k.Journal.Undo.SetKeys("D")
	if got := overlaps(k); len(got) > 0 {
		t.Errorf("the journal and the index editor are never live together:\n%s", strings.Join(got, "\n"))
	}
}

// groupsOf walks the key map's groups by reflection: every field of
// KeyMap is a group, every field of a group a binding.
func groupsOf(k KeyMap) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	v := reflect.ValueOf(k)
	for i := range v.NumField() {
		out[v.Type().Field(i).Name] = v.Field(i)
	}
	return out
}

// Every binding has help text, and its group lists it: what the help
// and the overlap check see is the whole key map.
func TestEveryBindingHasHelpAndIsListed(t *testing.T) {
	for name, g := range groupsOf(Default()) {
		listed := g.Interface().(interface{ Group() Group }).Group()
		if listed.Title == "" {
			t.Errorf("group %s has no title", name)
		}
		n := 0
		for i := range g.NumField() {
			b, ok := g.Field(i).Interface().(key.Binding)
			if !ok {
				continue
			}
			n++
			if b.Help().Key == "" || b.Help().Desc == "" {
				t.Errorf("%s.%s has no help text", name, g.Type().Field(i).Name)
			}
			if len(b.Keys()) == 0 {
				t.Errorf("%s.%s has no key", name, g.Type().Field(i).Name)
			}
		}
		if n != len(listed.Bindings) {
			t.Errorf("group %s has %d bindings but lists %d", name, n, len(listed.Bindings))
		}
	}
}

// Every group is live somewhere: a group no scope lists has keys that do
// nothing.
func TestEveryGroupIsLive(t *testing.T) {
	k := Default()
	live := map[string]bool{}
	for _, s := range Scopes() {
		for _, g := range k.Live(s) {
			live[g.Title] = true
		}
	}
	for name, g := range groupsOf(k) {
		if title := g.Interface().(interface{ Group() Group }).Group().Title; !live[title] {
			t.Errorf("group %s (%s) is live in no scope", name, title)
		}
	}
}

// A text input and a dialog take every key: nothing global is live there,
// so q is typed (or answers No) rather than quitting.
func TestInputAndDialogHoldTheKeys(t *testing.T) {
	k := Default()
	for _, s := range []Scope{ScopeInput, ScopeDialog} {
		for _, g := range k.Live(s) {
			if g.Title == k.Global.Group().Title || g.Title == k.Views.Group().Title {
				t.Errorf("%s: the %s keys are live", s, g.Title)
			}
		}
	}
	// The editor's overlays keep quit and help, but switching views waits
	// until they are closed.
	for _, s := range []Scope{ScopeEditorDiff, ScopePicker} {
		var titles []string
		for _, g := range k.Live(s) {
			titles = append(titles, g.Title)
		}
		if got := strings.Join(titles, ","); !strings.Contains(got, "Everywhere") || strings.Contains(got, "Views") {
			t.Errorf("%s: live groups %s", s, got)
		}
	}
}

func TestReadOnlyDisablesEdit(t *testing.T) {
	km := Default().ReadOnly()
	for name, b := range map[string]key.Binding{"Browse.Edit": km.Browse.Edit, "Findings.Edit": km.Findings.Edit,
		"Index.Edit": km.Index.Edit, "Proposals.Edit": km.Proposals.Edit} {
		if b.Enabled() {
			t.Errorf("--readonly must disable the edit binding %s", name)
		}
	}
	if !km.Global.Quit.Enabled() || !km.Browse.Filter.Enabled() || !km.Findings.Filter.Enabled() {
		t.Error("--readonly must leave reading keys alone")
	}
	// Reviewing proposals and reading the journal write nothing.
	if !km.Views.Proposals.Enabled() || !km.Diff.Mode.Enabled() || !km.Diff.NextHunk.Enabled() || !km.Views.Journal.Enabled() ||
		!km.Index.EditIndex.Enabled() || !km.Editor.ShowDiff.Enabled() {
		t.Error("--readonly must leave the proposals view's reading keys alone")
	}
	// Deciding on proposals leads to writing; writing and undoing write.
	e := km.Editor
	for name, b := range map[string]key.Binding{"Toggle": km.Proposals.Toggle, "Accept": km.Proposals.Accept,
		"Reject": km.Proposals.Reject, "Range": km.Proposals.Range, "Write": km.Proposals.Write, "Undo": km.Journal.Undo,
		"MarkSeen": km.Changes.MarkSeen, "MarkReviewed": km.Changes.MarkReviewed, "Mark": km.Dialog.Mark,
		"RowUp": e.RowUp, "RowDown": e.RowDown, "AboveCut": e.AboveCut, "DeleteRow": e.DeleteRow,
		"RestoreRow": e.RestoreRow, "AddOrphan": e.AddOrphan, "EditHook": e.EditHook,
		"ShortenHooks": e.ShortenHooks, "EditUndo": e.Undo, "EditRedo": e.Redo, "WriteIndex": e.Write,
		"SelectRows": e.SelectRows, "Demote": e.Demote, "Collapse": e.Collapse, "Fold": e.Fold, "FoldAll": e.FoldAll} {
		if b.Enabled() {
			t.Errorf("--readonly must disable %s", name)
		}
	}
}

// Default builds a fresh map each time: changing one (a rebinding, the
// read-only map) leaves the next alone.
func TestDefaultIsFresh(t *testing.T) {
	a := Default()
	a.Global.Quit.SetKeys("Q")
	a.Browse.Edit.SetEnabled(false)
	b := Default()
	if !key.Matches(fakeKey("q"), b.Global.Quit) || !b.Browse.Edit.Enabled() || !b.Findings.Edit.Enabled() {
		t.Error("a change to one key map leaked into the next")
	}
}

type fakeKey string

func (k fakeKey) String() string { return string(k) }

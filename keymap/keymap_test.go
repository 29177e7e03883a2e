package keymap

import (
	"reflect"
	"testing"

	"charm.land/bubbles/v2/key"
)

// No two bindings that can be active at once may claim the same key: the
// first match would silently win. Back and ClearFilter share esc on purpose
// (clearing a filter is "back" while one is set). Source (the browse view's
// preview) and Range (the proposals view's diff) share v: the two are never
// live in the same view.
func TestNoKeyBoundTwice(t *testing.T) {
	km := Default()
	v := reflect.ValueOf(km)
	shared := map[string]bool{"ClearFilter": true, "Range": true}
	owner := map[string]string{}
	for i := 0; i < v.NumField(); i++ {
		name := v.Type().Field(i).Name
		if shared[name] {
			continue
		}
		for _, k := range v.Field(i).Interface().(key.Binding).Keys() {
			if prev, ok := owner[k]; ok {
				t.Errorf("key %q is bound to both %s and %s", k, prev, name)
			}
			owner[k] = name
		}
	}
	// Range may share only with Source.
	for _, k := range km.Range.Keys() {
		if o, ok := owner[k]; ok && o != "Source" {
			t.Errorf("key %q is bound to both %s and Range", k, o)
		}
	}
}

func TestEveryBindingHasHelp(t *testing.T) {
	v := reflect.ValueOf(Default())
	for i := 0; i < v.NumField(); i++ {
		b := v.Field(i).Interface().(key.Binding)
		if b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("%s has no help text", v.Type().Field(i).Name)
		}
	}
}

func TestReadOnlyDisablesEdit(t *testing.T) {
	km := Default().ReadOnly()
	if km.Edit.Enabled() {
		t.Error("--readonly must disable the edit binding")
	}
	if !km.Quit.Enabled() || !km.Filter.Enabled() {
		t.Error("--readonly must leave reading keys alone")
	}
	// Reviewing proposals and reading the journal write nothing.
	if !km.Proposals.Enabled() || !km.DiffMode.Enabled() || !km.NextHunk.Enabled() || !km.Journal.Enabled() {
		t.Error("--readonly must leave the proposals view's reading keys alone")
	}
	// Deciding on proposals leads to writing; writing and undoing write.
	for name, b := range map[string]key.Binding{"Toggle": km.Toggle, "Accept": km.Accept, "Reject": km.Reject,
		"Range": km.Range, "Write": km.Write, "Undo": km.Undo} {
		if b.Enabled() {
			t.Errorf("--readonly must disable %s", name)
		}
	}
}

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
// live in the same view. The index editor's keys take over keys of views
// it is never live with: RowUp/RowDown the preview's K/J, EditUndo the
// journal's u, WriteIndex the proposals view's w. MarkReviewed (the changes
// view) and Demote (the index editor) share M.
func TestNoKeyBoundTwice(t *testing.T) {
	km := Default()
	v := reflect.ValueOf(km)
	// Each sharing binding, with the one binding it may share with.
	sharesWith := map[string]string{"Range": "Source", "RowUp": "ScrollUp", "RowDown": "ScrollDown",
		"EditUndo": "Undo", "WriteIndex": "Write", "MarkReviewed": "Demote"}
	shared := map[string]bool{"ClearFilter": true}
	for k := range sharesWith {
		shared[k] = true
	}
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
	// Each may share only with its partner, and two sharers never share.
	sharer := map[string]string{}
	for name, with := range sharesWith {
		for _, k := range v.FieldByName(name).Interface().(key.Binding).Keys() {
			if o, ok := owner[k]; ok && o != with {
				t.Errorf("key %q is bound to both %s and %s", k, o, name)
			}
			if o, ok := sharer[k]; ok {
				t.Errorf("key %q is bound to both %s and %s", k, o, name)
			}
			sharer[k] = name
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
	if !km.Proposals.Enabled() || !km.DiffMode.Enabled() || !km.NextHunk.Enabled() || !km.Journal.Enabled() ||
		!km.EditIndex.Enabled() || !km.ShowDiff.Enabled() {
		t.Error("--readonly must leave the proposals view's reading keys alone")
	}
	// Deciding on proposals leads to writing; writing and undoing write.
	for name, b := range map[string]key.Binding{"Toggle": km.Toggle, "Accept": km.Accept, "Reject": km.Reject,
		"Range": km.Range, "Write": km.Write, "Undo": km.Undo,
		"RowUp": km.RowUp, "RowDown": km.RowDown, "AboveCut": km.AboveCut, "DeleteRow": km.DeleteRow,
		"RestoreRow": km.RestoreRow, "AddOrphan": km.AddOrphan, "EditHook": km.EditHook,
		"ShortenHooks": km.ShortenHooks, "EditUndo": km.EditUndo, "EditRedo": km.EditRedo, "WriteIndex": km.WriteIndex,
		"SelectRows": km.SelectRows, "Demote": km.Demote} {
		if b.Enabled() {
			t.Errorf("--readonly must disable %s", name)
		}
	}
}

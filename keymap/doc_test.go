package keymap

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
)

var update = flag.Bool("update", false, "rewrite docs/KEYS.md from the key map")

// keysDoc is docs/KEYS.md as the key map makes it: every binding's name
// for the config file, its default keys and what it does, group by group.
func keysDoc() string {
	var b strings.Builder
	b.WriteString(`# memtui's keys

Every key of the terminal UI, by the name the config file's ` + "`keys:`" + ` uses
to rebind it (README, "Configuration"). A name is the group and the action;
an action no other group has may be written alone (` + "`quit`" + `), and case, ` + "`-`" + `
and ` + "`_`" + ` do not matter. A key is a character (` + "`q`, `G`, `?`" + `) or a key's
name (` + "`enter`, `tab`, `esc`, `space`, `up`, `pgdown`, `home`, `f5`" + `), after any
of the modifiers ` + "`ctrl+`, `alt+`, `shift+`" + `.

Generated from ` + "`keymap.Default()`" + ` by ` + "`go test ./keymap -run TestKeysDoc -update`" + `;
a test fails when this list and the key map differ.
`)
	k := Default()
	v := reflect.ValueOf(k)
	for i := range v.NumField() {
		g := v.Field(i)
		grp, ok := g.Interface().(interface{ Group() Group })
		if !ok {
			continue
		}
		group := snake(v.Type().Field(i).Name)
		b.WriteString("\n## " + group + " (" + grp.Group().Title + ")\n\n")
		b.WriteString("| name | keys | does |\n|---|---|---|\n")
		for j := range g.NumField() {
			bd, ok := g.Field(j).Interface().(key.Binding)
			if !ok {
				continue
			}
			var keys []string
			for _, s := range bd.Keys() {
				keys = append(keys, "`"+strings.ReplaceAll(s, "|", `\|`)+"`")
			}
			b.WriteString("| `" + group + "." + snake(g.Type().Field(j).Name) + "` | " + strings.Join(keys, " ") +
				" | " + strings.ReplaceAll(bd.Help().Desc, "|", `\|`) + " |\n")
		}
	}
	return b.String()
}

// The list of names in docs/KEYS.md is the key map's: a binding added,
// renamed or given other keys fails here until the list says so.
func TestKeysDoc(t *testing.T) {
	path := filepath.Join("..", "docs", "KEYS.md")
	want := keysDoc()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/KEYS.md differs from the key map: run go test ./keymap -run TestKeysDoc -update")
	}
	// Every name the config file takes is in it.
	for _, n := range Names() {
		if !strings.Contains(string(got), "| `"+n+"` |") {
			t.Errorf("docs/KEYS.md does not list %s", n)
		}
	}
}

package transcript

import (
	"reflect"
	"strings"
	"testing"
)

// memWord resolves a word to a memory path when it names a file under
// /m/ (the memory dir of these tests).
func memWord(w string) (string, bool) {
	w = strings.Trim(w, `'"`)
	return w, strings.HasPrefix(w, "/m/")
}

func TestShellWritesAfterAnd(t *testing.T) {
	for cmd, want := range map[string][]string{
		"cd /w && rm /m/a.md":                   {"/m/a.md"},
		"mkdir -p /m/x && mv /m/a.md /m/x/a.md": {"/m/a.md", "/m/x/a.md"},
		"true || cp /m/a.md /m/b.md":            {"/m/a.md", "/m/b.md"},
		"cd /w && cat /m/a.md":                  nil,
		"git rm -q /m/a.md":                     {"/m/a.md"},
		"git log /m/a.md":                       nil,
		// Into a directory: the destination is <dir>/<name>.
		"mv /m/a.md /m/topics/":              {"/m/a.md", "/m/topics/a.md"},
		"mv /m/a.md /m/b.md /m/topics":       {"/m/a.md", "/m/b.md", "/m/topics/a.md", "/m/topics/b.md"},
		"mv -t /m/x /m/a.md":                 {"/m/a.md", "/m/x/a.md"},
		"mv --target-directory=/m/x /m/a.md": {"/m/a.md", "/m/x/a.md"},
		"cp /m/a.md /m/arch":                 {"/m/a.md", "/m/arch/a.md"},
		"git mv /m/a.md /m/t/":               {"/m/a.md", "/m/t/a.md"},
		"mv /m/a.md /m/notes.txt":            {"/m/a.md"},
		"mv /m/a.md /tmp/":                   {"/m/a.md"},
		"cat /m/a.md /m/t/":                  nil,
	} {
		if got := shellWrites(cmd, memWord); !reflect.DeepEqual(got, want) {
			t.Errorf("shellWrites(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestShellDeletes(t *testing.T) {
	is := func(p string) func(string) bool { return func(w string) bool { return w == p } }
	for _, c := range []struct {
		cmd, path string
		want      bool
	}{
		{"rm /m/a.md", "/m/a.md", true},
		{"rm -f /m/a.md /m/b.md", "/m/b.md", true},
		{"cd /w && rm '/m/a.md'", "/m/a.md", true},
		{"unlink /m/a.md", "/m/a.md", true},
		{"git rm --cached /m/a.md", "/m/a.md", true},
		{"sudo rm /m/a.md", "/m/a.md", true},
		{"mv /m/a.md /m/x/a.md", "/m/a.md", true},
		{"mv /m/a.md /m/x/a.md", "/m/x/a.md", false},
		{"mv -t /m/x /m/a.md", "/m/a.md", true},
		{"git mv /m/a.md /m/b.md", "/m/a.md", true},
		{"cp /m/a.md /m/b.md", "/m/a.md", false},
		{"echo x > /m/a.md", "/m/a.md", false},
		{"sed -i s/a/b/ /m/a.md", "/m/a.md", false},
		{"cat /m/a.md > /tmp/rm.md", "/m/a.md", false},
		{"rm /m/b.md", "/m/a.md", false},
		{"python3 - <<'EOF'\nimport os; os.remove('/m/a.md')\nEOF", "/m/a.md", false},
		{"echo rm /m/a.md", "/m/a.md", false},
	} {
		if got := ShellDeletes(c.cmd, is(c.path)); got != c.want {
			t.Errorf("ShellDeletes(%q) for %s = %v, want %v", c.cmd, c.path, got, c.want)
		}
	}
}

package memfs

import (
	"encoding/json"
	"errors"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

const testHookCmd = "'/home/u/go bin/memtui' snapshot || exit 1"

// decode is text's value as encoding/json reads it.
func decode(t *testing.T, text string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(text, bom)), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	return v
}

// topKeys are the top-level keys of text in their order.
func topKeys(t *testing.T, text string) []string {
	t.Helper()
	top, err := parseJSON(strings.TrimPrefix(text, bom))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range top.members {
		keys = append(keys, m.key)
	}
	return keys
}

// onlyInserts fails t unless after is before with text inserted and
// nothing of before removed or changed.
func onlyInserts(t *testing.T, before, after string) {
	t.Helper()
	dmp := diffmatchpatch.New()
	for _, d := range dmp.DiffMain(before, after, false) {
		if d.Type == diffmatchpatch.DiffDelete {
			t.Errorf("the edit removed or changed %q of the original", d.Text)
		}
	}
}

// memtuiHandlers are the commands of the handlers on each event.
func handlersOf(t *testing.T, text string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	hooks, _ := decode(t, text)["hooks"].(map[string]any)
	for ev, list := range hooks {
		groups, _ := list.([]any)
		for _, g := range groups {
			hs, _ := g.(map[string]any)["hooks"].([]any)
			for _, h := range hs {
				if c, ok := h.(map[string]any)["command"].(string); ok {
					out[ev] = append(out[ev], c)
				}
			}
		}
	}
	return out
}

func TestHookInstallIntoNothing(t *testing.T) {
	for _, before := range []string{"", "  \n", "{}", "{}\n"} {
		e, err := PlanHookInstall(before, testHookCmd)
		if err != nil {
			t.Fatalf("%q: %v", before, err)
		}
		if !slices.Equal(e.Added, HookEvents) || !e.Changed() {
			t.Errorf("%q: added %v, want %v", before, e.Added, HookEvents)
		}
		got := handlersOf(t, e.After)
		for _, ev := range HookEvents {
			if !slices.Equal(got[ev], []string{testHookCmd}) {
				t.Errorf("%q: %s runs %q, want memtui's hook alone", before, ev, got[ev])
			}
		}
		var group struct {
			Hooks map[string][]struct {
				Matcher *string `json:"matcher"`
				Hooks   []struct {
					Type, Command string
					Timeout       int
				}
			}
		}
		json.Unmarshal([]byte(e.After), &group)
		if h := group.Hooks["Stop"][0]; h.Matcher != nil || h.Hooks[0].Type != "command" || h.Hooks[0].Timeout != HookTimeout {
			t.Errorf("%q: the Stop group is %+v, want no matcher, a command handler with timeout %d", before, h, HookTimeout)
		}
		// A blank file becomes a whole one, with its final newline; {}
		// keeps what followed it.
		empty := "{}\n"
		if before == "{}" {
			empty = "{}"
		}
		if !strings.HasPrefix(e.After, "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {\n        \"hooks\": [\n") || !strings.HasSuffix(e.After, "}"+strings.TrimPrefix(empty, "{}")) {
			t.Errorf("%q: not laid out as Claude Code writes settings (two spaces):\n%s", before, e.After)
		}
		u, err := PlanHookUninstall(e.After)
		if err != nil || u.After != empty {
			t.Errorf("%q: uninstall gave %q, %v; want %q", before, u.After, err, empty)
		}
	}
}

// A settings file with other settings and hooks, laid out its own way.
const busySettings = "{\n" +
	"    \"model\": \"opus\",\n" +
	"    \"permissions\": {\"allow\": [\"Bash(go test:*)\"], \"deny\": []},\n" +
	"    \"hooks\": {\n" +
	"        \"PreToolUse\": [\n" +
	"            {\n" +
	"                \"matcher\": \"Bash\",\n" +
	"                \"hooks\": [ {\"type\": \"command\", \"command\": \"echo \\u00e9 \\\"$X\\\"\"} ]\n" +
	"            }\n" +
	"        ],\n" +
	"        \"Stop\": [\n" +
	"            {\"hooks\": [{\"type\": \"command\", \"command\": \"notify-send done\", \"timeout\": 5}]}\n" +
	"        ]\n" +
	"    },\n" +
	"    \"cleanupPeriodDays\": 1e2,\n" +
	"    \"unknownField\": [null, true, {\"z\": 1, \"a\": 2}],\n" +
	"    \"env\": {}\n" +
	"}\n"

// TestHookInstallKeepsEverythingElse: the install only inserts (nothing of
// the file is removed or changed), keeps the keys in their order, adds
// after the other Stop hook rather than over it, and the uninstall gives
// back the original bytes.
func TestHookInstallKeepsEverythingElse(t *testing.T) {
	e, err := PlanHookInstall(busySettings, testHookCmd)
	if err != nil {
		t.Fatal(err)
	}
	onlyInserts(t, busySettings, e.After)
	if got, want := topKeys(t, e.After), topKeys(t, busySettings); !slices.Equal(got, want) {
		t.Errorf("top-level keys %v, want %v (the order kept)", got, want)
	}
	h := handlersOf(t, e.After)
	if !slices.Equal(h["Stop"], []string{"notify-send done", testHookCmd}) || !slices.Equal(h["PreToolUse"], []string{`echo é "$X"`}) {
		t.Errorf("hooks after the install: %q", h)
	}
	// The new members follow the file's four-space layout.
	if !strings.Contains(e.After, "\n        \"SessionStart\": [\n            {\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",") {
		t.Errorf("the added hooks do not follow the file's indentation:\n%s", e.After)
	}
	if !strings.Contains(e.After, "\"timeout\": 5}]},\n            {\n                \"hooks\"") {
		t.Errorf("the Stop group is not added after the other one in the list's layout:\n%s", e.After)
	}
	u, err := PlanHookUninstall(e.After)
	if err != nil {
		t.Fatal(err)
	}
	if u.After != busySettings {
		t.Errorf("uninstall did not give back the original:\n%s\nwant:\n%s", u.After, busySettings)
	}
	if len(u.Removed) != 3 {
		t.Errorf("removed %v, want the 3 hooks", u.Removed)
	}
}

// TestHookInstallAddsHooksObjectAndUninstallRemovesIt: memtui adds the
// "hooks" object itself, and takes it out again byte for byte.
func TestHookInstallAddsHooksObjectAndUninstallRemovesIt(t *testing.T) {
	for _, before := range []string{
		"{\n  \"model\": \"opus\",\n  \"env\": {\"A\": \"1\"}\n}\n",
		"{\n\t\"model\": \"opus\"\n}",
		"{\"model\":\"opus\",\"env\":{}}",
		"{\r\n  \"model\": \"opus\"\r\n}\r\n",
		bom + "{\n  \"model\": \"opus\"\n}\n",
	} {
		e, err := PlanHookInstall(before, testHookCmd)
		if err != nil {
			t.Fatalf("%q: %v", before, err)
		}
		onlyInserts(t, before, e.After)
		if got := topKeys(t, e.After); got[len(got)-1] != "hooks" {
			t.Errorf("%q: keys %v, want hooks added last", before, got)
		}
		switch {
		case strings.HasPrefix(before, "{\"model\""):
			if strings.Contains(e.After, "\n") {
				t.Errorf("%q: a file on one line got lines:\n%s", before, e.After)
			}
		case strings.Contains(before, "\r\n"):
			if strings.Count(e.After, "\n") != strings.Count(e.After, "\r\n") {
				t.Errorf("%q: a CRLF file got bare LFs:\n%q", before, e.After)
			}
		case strings.Contains(before, "\t"):
			if !strings.Contains(e.After, "\n\t\"hooks\": {\n\t\t\"SessionStart\"") {
				t.Errorf("%q: a tab-indented file got other indentation:\n%s", before, e.After)
			}
		case strings.HasPrefix(before, bom):
			if !strings.HasPrefix(e.After, bom+"{") {
				t.Errorf("%q: the byte order mark was not kept", before)
			}
		}
		u, err := PlanHookUninstall(e.After)
		if err != nil || u.After != before {
			t.Errorf("uninstall gave %q, %v; want the original %q", u.After, err, before)
		}
	}
}

func TestHookInstallIsIdempotent(t *testing.T) {
	e1, err := PlanHookInstall(busySettings, testHookCmd)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := PlanHookInstall(e1.After, testHookCmd)
	if err != nil {
		t.Fatal(err)
	}
	if e2.Changed() || e2.After != e1.After || len(e2.Added) > 0 || len(e2.Replaced) > 0 {
		t.Errorf("a second install changed the file: added %v, replaced %v", e2.Added, e2.Replaced)
	}
	if !slices.Equal(e2.Present, HookEvents) {
		t.Errorf("present %v, want %v", e2.Present, HookEvents)
	}
}

// TestHookInstallReplacesAnotherPath: a memtui hook of another path (an
// old install, a bare `memtui snapshot` on the PATH) is pointed at the new
// binary in place, and the events without one get it, with no duplicate.
func TestHookInstallReplacesAnotherPath(t *testing.T) {
	old, err := PlanHookInstall(busySettings, "/old/bin/memtui snapshot || exit 1")
	if err != nil {
		t.Fatal(err)
	}
	e, err := PlanHookInstall(old.After, testHookCmd)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Replaced) != 3 || len(e.Added) != 0 || e.Replaced[0].Command != "/old/bin/memtui snapshot || exit 1" {
		t.Errorf("replaced %v, added %v; want the 3 old hooks replaced, nothing added", e.Replaced, e.Added)
	}
	want, _ := PlanHookInstall(busySettings, testHookCmd)
	if e.After != want.After {
		t.Errorf("replacing the path gave another file than a fresh install:\n%s\nwant:\n%s", e.After, want.After)
	}

	bare := strings.Replace(busySettings, `"notify-send done", "timeout": 5`, `"memtui snapshot"`, 1)
	e, err = PlanHookInstall(bare, testHookCmd)
	if err != nil {
		t.Fatal(err)
	}
	h := handlersOf(t, e.After)
	if !slices.Equal(h["Stop"], []string{testHookCmd}) || !slices.Equal(e.Added, []string{"SessionStart", "SessionEnd"}) {
		t.Errorf("a bare memtui snapshot on Stop: Stop runs %q, added %v", h["Stop"], e.Added)
	}
	if !strings.Contains(e.After, `{"type": "command", "command": "'/home/u/go bin/memtui' snapshot || exit 1"}`) {
		t.Errorf("the command was not replaced in place:\n%s", e.After)
	}
}

// TestHookUninstallKeepsOthers: only memtui's handlers go; a group keeps
// its other handlers, and one holding more than a matcher stays.
func TestHookUninstallKeepsOthers(t *testing.T) {
	before := `{"hooks": {` +
		`"Stop": [{"hooks": [{"type": "command", "command": "say hi"}, {"type": "command", "command": "/x/memtui snapshot"}]}],` +
		`"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "memtui snapshot || exit 1"}]}, {"hooks": [{"type": "command", "command": "other"}]}],` +
		`"SessionEnd": [{"hooks": [{"type": "command", "command": "memtui snapshot"}], "description": "mine"}],` +
		`"PreCompact": [{"hooks": [{"type": "command", "command": "memtui snapshot --quiet"}, {"type": "command", "command": "echo memtui snapshot"}]}]` +
		`}, "model": "x"}`
	u, err := PlanHookUninstall(before)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"hooks": {` +
		`"Stop": [{"hooks": [{"type": "command", "command": "say hi"}]}],` +
		`"SessionStart": [{"hooks": [{"type": "command", "command": "other"}]}],` +
		`"SessionEnd": [{"hooks": [], "description": "mine"}],` +
		`"PreCompact": [{"hooks": [{"type": "command", "command": "memtui snapshot --quiet"}, {"type": "command", "command": "echo memtui snapshot"}]}]` +
		`}, "model": "x"}`
	if u.After != want {
		t.Errorf("uninstall gave\n%s\nwant\n%s", u.After, want)
	}
	if len(u.Removed) != 3 {
		t.Errorf("removed %v, want 3", u.Removed)
	}
	if u, _ := PlanHookUninstall(want); u.Changed() {
		t.Errorf("a file without memtui's hook was changed:\n%s", u.After)
	}
}

func TestHookRefusesWhatIsNotSettings(t *testing.T) {
	for _, c := range []struct {
		text string
		line int
		json bool
	}{
		{"{\n  \"model\": \"x\",\n}\n", 3, true},
		{"{\n  // a comment\n  \"model\": \"x\"\n}\n", 2, true},
		{"{\n  \"model\": \"x\"\n}\n{}", 4, true},
		{"[\n  1\n]\n", 1, false},
		{"{\n  \"hooks\": []\n}\n", 2, false},
		{"{\n  \"hooks\": {\n    \"Stop\": {\"hooks\": []}\n  }\n}\n", 3, false},
	} {
		for name, plan := range map[string]func(string) (HookEdit, error){
			"install":   func(s string) (HookEdit, error) { return PlanHookInstall(s, testHookCmd) },
			"uninstall": PlanHookUninstall,
		} {
			_, err := plan(c.text)
			var se *JSONSyntaxError
			var sh *SettingsShapeError
			switch {
			case c.json && errors.As(err, &se):
				if se.Line != c.line {
					t.Errorf("%s %q: line %d, want %d", name, c.text, se.Line, c.line)
				}
			case !c.json && errors.As(err, &sh):
				if sh.Line != c.line {
					t.Errorf("%s %q: line %d, want %d", name, c.text, sh.Line, c.line)
				}
			case c.json && name == "uninstall" && err == nil && c.line == 0:
			default:
				t.Errorf("%s %q: error %v, want a refusal", name, c.text, err)
			}
		}
	}
	// Another event's odd value is not memtui's business.
	if _, err := PlanHookInstall(`{"hooks": {"PreToolUse": "x"}}`, testHookCmd); err != nil {
		t.Errorf("an odd PreToolUse refused the install: %v", err)
	}
}

// TestHookDuplicateKeysFollowJSONParse: a key given twice is the last one
// to Claude Code, so it is the one edited.
func TestHookDuplicateKeysFollowJSONParse(t *testing.T) {
	before := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/x/memtui snapshot"}]}]}, "hooks": {}}`
	e, err := PlanHookInstall(before, testHookCmd)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Replaced) != 0 || !slices.Equal(e.Added, HookEvents) || !strings.HasPrefix(e.After, before[:40]) {
		t.Errorf("replaced %v, added %v:\n%s", e.Replaced, e.Added, e.After)
	}
	// The same within "hooks": a Stop given twice is the second.
	before = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/x/memtui snapshot"}]}], "Stop": []}}`
	e, err = PlanHookInstall(before, testHookCmd)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Added, HookEvents) || len(e.Replaced) != 0 || !strings.Contains(e.After, `"Stop": [{"hooks":[{"type":"command","command":`) {
		t.Errorf("replaced %v, added %v:\n%s", e.Replaced, e.Added, e.After)
	}
}

func TestIsMemtuiHook(t *testing.T) {
	for cmd, want := range map[string]bool{
		"/usr/local/bin/memtui snapshot":              true,
		"memtui snapshot":                             true,
		"  memtui   snapshot  ":                       true,
		"'/a b/it''s/memtui' snapshot || exit 1":      true,
		`"/a b/memtui" snapshot`:                      true,
		`/a\ b/memtui snapshot`:                       true,
		`"C:\Users\me\go\bin\memtui.exe" snapshot`:    true,
		"$HOME/go/bin/memtui snapshot":                true,
		"memtui snapshot; rm -rf ~":                   false,
		"memtui snapshot && curl evil":                false,
		"memtui snapshot --quiet":                     false,
		"memtui lint":                                 false,
		"memtui-dev snapshot":                         false,
		"/x/notmemtui snapshot":                       false,
		"echo memtui snapshot":                        false,
		"$(which memtui) snapshot":                    false,
		"`which memtui` snapshot":                     false,
		"'/x/memtui snapshot":                         false,
		"memtui snapshot || exit 2":                   false,
		"/x/memtui snapshot > /tmp/log":               false,
		"/x/memtui \"snapshot\"":                      true,
		"/x/memtui snapshot\n/x/memtui snapshot":      false,
		`"/x/$(id)/memtui" snapshot`:                  false,
		"/opt/\x1b]0;t\a\nFORGED/memtui' snapshot":    false,
		"'/opt/\x1b]0;t\a\nFORGED/memtui' snapshot":   true,
		"/usr/local/bin/memtui snapshot || exit 1":    true,
		"/usr/local/bin/memtui snapshot  ||  exit 1 ": false,
	} {
		if got := IsMemtuiHook(cmd); got != want {
			t.Errorf("IsMemtuiHook(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestShellQuote: a path quoted for the hook is read back as the same one
// word, by memtui's recognition and by a real shell.
func TestShellQuote(t *testing.T) {
	paths := []string{"/usr/local/bin/memtui", "/home/u/go bin/memtui", "/it's/memtui", `/a"b/memtui`, "/$HOME/`x`/memtui", "/t\ta/b\nc/memtui", "/~/memtui", "/x;y|z&/memtui", `C:\Users\me\memtui.exe`}
	sh, shErr := exec.LookPath("sh")
	for _, p := range paths {
		if words, ok := shellWords(ShellQuote(p)); !ok || !reflect.DeepEqual(words, []string{p}) {
			t.Errorf("ShellQuote(%q) = %s reads back as %q", p, ShellQuote(p), words)
		}
		if !IsMemtuiHook(HookCommand(p)) {
			t.Errorf("HookCommand(%q) = %s is not recognised as memtui's", p, HookCommand(p))
		}
		if shErr != nil {
			continue
		}
		out, err := exec.Command(sh, "-c", "printf '%s' "+ShellQuote(p)).Output()
		if err != nil || string(out) != p {
			t.Errorf("sh reads %s as %q (%v), want %q", ShellQuote(p), out, err, p)
		}
	}
	if got := ShellQuote("/usr/local/bin/memtui"); got != "/usr/local/bin/memtui" {
		t.Errorf("a plain path was quoted: %s", got)
	}
}

// subsequence reports whether every byte of a appears in b in order: b is
// a with text inserted.
func subsequence(a, b string) bool {
	i := 0
	for j := 0; i < len(a) && j < len(b); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

// FuzzHookEdit: on any settings text an install accepts, the result is
// JSON whose every hook event runs memtui's hook, a second install changes
// nothing, an uninstall leaves no memtui hook; on a text without one, and
// with no empty list or object on the install's way, the install only
// inserts and the uninstall gives the text back.
func FuzzHookEdit(f *testing.F) {
	for _, s := range []string{
		"", "{}", "{}\n", busySettings, "{\"a\":[1,2,{\"b\":null}]}\r\n",
		`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "memtui snapshot"}]}]}}`,
		`{"hooks": {}, "x": 1}`, `{"hooks": {"Stop": []}}`, "\uFEFF{\n\t\"a\": \"\\u00e9\"\n}\n",
		`{"hooks": {"Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "/x/memtui snapshot || exit 1"}, {"type": "command", "command": "y"}]}], "Stop": [1]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		e, err := PlanHookInstall(text, testHookCmd)
		if err != nil {
			return
		}
		body := strings.TrimPrefix(e.After, bom)
		if !json.Valid([]byte(body)) {
			t.Fatalf("the install gave no JSON:\n%q", e.After)
		}
		top, _ := parseTop(body)
		found, err := findHooks(body, top)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range HookEvents {
			if !slices.ContainsFunc(found, func(f foundHook) bool { return f.event == ev && f.cmd.str == testHookCmd }) {
				t.Fatalf("%s does not run memtui's hook after the install:\n%q", ev, e.After)
			}
		}
		if again, err := PlanHookInstall(e.After, testHookCmd); err != nil || again.Changed() {
			t.Fatalf("a second install changed the file (%v):\n%q\n%q", err, e.After, again.After)
		}
		u, err := PlanHookUninstall(e.After)
		if err != nil {
			t.Fatal(err)
		}
		if again, err := PlanHookUninstall(u.After); err != nil || again.Changed() || !json.Valid([]byte(strings.TrimPrefix(u.After, bom))) {
			t.Fatalf("the uninstall left a memtui hook or no JSON (%v):\n%q", err, u.After)
		}
		if strings.TrimSpace(strings.TrimPrefix(text, bom)) == "" {
			return
		}
		if u0, _ := PlanHookUninstall(text); u0.Changed() {
			return // the text had a memtui hook: the install replaced it
		}
		// An empty container on the install's way (the top-level object,
		// "hooks", an event's list) is opened onto lines of its own, the
		// blanks it held replaced, and closed back empty: {} or [].
		t0, _ := parseTop(strings.TrimPrefix(text, bom))
		clean := len(t0.members) > 0 || t0.end-t0.start == 2
		if hooks := t0.get("hooks"); hooks != nil {
			clean = clean && len(hooks.members) > 0
			for _, ev := range HookEvents {
				if l := hooks.get(ev); l != nil && len(l.elems) == 0 {
					clean = false
				}
			}
		}
		if clean && !subsequence(text, e.After) {
			t.Fatalf("the install changed the text, not only inserted:\n%q\n%q", text, e.After)
		}
		if clean && u.After != text {
			t.Fatalf("uninstall did not give back the text:\n%q\n%q", text, u.After)
		}
	})
}

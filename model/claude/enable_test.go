package claude

import (
	"strings"
	"testing"
)

// TestAutoMemory runs facts §1.2's rows in order: the first that matches
// decides, a falsy CLAUDE_CODE_DISABLE_AUTO_MEMORY forces memory on over
// the rows after it, and the setting decides only when no variable does.
func TestAutoMemory(t *testing.T) {
	off := &BoolSetting{Value: false, Where: "user settings (s.json)"}
	on := &BoolSetting{Value: true, Where: "policy settings (p.json)"}
	for _, c := range []struct {
		name    string
		env     map[string]string
		setting *BoolSetting
		want    bool
		by      string
	}{
		{"default", nil, nil, true, "the default"},
		{"safe mode", map[string]string{EnvSafeMode: "1", EnvDisable: "0"}, nil, false, EnvSafeMode},
		{"disabled", map[string]string{EnvDisable: " TRUE "}, on, false, EnvDisable},
		{"forced on over simple and the setting", map[string]string{EnvDisable: "off", EnvSimple: "1"}, off, true, "forces it on"},
		{"neither truthy nor falsy is unset", map[string]string{EnvDisable: "maybe"}, off, false, "autoMemoryEnabled: false"},
		{"simple", map[string]string{EnvSimple: "yes"}, on, false, EnvSimple},
		{"remote", map[string]string{EnvRemote: "1"}, nil, false, EnvRemote},
		{"remote with a memory dir", map[string]string{EnvRemote: "1", EnvRemoteMemory: "/r"}, nil, true, "the default"},
		{"remote with the cowork override", map[string]string{EnvRemote: "1", EnvCoworkOverride: "/c"}, nil, true, "the default"},
		{"setting off", nil, off, false, "autoMemoryEnabled: false in user settings"},
		{"setting on", nil, on, true, "autoMemoryEnabled: true in policy settings"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := AutoMemory(func(k string) string { return c.env[k] }, c.setting)
			if s.On != c.want || !strings.Contains(s.By, c.by) {
				t.Errorf("AutoMemory = %v by %q, want %v by %q", s.On, s.By, c.want, c.by)
			}
		})
	}
}

// TestAutoDream: autoDream needs auto memory and a local session; its
// setting turns it off or on, and without one the server decides.
func TestAutoDream(t *testing.T) {
	none := func(string) string { return "" }
	memOn, memOff := Switch{On: true, By: "the default"}, Switch{On: false, By: "X=1"}
	if s := AutoDream(none, memOff, &BoolSetting{Value: true, Where: "u"}); s.On || !strings.Contains(s.By, "auto memory is off (X=1)") {
		t.Errorf("memory off: %+v", s)
	}
	if s := AutoDream(func(k string) string { return map[string]string{EnvRemote: "1"}[k] }, memOn, nil); s.On {
		t.Errorf("remote: %+v", s)
	}
	if s := AutoDream(none, memOn, &BoolSetting{Value: false, Where: "u"}); s.On || !strings.Contains(s.By, "autoDreamEnabled: false in u") {
		t.Errorf("setting off: %+v", s)
	}
	if s := AutoDream(none, memOn, nil); !s.On || !strings.Contains(s.By, "server's default") || len(s.Caveats) == 0 {
		t.Errorf("no setting: %+v", s)
	}
}

func TestTruthyFalsy(t *testing.T) {
	for v, want := range map[string][2]bool{"1": {true, false}, " On ": {true, false}, "YES": {true, false}, "0": {false, true}, "off": {false, true}, "": {false, false}, "2": {false, false}} {
		if Truthy(v) != want[0] || Falsy(v) != want[1] {
			t.Errorf("%q: truthy %v falsy %v, want %v", v, Truthy(v), Falsy(v), want)
		}
	}
}

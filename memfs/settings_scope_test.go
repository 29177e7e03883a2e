package memfs

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

// TestDiscoverScopePrecedence writes autoMemoryDirectory into the env
// override and the policy, local, project and user settings of one project
// and checks what memtui says Claude Code does (facts §1.1): the first
// scope that defines the key wins, even with ""; only its value is
// validated, and a rejected one means the default directory, not the next
// scope. memtui reads local and project settings as a trusted workspace
// would (it cannot see trust) and says so. A nil field leaves the scope
// undefined; every valid value is listed as a directory either way.
func TestDiscoverScopePrecedence(t *testing.T) {
	type problem struct {
		scope string   // whose file the problem is on: env, policy, local, project, user
		want  []string // fragments of its Detail ("DEFAULT" = the project's default dir, "GLOBAL" = the <project> one)
	}
	str := func(s string) *string { return &s }
	cases := []struct {
		name                         string
		env                          string
		policy, local, project, user *string
		problems                     []problem
	}{
		{name: "nothing set"},
		{name: "user valid", user: str("~/notes/memory")},
		{name: "user empty alone means the default, said nowhere", user: str("")},
		{name: "user invalid: default for every project", user: str("notes/memory"),
			problems: []problem{{"user", []string{"Claude Code rejects", reasonRelative, "uses the default directory GLOBAL for every project whose own local or project settings do not set it"}}}},
		{name: "policy invalid: default, user not tried", policy: str("~/../shared"), user: str("~/notes/memory"),
			problems: []problem{{"policy", []string{"Claude Code rejects autoMemoryDirectory \"~/../shared\" in policy settings", reasonTildeHome, "uses the default directory GLOBAL for every project", "it does not go on to user settings ("}}}},
		{name: "policy empty hides user", policy: str(""), user: str("~/notes/memory"),
			problems: []problem{{"policy", []string{"rejects autoMemoryDirectory \"\" in policy settings", "an empty value still counts as set", "does not go on to user settings ("}}}},
		{name: "policy empty hides local", policy: str(""), local: str("/srv/mem"),
			problems: []problem{{"policy", []string{"rejects autoMemoryDirectory \"\" in policy settings", "does not go on to the local or project settings of 1 project"}}}},
		{name: "policy empty shadows invalid local: the default decides", policy: str(""), local: str("rel"),
			problems: []problem{
				{"policy", []string{"rejects autoMemoryDirectory \"\" in policy settings", "does not go on to the local or project settings of 1 project"}},
				{"local", []string{"would reject", reasonRelative, "as policy settings (", "decides the memory directory first"}},
			}},
		{name: "policy valid shadows invalid user", policy: str("/srv/policy-mem"), user: str("~"),
			problems: []problem{{"user", []string{"Claude Code would reject autoMemoryDirectory \"~\" in user settings", reasonBareTilde, "does not use it now, as policy settings (", "decides the memory directory first"}}}},
		{name: "policy valid shadows invalid local", policy: str("/srv/policy-mem"), local: str("/net/nas/memory"),
			problems: []problem{{"local", []string{"would reject", reasonAutomount, "as policy settings ("}}}},
		{name: "local invalid: default, project and user not tried", local: str("/.vol/1/2"), project: str("/srv/project-mem"), user: str("~/notes/memory"),
			problems: []problem{{"local", []string{"In a trusted workspace, Claude Code rejects autoMemoryDirectory \"/.vol/1/2\" in local settings", reasonMacSpecial, "uses the default directory DEFAULT", "it does not go on to project settings (", "), user settings ("}}}},
		{name: "local empty hides project", local: str(""), project: str("/srv/project-mem"),
			problems: []problem{{"local", []string{"In a trusted workspace, Claude Code rejects autoMemoryDirectory \"\" in local settings", "uses the default directory DEFAULT", "does not go on to project settings ("}}}},
		{name: "local valid shadows invalid project", local: str("/srv/local-mem"), project: str("\\??\\C:\\mem"),
			problems: []problem{{"project", []string{"would reject", reasonNT, "as local settings ("}}}},
		{name: "project invalid: default, user not tried", project: str("/n"), user: str("~/notes/memory"),
			problems: []problem{{"project", []string{"In a trusted workspace, Claude Code rejects", reasonRoot, "uses the default directory DEFAULT", "does not go on to user settings ("}}}},
		{name: "project above user: invalid user shadowed by project", project: str("/srv/project-mem"), user: str("relative"),
			// The user value is judged for every project at once: for this
			// one the project's value wins, for the others it is rejected.
			problems: []problem{{"user", []string{"Claude Code rejects", reasonRelative, "for every project whose own local or project settings do not set it"}}}},
		{name: "env valid shadows every settings scope", env: "/srv/cowork", policy: str("relative"), local: str(""), user: str("~"),
			problems: []problem{
				{"policy", []string{"would reject", "as " + envMemoryOverride + " decides the memory directory first"}},
				{"user", []string{"would reject", "as " + envMemoryOverride + " decides"}},
			}},
		{name: "env invalid goes on to settings", env: "~/cowork", user: str("~/notes/memory"),
			problems: []problem{{"env", []string{"Claude Code rejects " + envMemoryOverride, reasonEnvTilde, "goes on to autoMemoryDirectory in settings, else the default directory GLOBAL"}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			root, _ := w.project("acme", true)
			o := w.opts()
			files := map[string]string{
				"policy":  o.ManagedSettings,
				"local":   filepath.Join(root, ".claude", "settings.local.json"),
				"project": filepath.Join(root, ".claude", "settings.json"),
				"user":    filepath.Join(w.config, "settings.json"),
			}
			for sc, v := range map[string]*string{"policy": c.policy, "local": c.local, "project": c.project, "user": c.user} {
				if v != nil {
					b, _ := json.Marshal(map[string]string{"autoMemoryDirectory": *v})
					testfs.Write(t, files[sc], string(b))
				}
			}
			files["env"] = envMemoryOverride
			if c.env != "" {
				w.envs[envMemoryOverride] = c.env
			}
			s, err := Discover(t.Context(), o)
			if err != nil {
				t.Fatal(err)
			}
			def := filepath.Join(w.config, "projects", slugOf(root), "memory") + string(filepath.Separator)
			global := filepath.Join(w.config, "projects", "<project>", "memory") + string(filepath.Separator)
			if len(s.Config) != len(c.problems) {
				t.Errorf("%d problems, want %d: %+v", len(s.Config), len(c.problems), s.Config)
			}
			for _, want := range c.problems {
				var got *model.ConfigProblem
				for i := range s.Config {
					if s.Config[i].Source == files[want.scope] {
						got = &s.Config[i]
					}
				}
				if got == nil {
					t.Errorf("no problem on the %s scope (%s): %+v", want.scope, files[want.scope], s.Config)
					continue
				}
				if got.Kind != model.OverrideInvalid {
					t.Errorf("%s: kind %v", want.scope, got.Kind)
				}
				for _, frag := range want.want {
					frag = strings.ReplaceAll(strings.ReplaceAll(frag, "DEFAULT", def), "GLOBAL", global)
					if !strings.Contains(got.Detail, frag) {
						t.Errorf("%s: Detail %q lacks %q", want.scope, got.Detail, frag)
					}
				}
				if strings.Contains(got.Detail, "falls back to autoMemoryDirectory") {
					t.Errorf("%s: Detail says the next scope is tried: %q", want.scope, got.Detail)
				}
			}
			// Every valid value is listed, shadowed or not.
			for sc, v := range map[string]*string{"policy": c.policy, "local": c.local, "project": c.project, "user": c.user} {
				if v == nil {
					continue
				}
				dir, reason := validateMemoryPath(*v, true, w.home, nativeFlavor())
				if reason != "" || dir == "" {
					continue
				}
				if !scanHasDir(s, dir) {
					t.Errorf("the valid %s value %s is not listed", sc, dir)
				}
			}
		})
	}
}

func scanHasDir(s *model.Scan, dir string) bool {
	for _, p := range s.Projects {
		for _, d := range p.Dirs {
			if d.Path == filepath.Clean(dir) {
				return true
			}
		}
	}
	return false
}

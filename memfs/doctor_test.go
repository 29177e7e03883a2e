package memfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChooseDir: facts §1.1's rules for sessions launched in one folder:
// a valid env override wins over every setting (each listed as not
// reached), an invalid one is ignored with why; the first settings scope
// that defines autoMemoryDirectory decides (policy before local, project
// and user) even when Claude Code rejects its value (then the default);
// the default's name comes from the remote memory dir and
// CLAUDE_CODE_PROJECT_DIR_NAME only as the facts say.
func TestChooseDir(t *testing.T) {
	tmp := t.TempDir()
	cfg := filepath.Join(tmp, "cfg")
	cwd := filepath.Join(tmp, "src", "app")
	for _, d := range []string{cfg, filepath.Join(cwd, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	policy := filepath.Join(tmp, "managed-settings.json")
	user := filepath.Join(cfg, "settings.json")
	local := filepath.Join(cwd, ".claude", "settings.local.json")
	key := sanitizePath(cwd)
	def := filepath.Join(cfg, "projects", key, MemoryDirName)
	opts := func(kv ...string) Options {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return Options{Getenv: func(k string) string { return m[k] }, Home: tmp, ManagedSettings: policy}
	}
	ignored := func(c Choice, source, why string) bool {
		for _, ig := range c.Ignored {
			if ig.Source == source && strings.Contains(ig.Why, why) {
				return true
			}
		}
		return false
	}

	c := ChooseDir(opts(), cfg, cwd, key)
	if c.Dir != def || !strings.Contains(c.By, "default") {
		t.Errorf("nothing set: %s by %q, want %s by the default", c.Dir, c.By, def)
	}

	write(user, `{"autoMemoryDirectory": "~/notes"}`)
	write(local, `{"autoMemoryDirectory": "/srv/mem/"}`)
	c = ChooseDir(opts(), cfg, cwd, key)
	if c.Dir != "/srv/mem" || !strings.Contains(c.By, "local settings") || !ignored(c, user, "not reached") {
		t.Errorf("local over user: %s by %q, ignored %+v", c.Dir, c.By, c.Ignored)
	}

	write(policy, `{"autoMemoryDirectory": "relative/dir"}`)
	c = ChooseDir(opts(), cfg, cwd, key)
	if c.Dir != def || !ignored(c, policy, "rejected") || !ignored(c, local, "not reached") || !ignored(c, user, "not reached") {
		t.Errorf("a rejected policy value: %s by %q, ignored %+v; want the default and both lower scopes not reached", c.Dir, c.By, c.Ignored)
	}
	os.Remove(policy)

	c = ChooseDir(opts(envMemoryOverride, "/cowork/mem"), cfg, cwd, key)
	if c.Dir != "/cowork/mem" || c.By != envMemoryOverride || !ignored(c, local, "not reached") {
		t.Errorf("env override: %s by %q, ignored %+v", c.Dir, c.By, c.Ignored)
	}
	c = ChooseDir(opts(envMemoryOverride, "~/cowork"), cfg, cwd, key)
	if c.Dir != "/srv/mem" || !ignored(c, envMemoryOverride, "rejected") {
		t.Errorf("env override with ~ (not expanded, so relative): %s by %q, ignored %+v", c.Dir, c.By, c.Ignored)
	}
	os.Remove(local)
	os.Remove(user)

	c = ChooseDir(opts(envConfigDir, cfg, envProjectDirName, "my-proj"), cfg, cwd, key)
	if want := filepath.Join(cfg, "projects", "my-proj", MemoryDirName); c.Dir != want {
		t.Errorf("project dir name: %s, want %s", c.Dir, want)
	}
	c = ChooseDir(opts(envProjectDirName, "my-proj"), cfg, cwd, key)
	if c.Dir != def || !ignored(c, envProjectDirName, "only when CLAUDE_CONFIG_DIR") {
		t.Errorf("project dir name without CLAUDE_CONFIG_DIR: %s, ignored %+v", c.Dir, c.Ignored)
	}
	c = ChooseDir(opts(envConfigDir, cfg, envProjectDirName, "COM1"), cfg, cwd, key)
	if c.Dir != def || !ignored(c, envProjectDirName, "not a valid name") {
		t.Errorf("a device name: %s, ignored %+v", c.Dir, c.Ignored)
	}
	remote := filepath.Join(tmp, "remote")
	c = ChooseDir(opts(envConfigDir, cfg, envProjectDirName, "my-proj", envRemoteMemory, remote), cfg, cwd, key)
	if want := filepath.Join(remote, "projects", key, MemoryDirName); c.Dir != want || !ignored(c, envProjectDirName, envRemoteMemory) {
		t.Errorf("remote memory dir: %s, want %s; ignored %+v", c.Dir, want, c.Ignored)
	}

	write(user, `{"autoMemoryEnabled": false, "autoDreamEnabled": "yes"}`)
	c = ChooseDir(opts(), cfg, cwd, key)
	if c.AutoMemory.On || !strings.Contains(c.AutoMemory.By, user) || !ignored(c, user, "must be true or false") {
		t.Errorf("switches from settings: memory %+v, ignored %+v", c.AutoMemory, c.Ignored)
	}
}

// TestReadLock reads the PID as Claude Code does and changes nothing.
func TestReadLock(t *testing.T) {
	dir := t.TempDir()
	if s := ReadLock(dir); s.Present {
		t.Errorf("no lock: %+v", s)
	}
	p := filepath.Join(dir, LockFileName)
	if err := os.WriteFile(p, []byte(" 1\n1785748449552"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := ReadLock(dir); !s.Present || !s.HasPID || s.PID != 1 || PIDAlive(s.PID) {
		t.Errorf("storage-v5 body naming PID 1 (never alive for Claude Code): %+v", s)
	}
	if err := os.WriteFile(p, []byte(""), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := ReadLock(dir); !s.Present || s.HasPID {
		t.Errorf("rolled-back lock: %+v", s)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), p); err != nil {
		t.Fatal(err)
	}
	if s := ReadLock(dir); !s.Present || s.Problem == "" {
		t.Errorf("a symlinked lock is not followed, and says so: %+v", s)
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
)

// doctorOut is the part of doctor --json the tests read.
type doctorOut struct {
	Version int `json:"version"`
	Stores  []struct {
		Project    string `json:"project"`
		Dir        string `json:"dir"`
		Kind       string `json:"kind"`
		ClaudeUses *struct {
			Dir     string   `json:"dir"`
			By      string   `json:"chosen_by"`
			How     []string `json:"how"`
			Ignored []struct {
				Source string `json:"source"`
				Line   int    `json:"line"`
				Why    string `json:"why"`
			} `json:"ignored"`
		} `json:"claude_code_uses"`
		AutoMemory *struct {
			On bool   `json:"on"`
			By string `json:"decided_by"`
		} `json:"auto_memory"`
		AutoDream *struct {
			On bool   `json:"on"`
			By string `json:"decided_by"`
		} `json:"auto_dream"`
		Loaded    string `json:"loaded"`
		LoadedWhy string `json:"loaded_why"`
		Stranded  *struct {
			Kind string `json:"kind"`
			To   string `json:"to"`
		} `json:"stranded"`
		Sessions *struct {
			Total    int    `json:"total"`
			Mode     string `json:"mode"`
			Index    int    `json:"index_injected"`
			Recall   int    `json:"recall"`
			Tools    int    `json:"memory_tools"`
			None     int    `json:"no_load_recorded"`
			Versions []struct {
				Version      string `json:"version"`
				Sessions     int    `json:"sessions"`
				Relation     string `json:"relation"`
				LacksChanges bool   `json:"lacks_changes"`
			} `json:"versions"`
		} `json:"sessions"`
		Dream *struct {
			SessionsSince int  `json:"sessions_since"`
			Due           bool `json:"due"`
		} `json:"dream_gate"`
		Lock *struct {
			Present bool `json:"present"`
			PID     int  `json:"pid"`
			Alive   bool `json:"pid_alive"`
			Held    bool `json:"held"`
		} `json:"lock"`
		Team *struct {
			Enabled bool `json:"enabled"`
			Mounts  []struct {
				Mount string `json:"mount"`
			} `json:"mounts"`
		} `json:"team"`
	} `json:"stores"`
	Codex []struct {
		Enabled  bool     `json:"enabled"`
		Generate bool     `json:"generate_memories"`
		Lease    string   `json:"lease"`
		Pending  []string `json:"changed_since_baseline"`
		Baseline bool     `json:"baseline"`
	} `json:"codex"`
}

func runDoctorJSON(t *testing.T, getenv func(string) string, args ...string) doctorOut {
	t.Helper()
	code, stdout, stderr := runCLI(t, getenv, append(args, "doctor", "--json")...)
	if code != 0 {
		t.Fatalf("doctor --json: exit %d: %s", code, stderr)
	}
	var out doctorOut
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("doctor --json is not JSON: %v\n%s", err, stdout)
	}
	if out.Version != 1 {
		t.Fatalf("version = %d, want 1", out.Version)
	}
	return out
}

// doctorProject is one project of a doctor fixture: a launch folder that
// exists (so its settings and key root are read), its store, and the
// sessions of its transcripts, each a list of lines after the first.
type doctorProject struct {
	cwd, mem, tdir string
}

// newDoctorProject makes a launch folder under tmp, its store under cfg
// with one memory and an index, and returns where they are.
func newDoctorProject(t *testing.T, tmp, cfg, name string) doctorProject {
	t.Helper()
	cwd := testfs.Mkdir(t, filepath.Join(tmp, "src", name))
	tdir := filepath.Join(cfg, "projects", sanitize(cwd))
	mem := filepath.Join(tdir, "memory")
	testfs.WriteAll(t, mem, map[string]string{
		"MEMORY.md": "- [Deploy](deploy.md) — make ship\n",
		"deploy.md": "---\nname: deploy\ndescription: deploy with make ship\ntype: feedback\n---\n\nDeploy with `make ship`.\n",
	})
	return doctorProject{cwd: cwd, mem: mem, tdir: tdir}
}

// session writes a transcript of session n launched in p.cwd by Claude
// Code version, with extra lines (attachments) after its first line.
func (p doctorProject) session(t *testing.T, n int, version string, extra ...string) {
	t.Helper()
	id := fmt.Sprintf("%08x-1d7b-4c3e-9a46-0b8e2f1d7c%02d", n, n)
	cwd, _ := json.Marshal(p.cwd)
	var b strings.Builder
	fmt.Fprintf(&b, `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u%d","timestamp":"2026-11-20T09:%02d:00.000Z","cwd":%s,"sessionId":"%s","version":"%s","gitBranch":"main"}`+"\n",
		n, n, cwd, id, version)
	for i, x := range extra {
		fmt.Fprintf(&b, `{"parentUuid":"u%d","isSidechain":false,"attachment":%s,"type":"attachment","uuid":"a%d-%d","timestamp":"2026-11-20T09:%02d:30.000Z","cwd":%s,"sessionId":"%s","version":"%s","gitBranch":"main"}`+"\n",
			n, x, n, i, n, cwd, id, version)
	}
	testfs.Write(t, filepath.Join(p.tdir, id+".jsonl"), b.String())
}

// recall is a relevant_memories attachment surfacing file (transcripts §4.3).
func recall(file string) string {
	path, _ := json.Marshal(file)
	return `{"type":"relevant_memories","memories":[{"path":` + string(path) + `,"content":"Deploy with make ship.\n","mtimeMs":1785748449552.4,"header":"Memory: ` + strings.Trim(string(path), `"`) + `:"}]}`
}

// indexLoad is an instructions attachment loading index (transcripts §6.5).
func indexLoad(index string) string {
	path, _ := json.Marshal(index)
	return `{"type":"instructions","files":[{"path":` + string(path) + `,"type":"AutoMem","content":"- [Deploy](deploy.md) — make ship"}]}`
}

// doctorTmp is a fresh tree (realpath'd: transcripts hold resolved cwds)
// and a config dir in it.
func doctorTmp(t *testing.T) (tmp, cfg string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return tmp, testfs.Mkdir(t, filepath.Join(tmp, "claude"))
}

func doctorEnv(t *testing.T, kv ...string) func(string) string {
	return env(append([]string{"HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir()}, kv...)...)
}

// TestDoctorIgnoredSetting: a project's own settings.local.json names an
// absolute memory dir, so Claude Code uses it; the user settings' value is
// not reached, and a relative autoMemoryDirectory in another project's
// settings.json is rejected for the default. doctor says which dir, which
// setting chose it, and names each ignored file and line with why.
func TestDoctorIgnoredSetting(t *testing.T) {
	tmp, cfg := doctorTmp(t)
	a := newDoctorProject(t, tmp, cfg, "app")
	b := newDoctorProject(t, tmp, cfg, "web")
	a.session(t, 1, "2.1.332")
	b.session(t, 2, "2.1.332")
	elsewhere := testfs.Mkdir(t, filepath.Join(tmp, "notes", "memory"))
	testfs.Write(t, filepath.Join(a.cwd, ".claude", "settings.local.json"), `{"autoMemoryDirectory": "`+elsewhere+`"}`)
	testfs.Write(t, filepath.Join(cfg, "settings.json"), "{\n  \"autoMemoryDirectory\": \"~/user-notes\"\n}\n")
	testfs.Write(t, filepath.Join(b.cwd, ".claude", "settings.json"), "{\n\n  \"autoMemoryDirectory\": \"./mem\"\n}\n")

	out := runDoctorJSON(t, doctorEnv(t), "--config-dir", cfg)
	found := 0
	for _, s := range out.Stores {
		switch s.Dir {
		case a.mem:
			found++
			c := s.ClaudeUses
			if c == nil || c.Dir != elsewhere || !strings.Contains(c.By, "local settings") || !strings.Contains(c.By, "settings.local.json") {
				t.Fatalf("app's store: Claude Code uses %+v, want %s chosen by its local settings", c, elsewhere)
			}
			if !hasIgnored(c.Ignored, filepath.Join(cfg, "settings.json"), 2, "not reached") {
				t.Errorf("app's store: the user settings' autoMemoryDirectory is not listed as not reached: %+v", c.Ignored)
			}
			if s.Loaded != "no" || !strings.Contains(s.LoadedWhy, elsewhere) {
				t.Errorf("app's default store: loaded %q (%s), want no: its sessions use %s", s.Loaded, s.LoadedWhy, elsewhere)
			}
		case b.mem:
			found++
			c := s.ClaudeUses
			if c == nil || c.Dir != b.mem || !strings.Contains(c.By, "default") {
				t.Fatalf("web's store: Claude Code uses %+v, want its default %s", c, b.mem)
			}
			if !hasIgnored(c.Ignored, filepath.Join(b.cwd, ".claude", "settings.json"), 3, "relative") {
				t.Errorf("web's store: the rejected ./mem is not listed with its line and why: %+v", c.Ignored)
			}
			if s.Loaded != "yes" {
				t.Errorf("web's store: loaded %q (%s), want yes", s.Loaded, s.LoadedWhy)
			}
		}
	}
	if found != 2 {
		t.Fatalf("doctor listed %d of the two stores: %+v", found, out.Stores)
	}
}

func hasIgnored(ig []struct {
	Source string `json:"source"`
	Line   int    `json:"line"`
	Why    string `json:"why"`
}, source string, line int, why string) bool {
	for _, x := range ig {
		if x.Source == source && x.Line == line && strings.Contains(x.Why, why) {
			return true
		}
	}
	return false
}

// TestDoctorDisabled: auto memory off by the variable, then by
// autoMemoryEnabled in the user settings, then forced back on by the
// variable's falsy value: doctor says on or off and what decided, and a
// store nothing loads while memory is off is "loaded: no"; autoDream
// follows (off with memory, off by its own setting).
func TestDoctorDisabled(t *testing.T) {
	tmp, cfg := doctorTmp(t)
	p := newDoctorProject(t, tmp, cfg, "app")
	p.session(t, 1, "2.1.332")
	store := func(out doctorOut) (on bool, by, loaded, dream string) {
		t.Helper()
		for _, s := range out.Stores {
			if s.Dir == p.mem {
				if s.AutoMemory == nil || s.AutoDream == nil {
					t.Fatalf("no auto_memory or auto_dream for %s", p.mem)
				}
				return s.AutoMemory.On, s.AutoMemory.By, s.Loaded, fmt.Sprint(s.AutoDream.On, " ", s.AutoDream.By)
			}
		}
		t.Fatalf("no store %s", p.mem)
		return
	}
	on, by, loaded, dream := store(runDoctorJSON(t, doctorEnv(t, "CLAUDE_CODE_DISABLE_AUTO_MEMORY", "yes"), "--config-dir", cfg))
	if on || !strings.Contains(by, "CLAUDE_CODE_DISABLE_AUTO_MEMORY=yes") || loaded != "no" || !strings.HasPrefix(dream, "false") {
		t.Errorf("disabled by variable: on %v by %q, loaded %q, dream %q", on, by, loaded, dream)
	}
	testfs.Write(t, filepath.Join(cfg, "settings.json"), `{"autoMemoryEnabled": false, "autoDreamEnabled": true}`)
	on, by, _, _ = store(runDoctorJSON(t, doctorEnv(t), "--config-dir", cfg))
	if on || !strings.Contains(by, "autoMemoryEnabled: false in user settings") {
		t.Errorf("disabled by setting: on %v by %q", on, by)
	}
	on, by, loaded, _ = store(runDoctorJSON(t, doctorEnv(t, "CLAUDE_CODE_DISABLE_AUTO_MEMORY", "0"), "--config-dir", cfg))
	if !on || !strings.Contains(by, "forces it on") || loaded != "yes" {
		t.Errorf("forced on by a falsy variable: on %v by %q, loaded %q", on, by, loaded)
	}
	testfs.Write(t, filepath.Join(cfg, "settings.json"), `{"autoDreamEnabled": false}`)
	_, _, _, dream = store(runDoctorJSON(t, doctorEnv(t), "--config-dir", cfg))
	if !strings.HasPrefix(dream, "false autoDreamEnabled: false in user settings") {
		t.Errorf("autoDream off by setting: %q", dream)
	}
}

// TestDoctorSessionModes: sessions that recalled memories by scan, one
// that had MEMORY.md injected and one with no load recorded are counted
// by mode, the mode most ran in is named, and each Claude Code version is
// placed against the one memtui follows.
func TestDoctorSessionModes(t *testing.T) {
	tmp, cfg := doctorTmp(t)
	p := newDoctorProject(t, tmp, cfg, "app")
	p.session(t, 1, "2.1.200", recall(filepath.Join(p.mem, "deploy.md")))
	p.session(t, 2, "2.1.300", recall(filepath.Join(p.mem, "deploy.md")))
	p.session(t, 3, "2.1.332", indexLoad(filepath.Join(p.mem, "MEMORY.md")))
	p.session(t, 4, "2.1.400")
	out := runDoctorJSON(t, doctorEnv(t), "--config-dir", cfg)
	for _, s := range out.Stores {
		if s.Dir != p.mem {
			continue
		}
		ss := s.Sessions
		if ss == nil {
			t.Fatal("no sessions for the store")
		}
		if ss.Total != 4 || ss.Recall != 2 || ss.Index != 1 || ss.None != 1 || ss.Tools != 0 || ss.Mode != "recall by scan" {
			t.Errorf("sessions = %+v, want 4: 2 recall, 1 index, 1 none, mode recall by scan", *ss)
		}
		want := map[string]string{"2.1.200": "older true", "2.1.300": "older false", "2.1.332": "followed false", "2.1.400": "newer false"}
		if len(ss.Versions) != len(want) {
			t.Fatalf("versions = %+v", ss.Versions)
		}
		for i, v := range ss.Versions {
			if got := v.Relation + " " + strconv.FormatBool(v.LacksChanges); got != want[v.Version] || v.Sessions != 1 {
				t.Errorf("version %s: %s ×%d, want %s ×1", v.Version, got, v.Sessions, want[v.Version])
			}
			if i > 0 && ss.Versions[i-1].Version > v.Version {
				t.Errorf("versions out of order: %+v", ss.Versions)
			}
		}
		return
	}
	t.Fatalf("no store %s", p.mem)
}

// TestDoctorLock: a .consolidate-lock taken ten minutes ago by a live
// process (this test's) is held; one taken two hours ago by the same
// process is not (Claude Code's one-hour rule), nor one whose PID is gone.
// doctor reads it without changing its body or mtime.
func TestDoctorLock(t *testing.T) {
	tmp, cfg := doctorTmp(t)
	p := newDoctorProject(t, tmp, cfg, "app")
	p.session(t, 1, "2.1.332")
	lock := filepath.Join(p.mem, ".consolidate-lock")
	for _, c := range []struct {
		name        string
		pid         int
		age         time.Duration
		alive, held bool
	}{
		{"live-recent", os.Getpid(), 10 * time.Minute, true, true},
		{"live-old", os.Getpid(), 2 * time.Hour, true, false},
		{"dead-recent", deadPID(t), 10 * time.Minute, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			testfs.Write(t, lock, strconv.Itoa(c.pid))
			mtime := time.Now().Add(-c.age).Truncate(time.Second)
			testfs.Touch(t, lock, mtime)
			out := runDoctorJSON(t, doctorEnv(t), "--config-dir", cfg)
			for _, s := range out.Stores {
				if s.Dir != p.mem {
					continue
				}
				l := s.Lock
				if l == nil || !l.Present || l.PID != c.pid || l.Alive != c.alive || l.Held != c.held {
					t.Errorf("lock = %+v, want pid %d alive %v held %v", l, c.pid, c.alive, c.held)
				}
			}
			fi, err := os.Stat(lock)
			if err != nil || !fi.ModTime().Equal(mtime) {
				t.Errorf("doctor changed the lock's mtime: %v, %v", fi.ModTime(), err)
			}
			if b, _ := os.ReadFile(lock); string(b) != strconv.Itoa(c.pid) {
				t.Errorf("doctor changed the lock's body: %q", b)
			}
		})
	}
	code, stdout, stderr := runCLI(t, doctorEnv(t), "--config-dir", cfg, "doctor")
	if code != 0 || !strings.Contains(stdout, "lock         PID "+strconv.Itoa(deadPIDCache)+" is not running") {
		t.Errorf("doctor's text does not say the lock's PID is not running (exit %d):\n%s%s", code, stdout, stderr)
	}
	testfs.Write(t, lock, strconv.Itoa(os.Getpid()))
	testfs.Touch(t, lock, time.Now().Add(-5*time.Minute))
	if _, stdout, _ = runCLI(t, doctorEnv(t), "--config-dir", cfg, "doctor"); !strings.Contains(stdout, "held by live PID "+strconv.Itoa(os.Getpid())) {
		t.Errorf("doctor's text does not say the lock is held:\n%s", stdout)
	}
}

var deadPIDCache int

// deadPID is a PID no process has: a child that has exited and been
// reaped (its PID is not reused this soon on any system the tests run on).
func deadPID(t *testing.T) int {
	t.Helper()
	if deadPIDCache != 0 {
		return deadPIDCache
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pr, err := os.StartProcess(exe, []string{exe, "-test.run=^$"}, &os.ProcAttr{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Wait(); err != nil {
		t.Fatal(err)
	}
	deadPIDCache = pr.Pid
	return deadPIDCache
}

// TestDoctorStranded: a git worktree's own store and a subdirectory's
// are not loaded: doctor says so, with the strand's kind and where their
// memories belong; the main checkout's store is loaded.
func TestDoctorStranded(t *testing.T) {
	cfg, main, wt, sub := strandTree(t)
	mainMem := filepath.Join(cfg, "projects", sanitize(main), "memory")
	out := runDoctorJSON(t, doctorEnv(t), "--config-dir", cfg)
	want := map[string]string{
		filepath.Join(cfg, "projects", sanitize(wt), "memory"):  "worktree",
		filepath.Join(cfg, "projects", sanitize(sub), "memory"): "subdir",
	}
	seen := 0
	for _, s := range out.Stores {
		if kind, ok := want[s.Dir]; ok {
			seen++
			if s.Loaded != "no" || !strings.HasPrefix(s.LoadedWhy, "stranded: ") || s.Stranded == nil || s.Stranded.Kind != kind || s.Stranded.To != mainMem {
				t.Errorf("%s: loaded %q, stranded %+v; want no, %s, to %s", s.Dir, s.Loaded, s.Stranded, kind, mainMem)
			}
			if s.ClaudeUses == nil || s.ClaudeUses.Dir != mainMem {
				t.Errorf("%s: Claude Code uses %+v for its sessions, want the main checkout's %s", s.Dir, s.ClaudeUses, mainMem)
			}
		}
		if s.Dir == mainMem && (s.Loaded != "yes" || s.Stranded != nil) {
			t.Errorf("the main checkout's store: loaded %q, stranded %+v", s.Loaded, s.Stranded)
		}
	}
	if seen != 2 {
		t.Fatalf("doctor listed %d of the two stranded stores", seen)
	}
}

// TestDoctorDemo: doctor answers for each of the demo's stores and its
// Codex store, in text and JSON.
func TestDoctorDemo(t *testing.T) {
	e := doctorEnv(t)
	out := runDoctorJSON(t, e, "--demo", "--now", "2026-11-21")
	auto := 0
	for _, s := range out.Stores {
		if s.Kind != "auto" {
			continue
		}
		auto++
		if s.ClaudeUses == nil || s.AutoMemory == nil || !s.AutoMemory.On || s.Loaded == "" || s.Sessions == nil || s.Dream == nil || s.Lock == nil {
			t.Errorf("%s: doctor left out an answer: %+v", s.Dir, s)
		}
		if s.Team == nil || !s.Team.Enabled || len(s.Team.Mounts) != 1 || s.Team.Mounts[0].Mount != "platform" {
			t.Errorf("%s: the demo's team store (CLAUDE_MEMORY_STORES) is not reported: %+v", s.Dir, s.Team)
		}
	}
	if auto != 8 {
		t.Errorf("doctor reported %d of the demo's 8 auto-memory stores", auto)
	}
	if len(out.Codex) != 1 || !out.Codex[0].Enabled || !out.Codex[0].Generate || !out.Codex[0].Baseline || len(out.Codex[0].Pending) != 4 || out.Codex[0].Lease != "" {
		t.Errorf("the demo's Codex store: %+v", out.Codex)
	}
	code, stdout, stderr := runCLI(t, e, "--demo", "--now", "2026-11-21", "doctor", "acme-api")
	if code != 0 {
		t.Fatalf("doctor acme-api: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"/home/dev/acme-api\n", "claude uses", "chosen by", "auto memory  on", "loaded       yes", "versions     2.1.226 ×3", "autoDream", "lock", "codex "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("doctor acme-api lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "/home/dev/webshop") {
		t.Errorf("doctor acme-api reports another project:\n%s", stdout)
	}
}

// TestDoctorHere: asked from a subdirectory of a repository, doctor says
// which dir a session launched there uses (the repository root's, by its
// .git) and that it holds the root's memories; on a machine with no
// Claude Code memory at all it still answers, with where Claude Code will
// make the dir; a named project leaves "here" out.
func TestDoctorHere(t *testing.T) {
	tmp, cfg := doctorTmp(t)
	root := testfs.Repo(t, filepath.Join(tmp, "src", "shop"))
	sub := testfs.Mkdir(t, filepath.Join(root, "web"))
	mem := filepath.Join(cfg, "projects", sanitize(root), "memory")
	testfs.WriteAll(t, mem, map[string]string{"deploy.md": "---\nname: deploy\ndescription: d\ntype: project\n---\n\nx\n"})
	type hereOut struct {
		Here *struct {
			Cwd        string `json:"cwd"`
			ClaudeUses struct {
				Dir string   `json:"dir"`
				How []string `json:"how"`
			} `json:"claude_code_uses"`
			Exists   bool `json:"exists"`
			Memories int  `json:"memories"`
		} `json:"here"`
	}
	doc := func(e func(string) string, args ...string) hereOut {
		t.Helper()
		code, stdout, stderr := runCLI(t, e, append(args, "doctor", "--json")...)
		if code != 0 {
			t.Fatalf("doctor --json: exit %d: %s", code, stderr)
		}
		var out hereOut
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := doc(doctorEnv(t, "PWD", sub), "--config-dir", cfg)
	if h := out.Here; h == nil || h.Cwd != sub || h.ClaudeUses.Dir != mem || !h.Exists || h.Memories != 1 {
		t.Fatalf("here = %+v, want %s, on disk, 1 memory", out.Here, mem)
	} else if !strings.Contains(strings.Join(h.ClaudeUses.How, "\n"), "key root "+root) {
		t.Errorf("here does not say the key root came from the repository: %q", h.ClaudeUses.How)
	}
	if out := doc(doctorEnv(t, "PWD", sub), "--config-dir", cfg, "--project", "shop"); out.Here != nil {
		t.Errorf("a named project still got a here: %+v", out.Here)
	}

	home := t.TempDir()
	fresh := env("HOME", home, "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir(), "CODEX_HOME", filepath.Join(home, "no-codex"), "PWD", sub)
	out = doc(fresh)
	want := filepath.Join(home, ".claude", "projects", sanitize(root), "memory")
	if h := out.Here; h == nil || h.ClaudeUses.Dir != want || h.Exists {
		t.Errorf("on a fresh machine: here = %+v, want %s, not on disk yet", out.Here, want)
	}
	code, stdout, _ := runCLI(t, fresh, "doctor")
	if code != 0 || !strings.Contains(stdout, "not on disk yet") {
		t.Errorf("doctor on a fresh machine: exit %d:\n%s", code, stdout)
	}
}

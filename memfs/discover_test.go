package memfs

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
	"github.com/memtui/memtui/model"
)

func TestDiscoverAutoTeamAndRoot(t *testing.T) {
	w := newWorld(t)
	root, slugDir := w.project("acme", true)
	testfs.Mkdir(t, filepath.Join(slugDir, "memory", "team"))
	transcript(t, slugDir, uuid2+".jsonl", time.Now().Add(-time.Hour), msgLine(root))
	transcript(t, slugDir, "agent-a2271d1.jsonl", time.Now().Add(-time.Hour), msgLine(root))
	// Transcripts only: not a memory project.
	_, onlyT := w.project("tonly", false)
	// A stray file in projects/ is not a project.
	testfs.Write(t, filepath.Join(w.config, "projects", "stray.txt"), "x")

	s := w.discover()
	if !reflect.DeepEqual(s.ConfigDirs, []string{w.config}) {
		t.Errorf("ConfigDirs = %v", s.ConfigDirs)
	}
	if hasProject(s, filepath.Base(onlyT)) || hasProject(s, "stray.txt") {
		t.Errorf("listed a project without memory: %v", dirsOfScan(s))
	}
	p := findProject(t, s, slugOf(root))
	if p.Root != root || p.Name() != root {
		t.Errorf("Root = %q, want %q", p.Root, root)
	}
	if p.TranscriptDir != slugDir || p.ConfigDir != w.config {
		t.Errorf("TranscriptDir %q ConfigDir %q", p.TranscriptDir, p.ConfigDir)
	}
	if !reflect.DeepEqual(p.Sessions, map[string]bool{uuid1: true, uuid2: true}) {
		t.Errorf("Sessions = %v", p.Sessions)
	}
	want := []string{"auto memory", "team memory/team"}
	if got := dirsOf(p, slugDir); !reflect.DeepEqual(got, want) {
		t.Errorf("dirs = %q, want %q", got, want)
	}
	for _, d := range p.Dirs {
		if d.Files != nil || d.Index != nil {
			t.Error("Discover read file contents")
		}
	}
	if len(s.Config) != 0 {
		t.Errorf("unexpected config problems: %+v", s.Config)
	}
}

func dirsOfScan(s *model.Scan) []string {
	var out []string
	for _, p := range s.Projects {
		out = append(out, p.Slug)
	}
	return out
}

func TestDiscoverRootUnconfirmed(t *testing.T) {
	w := newWorld(t)
	// Memory keyed by the repo root, transcript from a subdirectory session
	// that (wrongly for this dir, but it happens with moved dirs) sits here.
	slug := "-home-al-src-moved"
	dir := filepath.Join(w.config, "projects", slug)
	testfs.Write(t, filepath.Join(dir, "memory", "a.md"), "x")
	transcript(t, dir, uuid1+".jsonl", time.Now(), metaLine("summary"), msgLine("/home/al/src/moved/sub"))
	// A dir with memory and no transcripts at all.
	testfs.Write(t, filepath.Join(w.config, "projects", "-opt-x", "memory", "b.md"), "x")

	s := w.discover()
	p := findProject(t, s, slug)
	if p.Root != "" || p.Name() != slug {
		t.Errorf("guessed a root: %q", p.Root)
	}
	q := findProject(t, s, "-opt-x")
	if q.Root != "" || q.Sessions != nil || q.TranscriptDir != filepath.Join(w.config, "projects", "-opt-x") {
		t.Errorf("memory-only project: %+v", q)
	}
}

func TestDiscoverEnvOverride(t *testing.T) {
	w := newWorld(t)
	over := testfs.Mkdir(t, filepath.Join(w.tmp, "cowork", "memory"))
	testfs.Mkdir(t, filepath.Join(over, "team"))
	w.envs[envMemoryOverride] = over + "/"
	s := w.discover()
	p := findProject(t, s, "override:"+over)
	if p.ConfigDir != "" {
		t.Errorf("env override ConfigDir = %q", p.ConfigDir)
	}
	if got := dirsOf(p, over); !reflect.DeepEqual(got, []string{"override .", "team team"}) {
		t.Errorf("dirs = %q", got)
	}

	// Valid but absent: listed, Exists=false.
	w.envs[envMemoryOverride] = filepath.Join(w.tmp, "nothere")
	s = w.discover()
	p = findProject(t, s, "override:"+filepath.Join(w.tmp, "nothere"))
	if p.Dirs[0].Exists {
		t.Error("absent override dir marked existing")
	}

	// ~ is not expanded in the env override (facts §1.1 row 1).
	w.envs[envMemoryOverride] = "~/notes"
	s = w.discover()
	if len(s.Projects) != 0 {
		t.Errorf("invalid override listed: %v", dirsOfScan(s))
	}
	if len(s.Config) != 1 {
		t.Fatalf("Config = %+v", s.Config)
	}
	c := s.Config[0]
	if c.Kind != model.OverrideInvalid || c.Source != envMemoryOverride || c.Project != "" ||
		!strings.Contains(c.Detail, reasonEnvTilde) || c.Suggestion != "write the home directory out: "+filepath.Join(w.home, "notes") {
		t.Errorf("problem = %+v", c)
	}
}

func TestDiscoverUserSettingsOverride(t *testing.T) {
	w := newWorld(t)
	notes := testfs.Mkdir(t, filepath.Join(w.home, "notes", "memory"))
	testfs.Write(t, filepath.Join(w.config, "settings.json"), "{\n  \"model\": \"x\",\n  \"autoMemoryDirectory\": \"~/notes/memory/\"\n}\n")
	s := w.discover()
	p := findProject(t, s, "override:"+notes)
	if p.ConfigDir != w.config || p.Dirs[0].Kind != model.DirOverride || !p.Dirs[0].Exists {
		t.Errorf("user override project = %+v %v", p, dirsOf(p, w.home))
	}

	testfs.Write(t, filepath.Join(w.config, "settings.json"), "{\n  \"autoMemoryDirectory\": \"./.claude/memory\"\n}\n")
	s = w.discover()
	if len(s.Config) != 1 {
		t.Fatalf("Config = %+v", s.Config)
	}
	c := s.Config[0]
	if c.Kind != model.OverrideInvalid || c.Source != filepath.Join(w.config, "settings.json") || c.Line != 2 {
		t.Errorf("problem = %+v", c)
	}
	if !strings.Contains(c.Detail, reasonRelative) || !strings.Contains(c.Detail, "uses the default directory "+filepath.Join(w.config, "projects", "<project>", "memory")) {
		t.Errorf("Detail = %q", c.Detail)
	}
	if !strings.Contains(c.Suggestion, filepath.Join(w.home, ".claude", "memory")) {
		t.Errorf("Suggestion = %q", c.Suggestion)
	}
}

func TestDiscoverProjectAndLocalSettings(t *testing.T) {
	w := newWorld(t)
	root, slugDir := w.project("acme", true)
	shared := testfs.Mkdir(t, filepath.Join(w.tmp, "shared-mem"))
	local := testfs.Mkdir(t, filepath.Join(w.tmp, "local-mem"))
	testfs.Write(t, filepath.Join(root, ".claude", "settings.json"), `{"autoMemoryDirectory": "`+shared+`"}`)
	testfs.Write(t, filepath.Join(root, ".claude", "settings.local.json"), `{"autoMemoryDirectory": "`+local+`"}`)
	// A transcripts-only project whose settings point its memory elsewhere
	// is listed (the brief: "unless an override points its memory elsewhere").
	root2, _ := w.project("tonly", false)
	elsewhere := filepath.Join(w.tmp, "elsewhere")
	testfs.Write(t, filepath.Join(root2, ".claude", "settings.json"), `{"autoMemoryDirectory": "`+elsewhere+`"}`)
	// An invalid value in a third project's local settings.
	root3, _ := w.project("bad", true)
	testfs.Write(t, filepath.Join(root3, ".claude", "settings.local.json"), "{\"autoMemoryDirectory\": \"/\"}")

	s := w.discover()
	p := findProject(t, s, slugOf(root))
	want := []string{"auto " + filepath.Join(slugDir, "memory"), "override " + local, "override " + shared}
	if got := dirsOf(p, "/"); !reflect.DeepEqual(got, trimSlash(want)) {
		t.Errorf("dirs = %q, want %q", got, trimSlash(want))
	}
	p2 := findProject(t, s, slugOf(root2))
	if got := dirsOf(p2, "/"); !reflect.DeepEqual(got, trimSlash([]string{"override " + elsewhere + " absent"})) {
		t.Errorf("transcripts-only project with override: %q", got)
	}
	if len(s.Config) != 1 {
		t.Fatalf("Config = %+v", s.Config)
	}
	c := s.Config[0]
	if c.Project != root3 || c.Kind != model.OverrideInvalid || !strings.Contains(c.Detail, reasonRoot) ||
		!strings.Contains(c.Detail, "In a trusted workspace") || !strings.Contains(c.Detail, "uses the default directory "+filepath.Join(w.config, "projects", slugOf(root3), "memory")) {
		t.Errorf("problem = %+v", c)
	}
}

func trimSlash(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.Replace(s, " /", " ", 1)
	}
	return out
}

func TestDiscoverPolicySettings(t *testing.T) {
	w := newWorld(t)
	pol := testfs.Mkdir(t, filepath.Join(w.tmp, "policy-mem"))
	o := w.opts()
	testfs.Write(t, o.ManagedSettings, `{"autoMemoryDirectory": "`+pol+`"}`)
	s, err := Discover(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	p := findProject(t, s, "override:"+pol)
	if p.ConfigDir != "" || p.Dirs[0].Kind != model.DirOverride {
		t.Errorf("policy override: %+v", p)
	}
	testfs.Write(t, o.ManagedSettings, `{"autoMemoryDirectory": "~"}`)
	s, _ = Discover(t.Context(), o)
	if len(s.Config) != 1 || !strings.Contains(s.Config[0].Detail, "uses the default directory") || !strings.Contains(s.Config[0].Detail, "for every project") ||
		!strings.Contains(s.Config[0].Detail, reasonBareTilde) {
		t.Errorf("policy problem: %+v", s.Config)
	}
}

func TestDiscoverSettingsInvalid(t *testing.T) {
	cases := []struct {
		name    string
		content string
		line    int
		detail  string
		kind    model.ConfigKind
		none    bool
	}{
		{name: "comments", content: "{\n  // my memory\n  \"autoMemoryDirectory\": \"/x/y\"\n}\n", line: 2, detail: "not valid JSON", kind: model.SettingsInvalid},
		{name: "trailing comma", content: "{\n  \"a\": 1,\n}\n", line: 3, detail: "not valid JSON", kind: model.SettingsInvalid},
		{name: "truncated", content: "{\n  \"a\": ", line: 2, detail: "not valid JSON", kind: model.SettingsInvalid},
		{name: "not an object", content: "[1]", line: 1, detail: "not a JSON object", kind: model.SettingsInvalid},
		{name: "not a string", content: "{\n\n\"autoMemoryDirectory\": 5}", line: 3, detail: "must be a string, not a number", kind: model.SettingsInvalid},
		{name: "empty", content: "", none: true},
		{name: "blank", content: " \n\t\n", none: true},
		{name: "bom", content: "\uFEFF{\"a\": 1}", none: true},
		{name: "empty value is unset", content: `{"autoMemoryDirectory": ""}`, none: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			src := testfs.Write(t, filepath.Join(w.config, "settings.json"), c.content)
			s := w.discover()
			if c.none {
				if len(s.Config) != 0 {
					t.Errorf("unexpected problems: %+v", s.Config)
				}
				return
			}
			if len(s.Config) != 1 {
				t.Fatalf("Config = %+v", s.Config)
			}
			p := s.Config[0]
			if p.Kind != c.kind || p.Source != src || p.Line != c.line || !strings.Contains(p.Detail, c.detail) || p.Suggestion == "" {
				t.Errorf("problem = %+v; want line %d, detail ~%q", p, c.line, c.detail)
			}
		})
	}
}

func TestDiscoverAgentMemory(t *testing.T) {
	w := newWorld(t)
	root, _ := w.project("acme", false)
	testfs.Mkdir(t, filepath.Join(w.config, "agent-memory", "reviewer"))
	testfs.Mkdir(t, filepath.Join(w.config, "agent-memory", "planner"))
	testfs.Write(t, filepath.Join(w.config, "agent-memory", "file.md"), "not a dir")
	testfs.Mkdir(t, filepath.Join(root, ".claude", "agent-memory", "tester"))
	testfs.Mkdir(t, filepath.Join(root, ".claude", "agent-memory-local", "scratch"))

	s := w.discover()
	u := findProject(t, s, "agent-memory")
	if got := dirsOf(u, w.config); !reflect.DeepEqual(got, []string{
		"agent-user agent-memory/planner agent=planner", "agent-user agent-memory/reviewer agent=reviewer"}) {
		t.Errorf("user agent dirs = %q", got)
	}
	p := findProject(t, s, slugOf(root))
	if got := dirsOf(p, root); !reflect.DeepEqual(got, []string{
		"agent-project .claude/agent-memory/tester agent=tester", "agent-local .claude/agent-memory-local/scratch agent=scratch"}) {
		t.Errorf("project agent dirs = %q", got)
	}

	o := w.opts()
	o.IncludeAgentMemory = false
	s, _ = Discover(t.Context(), o)
	if len(s.Projects) != 0 {
		t.Errorf("agent memory listed without IncludeAgentMemory: %v", dirsOfScan(s))
	}
}

func TestDiscoverProjectFilter(t *testing.T) {
	w := newWorld(t)
	acme, _ := w.project("acme", true)
	w.project("globex", true)
	testfs.Write(t, filepath.Join(w.config, "projects", "-srv-acme-tools", "memory", "x.md"), "x") // slug only
	root3, _ := w.project("initech", true)
	testfs.Write(t, filepath.Join(root3, ".claude", "settings.json"), `{"autoMemoryDirectory": "rel"}`)

	o := w.opts()
	o.Project = "acme"
	s, err := Discover(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range s.Projects {
		names = append(names, p.Name())
	}
	if !reflect.DeepEqual(names, []string{"-srv-acme-tools", acme}) {
		t.Errorf("filtered = %q", names)
	}
	if len(s.Config) != 0 {
		t.Errorf("problem of a filtered-out project kept: %+v", s.Config)
	}
	o.Project = "src/initech" // matches the real path, not the slug
	s, _ = Discover(t.Context(), o)
	if len(s.Projects) != 1 || s.Projects[0].Root != root3 || len(s.Config) != 1 {
		t.Errorf("root filter: %v %+v", dirsOfScan(s), s.Config)
	}
}

func TestDiscoverMemoryDirs(t *testing.T) {
	w := newWorld(t)
	root, slugDir := w.project("acme", true)
	testfs.Mkdir(t, filepath.Join(slugDir, "memory", "team"))
	loose := testfs.Mkdir(t, filepath.Join(w.tmp, "notes", "memory"))
	o := Options{MemoryDirs: []string{filepath.Join(slugDir, "memory"), loose}, Getenv: env(nil), Home: w.home, ManagedSettings: "/nonexistent"}
	s, err := Discover(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.ConfigDirs) != 0 {
		t.Errorf("--memory-dir alone scanned config dirs: %v", s.ConfigDirs)
	}
	p := findProject(t, s, filepath.Base(slugDir)+"/memory")
	if p.Root != root || p.ConfigDir != "" || p.TranscriptDir != slugDir || !p.Sessions[uuid1] {
		t.Errorf("explicit project = %+v", p)
	}
	if got := dirsOf(p, slugDir); !reflect.DeepEqual(got, []string{"explicit memory", "team memory/team"}) {
		t.Errorf("dirs = %q", got)
	}
	q := findProject(t, s, "notes/memory")
	if q.Root != "" || q.Dirs[0].Kind != model.DirExplicit {
		t.Errorf("loose explicit = %+v", q)
	}

	// Usage errors name the path.
	for _, bad := range []string{filepath.Join(w.tmp, "missing"), testfs.Write(t, filepath.Join(w.tmp, "file"), "x")} {
		o.MemoryDirs = []string{bad}
		if _, err := Discover(t.Context(), o); err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "--memory-dir") {
			t.Errorf("--memory-dir %s: err = %v", bad, err)
		}
	}
}

func TestDiscoverConfigDirErrors(t *testing.T) {
	tmp := t.TempDir()
	file := testfs.Write(t, filepath.Join(tmp, "f"), "x")
	for bad, why := range map[string]string{filepath.Join(tmp, "nope"): "no such directory", file: "not a directory"} {
		_, err := Discover(t.Context(), Options{ConfigDirs: []string{bad}, Getenv: env(nil), Home: tmp})
		if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), why) {
			t.Errorf("--config-dir %s: err = %v", bad, err)
		}
	}
}

func TestDiscoverDefaultConfigDir(t *testing.T) {
	w := newWorld(t)
	w.project("acme", true)
	// No ~/.claude for this home: an empty scan, not an error.
	o := Options{Getenv: env(nil), Home: filepath.Join(w.tmp, "newuser"), ManagedSettings: "/nonexistent"}
	s, err := Discover(t.Context(), o)
	if err != nil || len(s.Projects) != 0 || len(s.ConfigDirs) != 0 {
		t.Errorf("missing default: %v %+v", err, s)
	}
	// $CLAUDE_CONFIG_DIR wins over ~/.claude.
	o.Getenv = env(map[string]string{envConfigDir: w.config})
	s, err = Discover(t.Context(), o)
	if err != nil || len(s.Projects) != 1 || !reflect.DeepEqual(s.ConfigDirs, []string{w.config}) {
		t.Errorf("CLAUDE_CONFIG_DIR: %v %v %v", err, s.ConfigDirs, dirsOfScan(s))
	}
	// ~/.claude by default.
	o = Options{Getenv: env(nil), Home: w.home, ManagedSettings: "/nonexistent"}
	s, err = Discover(t.Context(), o)
	if err != nil || len(s.Projects) != 1 {
		t.Errorf("~/.claude: %v %v", err, dirsOfScan(s))
	}
	if got := DefaultConfigDir(env(nil), "/h"); got != "/h/.claude" {
		t.Errorf("DefaultConfigDir = %q", got)
	}
}

func TestDiscoverRemoteMemoryDir(t *testing.T) {
	w := newWorld(t)
	root, slugDir := w.project("acme", false)
	remote := filepath.Join(w.tmp, "remote")
	testfs.Write(t, filepath.Join(remote, "projects", slugOf(root), "memory", "a.md"), "x")
	testfs.Mkdir(t, filepath.Join(remote, "agent-memory", "helper"))
	testfs.Mkdir(t, filepath.Join(remote, "projects", slugOf(root), "agent-memory-local", "scratch"))
	w.envs[envRemoteMemory] = remote
	s := w.discover()
	p := findProject(t, s, slugOf(root))
	if p.TranscriptDir != slugDir || p.Root != root {
		t.Errorf("remote project: %+v", p)
	}
	if got := dirsOf(p, remote); !reflect.DeepEqual(got, []string{
		"auto projects/" + slugOf(root) + "/memory",
		"agent-local projects/" + slugOf(root) + "/agent-memory-local/scratch agent=scratch"}) {
		t.Errorf("dirs = %q", got)
	}
	u := findProject(t, s, "agent-memory")
	if got := dirsOf(u, remote); !reflect.DeepEqual(got, []string{"agent-user agent-memory/helper agent=helper"}) {
		t.Errorf("agent dirs = %q", got)
	}
}

func TestDiscoverProjectDirName(t *testing.T) {
	w := newWorld(t)
	dir := filepath.Join(w.config, "projects", "work")
	testfs.Write(t, filepath.Join(dir, "memory", "a.md"), "x")
	transcript(t, dir, uuid1+".jsonl", time.Now(), msgLine("/srv/tenant-a/checkout"))

	w.envs[envProjectDirName] = "work"
	if p := findProject(t, w.discover(), "work"); p.Root != "" {
		t.Errorf("honoured without CLAUDE_CONFIG_DIR: %q", p.Root)
	}
	w.envs[envConfigDir] = w.config
	if p := findProject(t, w.discover(), "work"); p.Root != "/srv/tenant-a/checkout" {
		t.Errorf("Root = %q", p.Root)
	}
	w.envs[envProjectDirName] = "con" // a Windows device name: ignored
	if p := findProject(t, w.discover(), "work"); p.Root != "" {
		t.Errorf("invalid name honoured: %q", p.Root)
	}
}

// TestDiscoverHomeRoot: sessions started in $HOME make <home>/.claude both
// the config dir and the project's .claude: its settings are read (and
// reported) once, and its agent memory listed once, as user scope.
func TestDiscoverHomeRoot(t *testing.T) {
	w := newWorld(t)
	slugDir := testfs.Mkdir(t, filepath.Join(w.config, "projects", slugOf(w.home)))
	transcript(t, slugDir, uuid1+".jsonl", time.Now(), msgLine(w.home))
	testfs.Write(t, filepath.Join(slugDir, "memory", "a.md"), "x")
	testfs.Write(t, filepath.Join(w.config, "settings.json"), `{"autoMemoryDirectory": "mem"}`)
	testfs.Mkdir(t, filepath.Join(w.config, "agent-memory", "reviewer"))

	s := w.discover()
	if len(s.Config) != 1 {
		t.Errorf("settings reported %d times: %+v", len(s.Config), s.Config)
	}
	p := findProject(t, s, slugOf(w.home))
	if p.Root != w.home {
		t.Fatalf("Root = %q", p.Root)
	}
	if got := dirsOf(p, slugDir); !reflect.DeepEqual(got, []string{"auto memory"}) {
		t.Errorf("home project dirs = %q", got)
	}
	if u := findProject(t, s, "agent-memory"); len(u.Dirs) != 1 || u.Dirs[0].Kind != model.DirAgentUser {
		t.Errorf("agent dir owner: %v", dirsOf(u, w.config))
	}
}

func TestDiscoverSortedAndDeduped(t *testing.T) {
	w := newWorld(t)
	w.project("zeta", true)
	w.project("alpha", true)
	testfs.Write(t, filepath.Join(w.config, "projects", "-a-slug-only", "memory", "x.md"), "x")
	// The user override points at alpha's own auto dir: listed once, as auto.
	alphaMem := filepath.Join(w.config, "projects", slugOf(filepath.Join(w.home, "src", "alpha")), "memory")
	testfs.Write(t, filepath.Join(w.config, "settings.json"), `{"autoMemoryDirectory": "`+alphaMem+`"}`)
	s := w.discover()
	var names []string
	for _, p := range s.Projects {
		names = append(names, p.Name())
	}
	if !sort.StringsAreSorted(names) || len(names) != 3 {
		t.Errorf("projects not sorted by Name or wrong count: %q", names)
	}
	count := 0
	for _, p := range s.Projects {
		for _, d := range p.Dirs {
			if d.Path == alphaMem {
				count++
				if d.Kind != model.DirAuto {
					t.Errorf("kept as %v", d.Kind)
				}
			}
		}
	}
	if count != 1 {
		t.Errorf("alpha's memory dir listed %d times", count)
	}
}

func TestDiscoverCancelled(t *testing.T) {
	w := newWorld(t)
	w.project("acme", true)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Discover(ctx, w.opts()); err == nil {
		t.Error("cancelled Discover returned no error")
	}
}

// TestDiscoverUnreadableProjectsDir: the config dir's projects/ is the
// scan's input; failing to list it stops the scan with the path named.
func TestDiscoverUnreadableProjectsDir(t *testing.T) {
	w := newWorld(t)
	projects := filepath.Join(w.config, "projects")
	if err := os.Chmod(projects, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(projects, 0o755)
	_, err := Discover(t.Context(), w.opts())
	if os.Geteuid() == 0 {
		// root reads through mode 000, so the scan succeeds.
		if err != nil {
			t.Errorf("as root: %v", err)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), projects) {
		t.Errorf("err = %v", err)
	}
}

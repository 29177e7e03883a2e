package main

import (
	"context"
	"crypto/sha256"
	"reflect"
	"slices"
	"time"

	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memtui/memtui/app"
	"github.com/memtui/memtui/consolidate"
	"github.com/memtui/memtui/consolidate/dream"
	"github.com/memtui/memtui/internal/corpus"
	"github.com/memtui/memtui/memfs"

	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

type dreamJSON struct {
	Version   int              `json:"version"`
	Proposals []model.Proposal `json:"proposals"`
}

func decodeDream(t *testing.T, s string) dreamJSON {
	t.Helper()
	var out dreamJSON
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatalf("dream --json is not JSON: %v\n%s", err, s)
	}
	if out.Version != 1 {
		t.Fatalf("version %d", out.Version)
	}
	return out
}

var demoDirRE = regexp.MustCompile(`/[^"\s]*memtui-demo-[0-9]+`)

// Two runs on the wall clock (no --now) give the same IDs, merges and
// reindexes included, though each stamps what it writes with its own
// time: dream, then dream --apply --only ID, finds what was listed.
func TestDreamIDsHoldOnTheWallClock(t *testing.T) {
	run := func() map[string]string {
		code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--demo", "dream", "--json")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		ids := map[string]string{}
		for _, p := range decodeDream(t, stdout).Proposals {
			ids[p.ID] = string(p.Kind)
		}
		return ids
	}
	a, b := run(), run()
	if !reflect.DeepEqual(a, b) {
		t.Errorf("the IDs differ between two runs:\n%v\n%v", a, b)
	}
	kinds := map[string]bool{}
	for _, k := range a {
		kinds[k] = true
	}
	if !kinds[string(model.KindMerge)] || !kinds[string(model.KindReindex)] {
		t.Errorf("the demo must have a merge and a reindex, whose results carry the time: %v", kinds)
	}
}

// The same tree gives byte-identical proposals, IDs included.
func TestDreamIsDeterministic(t *testing.T) {
	run := func() string {
		code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--demo", "dream", "--json", "--now", "2026-11-21")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return demoDirRE.ReplaceAllString(stdout, "<demo>")
	}
	a, b := run(), run()
	if a != b {
		t.Fatal("two runs of dream on the demo differ")
	}
	out := decodeDream(t, a)
	kinds := map[model.ProposalKind]int{}
	for _, p := range out.Proposals {
		kinds[p.Kind]++
		if !strings.HasPrefix(p.ID, string(p.Kind)+"-") || len(p.Changes) == 0 || p.Title == "" || p.Rationale == "" {
			t.Errorf("incomplete proposal %+v", p)
		}
	}
	for _, k := range []model.ProposalKind{model.KindRedactSecret, model.KindFixFrontmatter, model.KindAbsolutizeDates, model.KindAddYear} {
		if kinds[k] == 0 {
			t.Errorf("the demo has no %s proposal", k)
		}
	}
	if strings.Contains(a, "ghp_Demo") || strings.Contains(a, "s3cr3t") {
		t.Error("a secret is in dream's JSON")
	}
}

func TestDreamTextMasksSecretsAndFilters(t *testing.T) {
	code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--demo", "dream", "--kind", "redact-secret", "--now", "2026-11-21")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, "ghp_Demo") || !strings.Contains(stdout, "+[REDACTED]") || !strings.Contains(stdout, "-ghp_…(40 chars)") {
		t.Errorf("the redaction diff must show the mask, never the secret:\n%s", stdout)
	}
	if strings.Contains(stdout, "absolutize-dates") {
		t.Error("--kind must filter")
	}
	if !strings.Contains(stdout, "Nothing was written.") {
		t.Errorf("the summary must say nothing was written:\n%s", stdout)
	}
	code, _, stderr = runCLI(t, env(), "--demo", "dream", "--kind", "shred")
	if code != exitUsage || !strings.Contains(flat(stderr), "unknown kind") {
		t.Errorf("a bad --kind: exit %d, %s", code, stderr)
	}
}

// proposerTree is a config dir with one project whose memory has a
// relative date, and the sha256 of that file.
func proposerTree(t *testing.T) (cfg, memDir, hash string) {
	t.Helper()
	cfg = t.TempDir()
	memDir = filepath.Join(cfg, "projects", "-work-x", "memory")
	if err := os.MkdirAll(memDir, 0o755); err != nil {
		t.Fatal(err)
	}
	content := "---\nname: launch\ndescription: When the portal launches\ntype: project\n---\n\nWe launch tomorrow.\n"
	os.WriteFile(filepath.Join(memDir, "project_launch.md"), []byte(content), 0o644)
	os.WriteFile(filepath.Join(memDir, "MEMORY.md"), []byte("- [Launch](project_launch.md) — when the portal launches\n"), 0o644)
	sum := sha256.Sum256([]byte(content))
	return cfg, memDir, hex.EncodeToString(sum[:])
}

// stub writes a proposer script that ignores its input (after reading it)
// and prints out.
func stub(t *testing.T, out string) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "out.json"), []byte(out), 0o644)
	script := filepath.Join(dir, "proposer.sh")
	os.WriteFile(script, []byte("#!/bin/sh\ncat > \""+dir+"/in.json\"\ncat \""+dir+"/out.json\"\n"), 0o755)
	return script
}

func TestProposerProtocol(t *testing.T) {
	cfg, memDir, hash := proposerTree(t)
	after := "---\\nname: launch\\ndescription: When the portal launches\\ntype: project\\n---\\n\\nWe launch on 2026-11-22.\\n"
	out := `{"version":1,"proposals":[
	 {"kind":"absolutize-dates","title":"Date the launch","rationale":"tomorrow means nothing later",
	  "changes":[{"path":"project_launch.md","op":"update","base_sha256":"` + hash + `","after":"` + after + `"}]},
	 {"kind":"prune","title":"Escape","rationale":"x","changes":[{"path":"../../../../etc/evil.md","op":"create","base_sha256":"","after":"x"}]},
	 {"kind":"absolutize-dates","title":"Lie","rationale":"x","changes":[{"path":"project_launch.md","op":"update","base_sha256":"` + strings.Repeat("a", 64) + `","after":"x"}]}
	]}`
	script := stub(t, out)
	code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "dream", "--json", "--now", "2026-11-21", "--proposer", script)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := decodeDream(t, stdout)
	if len(got.Proposals) != 1 || got.Proposals[0].Title != "Date the launch" || got.Proposals[0].MemoryDir != memDir {
		t.Fatalf("want only the good proposal, got %+v", got.Proposals)
	}
	for _, want := range []string{`rejected proposal 2 ("Escape")`, "escapes", `rejected proposal 3 ("Lie")`, "does not match the file"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	// The proposer read the directory as the protocol says.
	var in struct {
		Version   int    `json:"version"`
		MemoryDir string `json:"memory_dir"`
		Index     *struct{ Content string }
		Files     []struct{ Path, SHA256, Content string }
		Findings  []model.Finding
	}
	b, _ := os.ReadFile(filepath.Join(filepath.Dir(script), "in.json"))
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatalf("the proposer's input is not JSON: %v", err)
	}
	if in.Version != 1 || in.MemoryDir != memDir || in.Index == nil || len(in.Files) != 1 || in.Files[0].SHA256 != hash || len(in.Findings) == 0 {
		t.Errorf("input: %+v", in)
	}
	// Nothing was written: the file is as it was.
	if b, _ := os.ReadFile(filepath.Join(memDir, "project_launch.md")); !strings.Contains(string(b), "tomorrow") {
		t.Error("dream --proposer wrote to the memory directory")
	}
}

func TestProposerFailuresAreClear(t *testing.T) {
	cfg, _, _ := proposerTree(t)
	for _, c := range []struct{ out, want string }{
		{"this is not json", "did not print proposals as json"},
		{`{"version":2,"proposals":[]}`, "protocol version 2"},
	} {
		code, _, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "dream", "--proposer", stub(t, c.out))
		if code != exitUsage || !strings.Contains(flat(stderr), c.want) {
			t.Errorf("proposer printing %q: exit %d, stderr %s", c.out, code, stderr)
		}
	}
	code, _, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "dream", "--proposer", "exit 3")
	if code != exitUsage || !strings.Contains(flat(stderr), "failed") {
		t.Errorf("a failing proposer: exit %d, %s", code, stderr)
	}
}

// The shipped example proposer, with a stand-in for the claude CLI that
// answers in a fenced block as models do.
func TestExampleProposerScript(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("jq not installed; .ci/run installs it")
		}
		t.Fatal("jq is missing")
	}
	cfg, _, hash := proposerTree(t)
	bin := t.TempDir()
	answer := `{"version":1,"proposals":[{"kind":"absolutize-dates","title":"Date the launch","rationale":"r","changes":[{"path":"project_launch.md","op":"update","base_sha256":"` + hash + `","after":"---\nname: launch\ndescription: When the portal launches\ntype: project\n---\n\nWe launch on 2026-11-22.\n"}]}]}`
	result, _ := json.Marshal(map[string]string{"result": "```json\n" + answer + "\n```"})
	os.WriteFile(filepath.Join(bin, "claude"), []byte("#!/bin/sh\ncat >/dev/null\ncat <<'EOF'\n"+string(result)+"\nEOF\n"), 0o755)
	script, _ := filepath.Abs("examples/proposer/claude-dream.sh")
	path := bin + string(os.PathListSeparator) + os.Getenv("PATH")
	code, stdout, stderr := runCLI(t, env("HOME", t.TempDir(), "PATH", path), "--config-dir", cfg, "dream", "--json", "--proposer", "PATH="+path+" "+script)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := decodeDream(t, stdout); len(got.Proposals) != 1 || got.Proposals[0].Kind != model.KindAbsolutizeDates {
		t.Errorf("the example proposer's answer did not come through: %s\n%s", stdout, stderr)
	}
}

// flat is an error as fang prints it, boxed and wrapped, made one
// lower-case line to search.
func flat(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// On a generated tree full of planted problems, every proposal memtui makes
// passes the checks an external one must pass, applies to the files it
// read, and, applied alone, leaves none of the findings it claims to fix.
func TestDreamProposalsHoldOnAGeneratedTree(t *testing.T) {
	dir := t.TempDir()
	if _, err := corpus.Generate(dir, corpus.Config{Projects: 40, Files: 1600, Seed: 7, Transcripts: true}); err != nil {
		t.Fatal(err)
	}
	opts := memfs.Options{ConfigDirs: []string{dir}, Getenv: func(string) string { return "" }, Home: dir,
		ManagedSettings: filepath.Join(dir, "none.json"), IncludeAgentMemory: true}
	ctx := context.Background()
	scan, err := memfs.Discover(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	ws := &app.Workspace{Scan: scan, ScanOpts: opts, CheckOpts: consolidate.Options{Now: now, Paths: &memfs.PathProbe{}}}
	props, err := ws.Propose(ctx, app.ProposeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(props) < 50 {
		t.Fatalf("only %d proposals on a tree full of problems", len(props))
	}
	dirs := map[string]*model.MemoryDir{}
	projects := map[string]*model.Project{}
	for _, p := range scan.Projects {
		for _, d := range p.Dirs {
			dirs[d.Path], projects[d.Path] = d, p
		}
	}
	kinds := map[model.ProposalKind]int{}
	for _, prop := range props {
		kinds[prop.Kind]++
		d, p := dirs[prop.MemoryDir], projects[prop.MemoryDir]
		if _, err := dream.CheckExternal(p, d, prop, false); err != nil {
			t.Errorf("%s (%s) fails memtui's own checks: %v", prop.ID, prop.Title, err)
			continue
		}
		files := map[string][]byte{}
		mods := map[string]time.Time{}
		for _, f := range d.Files {
			files[f.Path], mods[f.Path] = f.Content, f.ModTime
		}
		if d.Index != nil {
			files["MEMORY.md"] = d.Index.Content
		}
		out, err := dream.Apply(files, prop)
		if err != nil {
			t.Errorf("%s does not apply to what it read: %v", prop.ID, err)
			continue
		}
		nd := &model.MemoryDir{Path: d.Path, Kind: d.Kind, Exists: true}
		for path, b := range out {
			mod, ok := mods[path]
			if !ok || string(files[path]) != string(b) {
				mod = now
			}
			f := &model.File{Path: path, Content: b, Size: int64(len(b)), ModTime: mod}
			if path == "MEMORY.md" {
				nd.Index = f
			} else {
				nd.Files = append(nd.Files, f)
			}
		}
		slices.SortFunc(nd.Files, func(a, b *model.File) int { return strings.Compare(a.Path, b.Path) })
		left := map[string]bool{}
		for _, f := range consolidate.OrientDir(p, nd, consolidate.Options{Now: now}) {
			left[f.Rule+" "+f.File] = true
		}
		for _, fix := range prop.Fixes {
			if left[fix.Rule+" "+fix.File] {
				t.Errorf("%s (%s) claims to fix %s on %s, which is still reported after it", prop.ID, prop.Title, fix.Rule, fix.File)
			}
		}
	}
	t.Logf("%d proposals: %v", len(props), kinds)
}

// dream --apply writes only with --yes, journals what it wrote, and undo
// puts it back byte for byte — or refuses once an agent changed the file.
func TestApplyAndUndo(t *testing.T) {
	cfg, memDir, _ := proposerTree(t)
	state := t.TempDir()
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", state)
	file := filepath.Join(memDir, "project_launch.md")
	orig, _ := os.ReadFile(file)

	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--kind", "absolutize-dates")
	if code != exitOK || !strings.Contains(stdout, "would apply absolutize-dates-") || !strings.Contains(stdout, "Dry run") {
		t.Fatalf("without --yes: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(file); string(b) != string(orig) {
		t.Fatal("a dry run wrote the file")
	}

	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "absolutize-dates")
	if code != exitOK || !strings.Contains(stdout, "applied   absolutize-dates-") {
		t.Fatalf("--apply --yes: exit %d\n%s%s", code, stdout, stderr)
	}
	after, _ := os.ReadFile(file)
	if strings.Contains(string(after), "tomorrow") {
		t.Fatalf("the proposal was not written:\n%s", after)
	}
	if _, err := os.Stat(filepath.Join(state, "memtui", "journal")); err != nil {
		t.Fatalf("no journal under XDG_STATE_HOME: %v", err)
	}

	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "undo", "--list")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != exitOK || len(lines) != 1 || !strings.Contains(lines[0], "absolutize-dates") {
		t.Fatalf("undo --list: exit %d\n%s", code, stdout)
	}
	id := strings.Fields(lines[0])[0]
	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "undo", "--list", "--json")
	if code != exitOK || !strings.Contains(stdout, `"id": "`+id+`"`) {
		t.Errorf("undo --list --json:\n%s", stdout)
	}

	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "undo", id)
	if code != exitOK || !strings.Contains(stdout, "undone "+id) {
		t.Fatalf("undo: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(file); string(b) != string(orig) {
		t.Fatalf("undo did not restore the file byte for byte:\n%s", b)
	}

	// Apply again, let an agent change the file, and undo must refuse.
	runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--kind", "absolutize-dates")
	_, stdout, _ = runCLI(t, e, "--config-dir", cfg, "undo", "--list")
	id = strings.Fields(stdout)[0]
	agent := "\nAn agent added this line afterwards.\n"
	f, _ := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(agent)
	f.Close()
	code, stdout, _ = runCLI(t, e, "--config-dir", cfg, "undo", id)
	if code != exitFindings || !strings.Contains(stdout, "not undone") {
		t.Errorf("undo after an agent's write: exit %d\n%s", code, stdout)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), "An agent added this line") {
		t.Error("undo overwrote the agent's write")
	}
}

func TestApplyOnlyAndReadonly(t *testing.T) {
	cfg, _, _ := proposerTree(t)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir())
	code, _, stderr := runCLI(t, e, "--config-dir", cfg, "dream", "--apply", "--yes", "--only", "merge-0000000000")
	if code != exitUsage || !strings.Contains(flat(stderr), "no proposal \"merge-0000000000\"") {
		t.Errorf("an unknown --only ID: exit %d %s", code, stderr)
	}
	code, _, stderr = runCLI(t, e, "--readonly", "--config-dir", cfg, "dream", "--apply", "--yes")
	if code != exitUsage || !strings.Contains(flat(stderr), "readonly") {
		t.Errorf("--readonly --apply: exit %d %s", code, stderr)
	}
}

func TestIndexCheck(t *testing.T) {
	code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--demo", "index", "acme-api", "--check")
	if code != exitFindings || !strings.Contains(stdout, "209/200 lines") || !strings.Contains(stdout, "CUT OFF: 5 lines never reach the agent") {
		t.Errorf("a cut index: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runCLI(t, env("HOME", t.TempDir()), "--demo", "index", "blog", "--check")
	if code != exitOK || !strings.Contains(stdout, "loads whole") || strings.Contains(stdout, "acme") {
		t.Errorf("a whole index: exit %d\n%s", code, stdout)
	}
}

// Moving an entry above the cut: the diff without --yes, the write with it,
// and the pipeline then loads the entry.
func TestIndexMoveAboveCut(t *testing.T) {
	cfg := t.TempDir()
	mem := filepath.Join(cfg, "projects", "-work-big", "memory")
	os.MkdirAll(mem, 0o755)
	var b strings.Builder
	for i := 0; i < 220; i++ {
		name := fmt.Sprintf("note_%03d.md", i)
		os.WriteFile(filepath.Join(mem, name), []byte(fmt.Sprintf("---\nname: note-%03d\ndescription: Note %d\ntype: project\n---\n\nNote number %d.\n", i, i, i)), 0o644)
		fmt.Fprintf(&b, "- [Note %d](%s) — note %d\n", i, name, i)
	}
	index := filepath.Join(mem, "MEMORY.md")
	os.WriteFile(index, []byte(b.String()), 0o644)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir())
	loaded := func() bool {
		raw, _ := os.ReadFile(index)
		return strings.Contains(claude.SimulateLoad(raw).Loaded, "(note_215.md)")
	}
	if loaded() {
		t.Fatal("the fixture's entry 215 already loads")
	}
	code, stdout, stderr := runCLI(t, e, "--config-dir", cfg, "index", "big", "--move-above-cut", "note_215.md")
	if code != exitOK || !strings.Contains(stdout, "+- [Note 215](note_215.md)") || !strings.Contains(stdout, "Not written") || loaded() {
		t.Fatalf("without --yes: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, e, "--config-dir", cfg, "index", "big", "--move-above-cut", "note_215.md", "--yes")
	if code != exitOK || !strings.Contains(stdout, "Written (journal") {
		t.Fatalf("--yes: exit %d\n%s%s", code, stdout, stderr)
	}
	if !loaded() {
		t.Error("after the move the pipeline still cuts note_215.md off")
	}
	code, _, stderr = runCLI(t, e, "--config-dir", cfg, "index", "big", "--move-above-cut", "nope.md")
	if code != exitUsage || !strings.Contains(flat(stderr), "no memory.md has an entry for nope.md") {
		t.Errorf("an unknown entry: exit %d %s", code, stderr)
	}
}

// On a table-style MEMORY.md, dream --kind reindex adds the orphan as a
// table row, the way the index editor's add writes it, not as a bullet
// under the table.
func TestDreamReindexTableIndex(t *testing.T) {
	cfg := t.TempDir()
	mem := filepath.Join(cfg, "projects", "-work-tbl", "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(mem, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"alpha", "beta", "gamma"} {
		write(n+".md", "---\nname: "+n+"\ndescription: What "+n+" holds\ntype: project\n---\n\nThe fact about "+n+", with enough words to be a memory.\n")
	}
	index := "# Memories\n\n| File | What it holds |\n|---|---|\n| `alpha.md` | What alpha holds |\n| `beta.md` | What beta holds |\n"
	write("MEMORY.md", index)
	code, stdout, stderr := runCLI(t, env("HOME", t.TempDir()), "--config-dir", cfg, "--now", "2026-11-21", "dream", "--kind", "reindex", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := decodeDream(t, stdout)
	if len(out.Proposals) != 1 {
		t.Fatalf("%d proposals, want 1: %s", len(out.Proposals), stdout)
	}
	var after string
	for _, c := range out.Proposals[0].Changes {
		if c.Path == "MEMORY.md" {
			after = c.After
		}
	}
	if want := index + "| `gamma.md` | What gamma holds |\n"; after != want {
		t.Errorf("MEMORY.md after:\n%s\nwant:\n%s", after, want)
	}
}

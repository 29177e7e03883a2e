package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/sessionfix"
)

// raceTree reproduces the lost-update race users describe: two agents
// work in one project at once; both read MEMORY.md, agent A adds an index
// entry (and its topic file) with Edit, then agent B writes the whole
// index from its stale read, adding its own entry and dropping A's.
func raceTree(t *testing.T) (cfg, memDir string) {
	t.Helper()
	cfg = t.TempDir()
	proj := filepath.Join(cfg, "projects", "-work-shop")
	memDir = filepath.Join(proj, "memory")
	if err := os.MkdirAll(memDir, 0o755); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(memDir, "MEMORY.md")
	search := filepath.Join(memDir, "project_search.md")
	staging := filepath.Join(memDir, "reference_staging.md")
	v0 := "# Memory\n\n- [Deploy](feedback_deploy.md) — make ship, never npm run deploy\n"
	lineA := "- [Search](project_search.md) — search moves to OpenSearch in Q1"
	lineB := "- [Staging](reference_staging.md) — staging lives on stg.test (VPN)"
	v1 := v0 + lineA + "\n"
	v2 := v0 + lineB + "\n"
	searchText := "---\nname: search-migration\ndescription: Search moves to OpenSearch in Q1\ntype: project\n---\n\nSearch moves from Postgres full-text to OpenSearch in Q1 2027.\n"
	stagingText := "---\nname: staging\ndescription: Where staging lives\ntype: reference\n---\n\nStaging lives on stg.test, VPN required.\n"

	t0 := time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC)
	a := sessionfix.New(proj, "aaaa1111-1d7b-4c3e-9a46-0b8e2f1d7c90", "/work/shop", "feat/search")
	b := sessionfix.New(proj, "bbbb2222-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "/work/shop", "main")
	a.Title("Plan the search migration")
	b.Title("Document staging access")
	a.Prompt(t0, "remember the search migration plan")
	b.Prompt(t0.Add(time.Second), "remember how to reach staging")
	a.Read(t0.Add(10*time.Second), index, v0)
	b.Read(t0.Add(12*time.Second), index, v0)
	a.Write(t0.Add(20*time.Second), search, searchText, "", true)
	a.Edit(t0.Add(30*time.Second), index, strings.TrimSuffix(v0, "\n"), strings.TrimSuffix(v0, "\n")+"\n"+lineA, v0)
	b.Write(t0.Add(40*time.Second), staging, stagingText, "", true)
	b.Write(t0.Add(50*time.Second), index, v2, v1, false)
	if err := a.Save(t0.Add(31 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(t0.Add(51 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for p, c := range map[string]string{index: v2, search: searchText, staging: stagingText,
		filepath.Join(memDir, "feedback_deploy.md"): "---\nname: deploy\ndescription: How to deploy\ntype: feedback\n---\n\nDeploy with `make ship`, never `npm run deploy`.\n"} {
		writeFile(t, p, c)
	}
	when := t0.Add(51 * time.Second)
	os.Chtimes(index, when, when)
	return cfg, memDir
}

func TestLostIndexLineIsFoundAndRestored(t *testing.T) {
	cfg, memDir := raceTree(t)
	e := env("HOME", t.TempDir(), "XDG_STATE_HOME", t.TempDir(), "XDG_CACHE_HOME", t.TempDir())
	args := []string{"--config-dir", cfg, "--now", "2026-11-21"}

	code, stdout, stderr := runCLI(t, e, append(args, "lint", "--json")...)
	if code == exitUsage {
		t.Fatalf("lint: exit %d\n%s", code, stderr)
	}
	var lost []string
	for _, f := range decodeLint(t, stdout).Findings {
		if f.Rule == "lost-update" {
			lost = append(lost, f.File+": "+f.Message)
		}
	}
	if len(lost) != 1 {
		t.Fatalf("want exactly one lost-update finding, got %d:\n%s\n%s", len(lost), strings.Join(lost, "\n"), stdout)
	}
	for _, want := range []string{"MEMORY.md: ", "[Search](project_search.md)", "aaaa1111", "Plan the search migration", "bbbb2222"} {
		if !strings.Contains(lost[0], want) {
			t.Errorf("the finding does not name %q:\n%s", want, lost[0])
		}
	}

	code, stdout, stderr = runCLI(t, e, append(args, "dream", "--kind", "restore-lost")...)
	if code != exitOK || !strings.Contains(stdout, "+- [Search](project_search.md) — search moves to OpenSearch in Q1") {
		t.Fatalf("dream --kind restore-lost: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, e, append(args, "dream", "--kind", "restore-lost", "--apply", "--yes")...)
	if code != exitOK || !strings.Contains(stdout, "applied   restore-lost-") {
		t.Fatalf("apply: exit %d\n%s%s", code, stdout, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(memDir, "MEMORY.md"))
	want := "# Memory\n\n- [Deploy](feedback_deploy.md) — make ship, never npm run deploy\n" +
		"- [Search](project_search.md) — search moves to OpenSearch in Q1\n" +
		"- [Staging](reference_staging.md) — staging lives on stg.test (VPN)\n"
	if string(got) != want {
		t.Fatalf("MEMORY.md after restore-lost:\n%s\nwant:\n%s", got, want)
	}

	_, stdout, _ = runCLI(t, e, append(args, "lint", "--json")...)
	for _, f := range decodeLint(t, stdout).Findings {
		if f.Rule == "lost-update" || f.Rule == "memory-orphan" && f.File == "project_search.md" {
			t.Errorf("still reported after the restore: %s %s: %s", f.Rule, f.File, f.Message)
		}
	}
}

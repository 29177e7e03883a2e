package hostile

import (
	"os"
	"path/filepath"
)

// buildCodex writes a Codex home (CodexHome) the way an attacker would
// leave it (codex-memory-format.md §1.2 for its shapes): escape sequences
// and a newline before a forged line in file and folder names and in
// every file Codex writes, a token in the summary, a config.toml that
// does not parse (a raw escape in a TOML string), Codex's .git baseline,
// a FIFO where a rollout summary goes, a symlink loop, and links out of
// the store to Outside and its folder. memtui reads the store (no link
// followed, the FIFO never opened) and prints nothing of it yet; every
// output is checked for what it must not show all the same.
func (t *Tree) buildCodex() error {
	t.CodexHome = filepath.Join(t.Root, "codex")
	mem := filepath.Join(t.CodexHome, "memories")
	tok := token("codex-summary")
	t.Secrets["the GitHub token in the Codex store's memory_summary.md"] = []string{tok}
	files := map[string]string{
		"memory_summary.md": "v1\n\n## User Profile\n" + All + " deploys with " + tok + "\n\n## User preferences\n- " + OSC0 + "\n",
		"MEMORY.md":         "# Task Group: " + OSC0 + Clear + "\nscope: " + OSC8 + "\napplies_to: cwd=/work/" + OSC52 + "; reuse_rule=never\n",
		"raw_memories.md":   "# Raw Memories\n\n## Thread `" + C1Erase + "`\ncwd: /work/" + Bidi + "\n",
		"extensions/ad_hoc/notes/2026-11-20T09-00-00-note" + OSC0 + "\n" + Forged + ".md": "note " + C1CSI + "\n",
		"skills/esc" + Erase + "/SKILL.md":                                                "---\nname: " + OSC8ST + "\n---\n",
		".git/HEAD":                                                                       "ref: refs/heads/main\n",
	}
	for rel, c := range files {
		p := filepath.Join(mem, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			return err
		}
	}
	cfg := "[features]\nmemories = true\n\n[memories]\nconsolidation_model = \"" + OSC0 + "\n" + Forged + "\"\n"
	if err := os.WriteFile(filepath.Join(t.CodexHome, "config.toml"), []byte(cfg), 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(mem, "rollout_summaries"), 0o755); err != nil {
		return err
	}
	if err := mkfifo(filepath.Join(mem, "rollout_summaries", "2026-11-20T09-00-00-pipe.md")); err != nil {
		return err
	}
	for link, target := range map[string]string{
		"loop" + OSC0:   "loop" + OSC0,
		"skills/out.md": t.Outside,
		"skills/out":    filepath.Dir(t.Outside),
	} {
		if err := os.Symlink(target, filepath.Join(mem, filepath.FromSlash(link))); err != nil {
			return err
		}
	}
	return t.buildCodexSessions()
}

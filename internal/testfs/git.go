package testfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// RequireGit returns the git binary, failing the test when there is none:
// the tests of stranded stores need real repositories and worktrees, made
// by git itself, and CI installs it, so a missing git is a broken setup,
// not a reason to skip silently.
func RequireGit(t testing.TB) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is needed to build the repositories of this test: %v", err)
	}
	return git
}

// Git runs git with args in dir, isolated from the user's and the
// system's git config (no signing, no hooks, a fixed identity), and
// returns its trimmed output; a failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	git := RequireGit(t)
	home := filepath.Join(os.TempDir(), "memtui-test-git-home")
	cmd := exec.Command(git, append([]string{
		"-c", "init.defaultBranch=main", "-c", "user.name=memtui test", "-c", "user.email=test@example.invalid",
		"-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null",
	}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+home,
		"GIT_AUTHOR_DATE=2026-11-01T10:00:00Z", "GIT_COMMITTER_DATE=2026-11-01T10:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Repo makes dir (parents included) a git repository with one commit
// (a README), so that worktrees can be added from it, and returns dir.
func Repo(t testing.TB, dir string) string {
	t.Helper()
	Write(t, filepath.Join(dir, "README.md"), "# test repository\n")
	Git(t, dir, "init", "-q")
	Git(t, dir, "add", "README.md")
	Git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

package memfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtui/memtui/internal/testfs"
)

func TestHeadCwd(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"bookkeeping first", []string{metaLine("summary"), metaLine("custom-title"), `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}`, msgLine("/home/al/acme")}, "/home/al/acme"},
		{"torn first line", []string{`{"parentUuid":null,"type":"user","cwd":"/home/al/tor`, msgLine("/home/al/acme")}, "/home/al/acme"},
		{"garbage line", []string{"\x00\x01 not json", msgLine("/x/y")}, "/x/y"},
		{"nested cwd is not top level", []string{`{"type":"assistant","message":{"content":[{"type":"tool_use","input":{"cwd":"/nested"}}]},"uuid":"u"}`, msgLine("/top")}, "/top"},
		{"relative cwd ignored", []string{`{"type":"user","cwd":"rel/dir"}`, msgLine("/abs")}, "/abs"},
		{"no cwd", []string{metaLine("summary")}, ""},
		{"empty", nil, ""},
	}
	buf := make([]byte, headBytes)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := transcript(t, dir, strings.ReplaceAll(c.name, " ", "_")+".jsonl", now, c.lines...)
			if got := headCwd(p, buf); got != c.want {
				t.Errorf("headCwd = %q, want %q", got, c.want)
			}
		})
	}
}

// TestHeadCwdWindow: a cwd past the first 64 KiB is not read, so a huge
// first line cannot make discovery slow.
func TestHeadCwdWindow(t *testing.T) {
	dir := t.TempDir()
	big := `{"type":"queue-operation","content":"` + strings.Repeat("x", headBytes) + `"}`
	p := transcript(t, dir, "big.jsonl", time.Now(), big, msgLine("/late"))
	if got := headCwd(p, make([]byte, headBytes)); got != "" {
		t.Errorf("read past the window: %q", got)
	}
}

func TestConfirmRoot(t *testing.T) {
	dir := t.TempDir()
	old, mid, recent := time.Now().Add(-3*time.Hour), time.Now().Add(-2*time.Hour), time.Now().Add(-time.Hour)
	slug := "-home-al-acme"
	// The newest transcript was started in a subdirectory that happened to
	// keep this slug dir (it would not, but its cwd must not be taken), the
	// next one confirms.
	transcript(t, dir, uuid1+".jsonl", recent, metaLine("summary"), msgLine("/home/al/acme/sub"))
	transcript(t, dir, uuid2+".jsonl", mid, msgLine("/home/al/acme"))
	transcript(t, dir, uuid3+".jsonl", old, msgLine("/home/al/other"))
	testfs.Write(t, filepath.Join(dir, "notes.txt"), "x")
	testfs.Mkdir(t, filepath.Join(dir, uuid1)) // subagents dir of a session
	td := listTranscripts(dir)
	if len(td.sessions) != 3 || !td.sessions[uuid1] || !td.sessions[uuid3] {
		t.Errorf("sessions = %v", td.sessions)
	}
	if len(td.newest) != 3 || filepath.Base(td.newest[0]) != uuid1+".jsonl" || filepath.Base(td.newest[2]) != uuid3+".jsonl" {
		t.Errorf("newest = %v", td.newest)
	}
	if got := confirmRoot(td.newest, slug, false); got != "/home/al/acme" {
		t.Errorf("confirmRoot = %q", got)
	}
	if got := confirmRoot(td.newest, "-home-al-nothere", false); got != "" {
		t.Errorf("unconfirmed slug got root %q", got)
	}
	if got := confirmRoot(td.newest, "work", true); got != "/home/al/acme/sub" {
		t.Errorf("CLAUDE_CODE_PROJECT_DIR_NAME project: %q", got)
	}
}

// TestListTranscriptsCapsHeads: only the newest headFiles transcripts are
// candidates, and legacy agent-*.jsonl files are not sessions.
func TestListTranscriptsCapsHeads(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for i := 0; i < 8; i++ {
		name := strings.Replace(uuid1, "0b0e", "0b0"+string(rune('0'+i)), 1) + ".jsonl"
		transcript(t, dir, name, base.Add(time.Duration(i)*time.Minute), msgLine("/a"))
	}
	transcript(t, dir, "agent-a2271d1.jsonl", base.Add(time.Hour), msgLine("/a"))
	td := listTranscripts(dir)
	if len(td.sessions) != 8 || td.sessions["agent-a2271d1"] {
		t.Errorf("sessions: %d %v", len(td.sessions), td.sessions["agent-a2271d1"])
	}
	if len(td.newest) != headFiles || filepath.Base(td.newest[0]) != "agent-a2271d1.jsonl" {
		t.Errorf("newest = %v", td.newest)
	}
	if _, err := os.Stat(td.newest[1]); err != nil {
		t.Error(err)
	}
}

// TestSlugMatcher: the precomputed matcher and slugMatches match exactly
// the pairs Claude Code would name (cwd index, slug index).
func TestSlugMatcher(t *testing.T) {
	long := "/home/u/" + strings.Repeat("deep/", 50) + "memory"
	cwds := []string{"/home/u/app", `D:\work\shop`, "/home/u/.claude/projects/-home-u-app/memory", long}
	slugs := []string{"-home-u-app", "-home-u-apple", "d--work-shop", "D--work-shop", "D--work-sho",
		"-home-u--claude-projects--home-u-app-memory", sanitizePath(long)[:maxSanitizedLength] + "-1x2y3z",
		sanitizePath(long)[:maxSanitizedLength], sanitizePath(long)}
	match := map[[2]int]bool{{0, 0}: true, {1, 2}: true, {1, 3}: true, {2, 5}: true, {3, 6}: true}
	for ci, c := range cwds {
		m := SlugMatcher(c)
		for si, s := range slugs {
			want := match[[2]int{ci, si}]
			if got := m(s); got != want {
				t.Errorf("SlugMatcher(%q)(%q) = %v, want %v", c, s, got, want)
			}
			if got := slugMatches(c, s); got != want {
				t.Errorf("slugMatches(%q, %q) = %v, want %v", c, s, got, want)
			}
		}
	}
}

// TestShapeWindowsRoot: a project whose transcripts come from Windows
// shows the Windows cwd as its real path wherever memtui runs, whichever
// case the drive letter was launched with; its settings are not looked for
// on this machine.
func TestShapeWindowsRoot(t *testing.T) {
	w := newWorld(t)
	dir := testfs.Mkdir(t, filepath.Join(w.config, "projects", "D--Work-app"))
	testfs.Mkdir(t, filepath.Join(dir, "memory"))
	transcript(t, dir, uuid1+".jsonl", time.Date(2026, 5, 2, 8, 0, 0, 0, time.UTC), metaLine("summary"), msgLine(`d:\Work\app`))
	p := findProject(t, w.discover(), "D--Work-app")
	if p.Root != `D:\Work\app` || p.Name() != `D:\Work\app` {
		t.Errorf("Root = %q, Name = %q, want the Windows path", p.Root, p.Name())
	}
	if slugMatches(`D:\Work\ap`, "D--Work-app") || slugMatches(`/d/Work/app`, "D--Work-app") {
		t.Error("a cwd of another slug was accepted")
	}
	for in, want := range map[string]string{`d:/work/shop/`: `D:\work\shop`, `C:\`: `C:\`, `e:\a\..\b`: `E:\b`} {
		if got := cleanCwd(in); got != want {
			t.Errorf("cleanCwd(%q) = %q, want %q", in, got, want)
		}
	}
}

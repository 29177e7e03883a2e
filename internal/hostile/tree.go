// Package hostile builds a Claude Code config directory the way an attacker
// (or an unlucky machine) would leave it, for the hostile-tree tests of the
// root and ui packages (issue 11): escape sequences in file names,
// frontmatter, bodies, index lines and a transcript's cwd; secrets in a PEM
// block, a file name, a lost-update text and a git branch; binary, UTF-16
// and NUL-laden files; a hardlink, a symlink out of the memory dir, a
// repository's settings pointing autoMemoryDirectory elsewhere, and a few
// hundred distinct numbered memories that must never be merged; beside
// it, a Codex home with the same attacks in its store (codex.go).
//
// It is also the one home of the attack strings, the fixed fake token
// and key, and the checks (Controls, FakeLeaks) of the inject tests of
// both packages, which build smaller trees by hand.
//
// Every file is written by hand in the shapes claude-memory-format.md and
// transcript-format.md describe. It lives outside the _test files only so
// both test packages can share it; nothing else imports it.
package hostile

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/memtui/memtui/internal/sessionfix"
)

// The escape sequences of the issue, each one an attack on the terminal.
// Some come in more than one form (how a sequence ends, which final
// byte), as a sanitizer must catch each of them.
const (
	OSC52 = "\x1b]52;c;aGVsbG8=\a" // writes the clipboard
	OSC0  = "\x1b]0;pwned-title\a" // sets the window title
	// OSC0Short sets a short title: what follows it in a text memtui
	// cuts (a session's title, a cwd in a narrow column) still shows,
	// so a test can check how that is shown (a token after it masked).
	OSC0Short = "\x1b]0;owned\a"
	// Erase clears the screen; Clear also moves the cursor home.
	Erase = "\x1b[2J"
	Clear = Erase + "\x1b[H"
	// OSC8 is a hyperlink whose sequences end with BEL; OSC8ST the same
	// with ST (ESC \).
	OSC8   = "\x1b]8;;https://evil.example/\aclick\x1b]8;;\a"
	OSC8ST = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\"
	// C1CSI is an 8-bit CSI (one rune, U+009B) that colours, C1Erase one
	// that clears the screen.
	C1CSI   = "\u009b31m"
	C1Erase = "\u009b2J"
	// RLO is a right-to-left override left open: it reverses all that
	// follows on the line. Bidi is one closed again (PDF), around a word.
	RLO  = "\u202e"
	Bidi = RLO + "gnp.exe\u202c"
	// All is every one of them in a row.
	All = OSC52 + OSC0 + Clear + OSC8 + OSC8ST + C1CSI + C1Erase + Bidi
)

// Forged is what follows the newline in a file name: were the name printed
// raw, an output line would start with it.
const Forged = "FORGEDLINE [error] memory-stub owned.md"

// Now is the "today" the tests pin with --now.
var Now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// Tree is a built hostile tree. Every path is absolute.
type Tree struct {
	// Root holds everything the tree owns: the config dir, both project
	// roots, the override dir and the outside file. A read-only command
	// must leave every byte and mtime under it as it was.
	Root   string
	Config string
	// Evil is the memory dir with most attacks; EvilRoot its project root
	// (the cwd its transcripts record), which holds .claude/settings.json.
	Evil, EvilSlug, EvilRoot string
	// Esc is the memory dir of a project whose recorded cwd (EscRoot, a
	// directory that exists) holds escape sequences.
	Esc, EscSlug, EscRoot string
	// Stranded is a memory dir no session loads (store-stranded): a
	// session launched in StrandRoot, a subdirectory of EscRoot (a
	// repository's root), wrote it; Esc is where its memory belongs
	// (store-has-stranded). Both paths hold escapes.
	Stranded, StrandRoot string
	// Override is where EvilRoot's settings.json points autoMemoryDirectory.
	Override string
	// Outside is a file outside every memory dir; Marker is text only it
	// holds, beside a token (in Secrets). Evil/LinkOutside is a symlink to
	// it, which Claude Code's scan follows: memtui shows the file, masked.
	Outside, Marker, LinkOutside string
	// LinkInside is a symlink in Evil to Plain, another memory.
	LinkInside string
	// LinkedTranscript is a subagent transcript in Esc's project dir that
	// is a symlink to Outside: the reader refuses it, and the problem it
	// reports names it, escapes, a forged line and a secret included.
	LinkedTranscript string
	// Secrets maps a label ("the PEM key in pem_live.md") to a secret no
	// output may show, or to every line of a multi-line one (none of which
	// may show).
	Secrets map[string][]string
	// File names inside Evil, by attack.
	EscName, NewlineName, SecretName, Binary, UTF16, NUL, Hardlink, CutNote, Plain string
	// HardlinkOther is the hardlinked file's other name (in EvilRoot).
	HardlinkOther string
	// Numbered are the distinct numbered memories (file names in Evil).
	Numbered []string
	// Victims are files in Evil with a relative date, for a real apply.
	Victims []string
	// JournalTarget is the file in Evil an escape-titled proposal rewrites
	// (JournalTitle).
	JournalTarget string
	// Lock is Evil's .consolidate-lock, held by a dead PID, with mtime
	// LockTime (three days before the run).
	Lock     string
	LockTime time.Time
	// RedactTime is the mtime of Esc/pem_redacted.md, JournalTime that
	// of Evil/JournalTarget before JournalTitle rewrites it.
	RedactTime, JournalTime time.Time
	// Settings is the config dir's own settings.json, where hook install
	// and uninstall write: escape sequences in its values (raw C1 and bidi
	// characters, which JSON allows, and JSON-escaped ESC sequences a
	// decoder turns into raw ones), a token in its env beside the hooks,
	// another tool's hooks, and a memtui hook of an old path full of
	// escapes and a newline before a forged line, which an install
	// replaces and an uninstall removes (both name it).
	Settings string
	// CodexHome is a Codex home under Root whose memories/ holds the
	// attacks a Codex store can (buildCodex); the runs name it with
	// --codex-home.
	CodexHome string
	// MemoryStores is the CLAUDE_MEMORY_STORES the runs set: one team
	// store of Esc's memory dir, mounted at a folder whose name holds
	// escapes, with an index full of escapes and a secret.
	MemoryStores string
}

// token makes a GitHub-token-shaped secret unique to label.
func token(label string) string {
	return "ghp_" + alnum(label, 36)
}

// alnum is n letters and digits derived from seed.
func alnum(seed string, n int) string {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	var b strings.Builder
	h := sha256.Sum256([]byte(seed))
	for i := 0; b.Len() < n; i++ {
		if i == len(h) {
			h = sha256.Sum256(h[:])
			i = 0
		}
		b.WriteByte(chars[int(h[i])%len(chars)])
	}
	return b.String()
}

// pem is an RSA private key block (random-looking, not a key) and its
// body lines.
func pem(seed string) (block string, body []string) {
	h := sha256.Sum256([]byte(seed))
	var raw []byte
	for len(raw) < 9*48 {
		raw = append(raw, h[:]...)
		h = sha256.Sum256(h[:])
	}
	enc := base64.StdEncoding.EncodeToString(raw)
	for len(enc) > 0 {
		n := min(64, len(enc))
		body = append(body, enc[:n])
		enc = enc[n:]
	}
	return "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Join(body, "\n") + "\n-----END RSA PRIVATE KEY-----", body
}

// slug is Claude Code's sanitizePath for an ASCII path no longer than 200.
func slug(p string) string {
	return regexp.MustCompile(`[^a-zA-Z0-9]`).ReplaceAllString(p, "-")
}

// SHA is the hex sha256 of s.
func SHA(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func memory(name, desc, typ, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\ntype: " + typ + "\n---\n\n" + body
}

// Build writes the first state of the tree under root (which must exist):
// what a review baseline sees. Grow then writes the attacks. numbered is
// how many distinct numbered memories to plant.
func Build(root string, numbered int) (*Tree, error) {
	t := &Tree{Root: root, Config: filepath.Join(root, "claude"), Secrets: map[string][]string{}}
	t.EvilRoot = filepath.Join(root, "work", "evil")
	t.EvilSlug = slug(t.EvilRoot)
	t.Evil = filepath.Join(t.Config, "projects", t.EvilSlug, "memory")
	t.EscRoot = filepath.Join(root, "work", "esc"+OSC0+"\x1b[2J")
	t.EscSlug = slug(t.EscRoot)
	t.Esc = filepath.Join(t.Config, "projects", t.EscSlug, "memory")
	t.Override = filepath.Join(root, "elsewhere", "memory")
	t.Outside = filepath.Join(root, "outside", "private-notes.md")
	t.Marker = "OUTSIDE-MARKER-" + alnum("outside", 12)
	t.Plain = "feedback_plain.md"
	t.JournalTarget = "journal_target.md"
	for _, d := range []string{t.Evil, t.Esc, t.Override, t.EscRoot, filepath.Join(t.EvilRoot, ".claude"), filepath.Dir(t.Outside)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	outsideTok := token("outside")
	t.Secrets["the GitHub token in the file outside the memory dir (link_outside.md leads to it)"] = []string{outsideTok}
	settingsTok := token("settings")
	t.Secrets["the GitHub token in the config dir's settings.json env"] = []string{settingsTok}
	t.Settings = filepath.Join(t.Config, "settings.json")
	esc := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	settingsText := "{\n" +
		"  \"model\": " + esc("opus"+C1CSI+Bidi+OSC52) + ",\n" +
		"  \"hooks\": {\n" +
		"    \"PreToolUse\": [\n" +
		"      {\"matcher\": " + esc("Bash"+OSC0) + ", \"hooks\": [{\"type\": \"command\", \"command\": " + esc("echo "+Clear+"\n"+Forged) + "}]}\n" +
		"    ],\n" +
		"    \"Stop\": [\n" +
		"      {\"hooks\": [{\"type\": \"command\", \"command\": " + esc("'/opt/"+OSC0+"\n"+Forged+"/memtui' snapshot") + "}]}\n" +
		"    ]\n" +
		"  },\n" +
		"  \"env\": {\"GITHUB_TOKEN\": \"" + settingsTok + "\", \"NOTE\": " + esc(C1Erase+RLO+OSC8) + "}\n" +
		"}\n"
	pemOld, bodyOld := pem("redacted-later")
	t.Secrets["the PEM key in pem_redacted.md (redacted by the setup's apply)"] = bodyOld
	files := map[string]string{
		filepath.Join(t.Evil, "MEMORY.md"): "# Memory\n\n- [Plain](feedback_plain.md) — keep commits small\n- [Journal](journal_target.md) — rewritten by a proposal\n",
		filepath.Join(t.Evil, t.Plain):     memory("plain", "Keep commits small", "feedback", "Keep commits small.\n\n**Why:** reviews stay quick.\n"),
		// No type: JournalTitle's proposal adds one, a pure frontmatter fix.
		filepath.Join(t.Evil, t.JournalTarget):  "---\nname: journal-target\ndescription: Fixed by an escape-titled proposal\n---\n\nText.\n",
		filepath.Join(t.Esc, "MEMORY.md"):       "# Memory\n\n- [Key](pem_redacted.md) — the old deploy key\n",
		filepath.Join(t.Esc, "pem_redacted.md"): memory("old-key", "The old deploy key", "reference", "The old deploy key:\n\n"+pemOld+"\n"),
		t.Outside:                               memory("outside", "Not a memory", "user", t.Marker+" lives outside every memory dir, with the token "+outsideTok+".\n"),
		filepath.Join(t.EvilRoot, "README.md"):  "a project\n",
		t.Settings:                              settingsText,
	}
	// A memory in a folder Claude Code's scan skips (a dot folder), whose
	// name holds escapes: the reason the scan gives names the folder.
	skipped := filepath.Join(t.Evil, ".drafts"+OSC0)
	if err := os.MkdirAll(skipped, 0o755); err != nil {
		return nil, err
	}
	files[filepath.Join(skipped, "draft.md")] = memory("draft", "A draft \x1b[31mnever scanned", "project", "Draft.\n")
	mount := "web" + OSC0 + "\x1b[2J"
	storeTok := token("store-index")
	t.Secrets["the GitHub token in the team store's index (team/<mount>/MEMORY.md of Esc)"] = []string{storeTok}
	if err := os.MkdirAll(filepath.Join(t.Esc, "team", mount), 0o755); err != nil {
		return nil, err
	}
	files[filepath.Join(t.Esc, "team", mount, "MEMORY.md")] = "# Team " + OSC0 + "\n\n- [Deploy](deploy.md) — token " + storeTok + " \x1b[31mred\x1b[0m\u2028\r\n"
	files[filepath.Join(t.Esc, "team", mount, "deploy.md")] = memory("deploy"+OSC0, "Deploy \x1b[1mnow", "project", "Ship it.\n")
	stores, err := json.Marshal([]map[string]any{{"path": "org/" + mount, "scope": "team", "mount": mount, "promptIndexMaxBytes": 10}})
	if err != nil {
		return nil, err
	}
	t.MemoryStores = string(stores)
	for p, c := range files {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			return nil, err
		}
	}
	// Claude Code consolidated Evil three days ago: its lock names a PID
	// long gone, and its mtime is the autoDream clock.
	t.Lock = filepath.Join(t.Evil, ".consolidate-lock")
	if err := os.WriteFile(t.Lock, []byte("4194303"), 0o644); err != nil {
		return nil, err
	}
	t.LockTime = time.Now().Add(-72 * time.Hour).Truncate(time.Second)
	if err := os.Chtimes(t.Lock, t.LockTime, t.LockTime); err != nil {
		return nil, err
	}
	// The key to be redacted was written in June: its mtime is what the
	// stale-memory clock counts from.
	t.RedactTime = time.Date(2026, 6, 10, 9, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(t.Esc, "pem_redacted.md"), t.RedactTime, t.RedactTime); err != nil {
		return nil, err
	}
	t.JournalTime = time.Date(2026, 5, 1, 8, 30, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(t.Evil, t.JournalTarget), t.JournalTime, t.JournalTime); err != nil {
		return nil, err
	}
	t.Numbered = make([]string, numbered)
	for i := range t.Numbered {
		t.Numbered[i] = fmt.Sprintf("project_ticket_%03d.md", i+1)
	}
	if err := t.buildCodex(); err != nil {
		return nil, err
	}
	return t, nil
}

// Grow writes the attacks into a tree Build made: the state a later look
// finds, after agents and cloned repositories wrote to it.
func (t *Tree) Grow() error {
	pemLive, bodyLive := pem("live")
	t.Secrets["the PEM key in pem_live.md"] = bodyLive
	secret := func(label, s string) string {
		t.Secrets[label] = []string{s}
		return s
	}
	nameTok := secret("the GitHub token in a file name", token("file-name"))
	bodyTok := secret("the GitHub token in a body", token("body"))
	branchTok := secret("the GitHub token in a git branch name", token("branch"))
	lostTok := secret("the GitHub token in a lost-update text", token("lost"))
	descTok := secret("the GitHub token in a description", token("description"))
	awsKey := secret("the aws_secret_access_key value", alnum("aws", 20)+"/"+alnum("aws2", 19))

	t.EscName = "esc" + Clear + OSC0 + "name.md"
	t.NewlineName = "forged\n" + Forged
	t.SecretName = "reference_" + nameTok + ".md"
	t.Binary = "binary_blob.md"
	t.UTF16 = "utf16_note.md"
	t.NUL = "nul_note.md"
	t.Hardlink = "feedback_linked.md"
	t.HardlinkOther = filepath.Join(t.EvilRoot, "linked-notes.md")
	t.CutNote = "cut_note.md"
	t.LinkOutside = "link_outside.md"
	t.LinkInside = "link_inside.md"
	t.Victims = []string{"project_launch.md", t.Hardlink}

	files := map[string]string{
		"osc52_note.md": memory("clip"+OSC52, "Clipboard "+OSC52+" and title "+OSC0, "project",
			"We launch tomorrow.\n\nBody with "+OSC52+" a clipboard write.\n"),
		"title_note.md": memory("title", "Sets the title "+OSC0, "project", "Title "+OSC0+" in the body.\nsafe text\rEVIL OVERWRITE\n"),
		"clear_note.md": memory("clear", "Clears "+Clear+" the screen", "feedback", "Clear "+Clear+" and bell \a and delete \x7f.\n"),
		"link_note.md":  memory("link", "A link "+OSC8, "reference", "See "+OSC8+" for details.\n"),
		"c1_note.md":    memory("c1", "An 8-bit CSI "+C1CSI+" here", "reference", "Text "+C1CSI+" with a C1 CSI.\n"),
		"bidi_note.md":  memory("bidi", "Reversed "+Bidi+" text", "user", "Open "+Bidi+" now.\n"),
		t.EscName:       "---\nname: escaped-name\ndescription: A file whose name holds escapes\n---\n\nNo type, so a finding names this file.\n",
		t.NewlineName:   "No frontmatter at all, so lint names this file.\n",
		t.SecretName: memory("vault", "Vault access "+descTok, "reference",
			"The vault token is "+bodyTok+".\n"),
		"pem_live.md":       memory("deploy-key", "The deploy key for prod", "reference", "The deploy key:\n\n"+pemLive+"\n"),
		"aws_note.md":       memory("aws", "AWS credentials for the backup job", "reference", "aws_secret_access_key = "+awsKey+"\n"),
		t.Binary:            "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + binaryBytes(),
		t.UTF16:             utf16LE("Remember: the build uses tabs, not spaces.\n"),
		t.NUL:               memory("nul", "Holds \x00 NUL and \xff\xfe invalid bytes", "user", "Body \x00\x00 with NULs.\n"),
		t.CutNote:           memory("cut", "Below the cut "+OSC52, "project", "A memory whose index line lies below the cut.\n"),
		"project_launch.md": memory("launch", "When the portal launches", "project", "We launch tomorrow.\n"),
		// In no index line: a reindex adds its hook from the description.
		"orphan_esc.md": memory("orphan", "Orphan "+OSC52+" hook "+OSC0, "user", "Nobody links here.\n"),
	}
	for name, c := range files {
		if err := os.WriteFile(filepath.Join(t.Evil, name), []byte(c), 0o644); err != nil {
			return err
		}
	}
	for i, name := range t.Numbered {
		n := i + 1
		// Distinct facts (each a different ticket) in the same words.
		c := memory(fmt.Sprintf("ticket %d", n), fmt.Sprintf("Ticket %d is assigned to the platform team", n), "project",
			fmt.Sprintf("Ticket %d is assigned to the platform team and due in sprint %d.\n", n, n))
		if err := os.WriteFile(filepath.Join(t.Evil, name), []byte(c), 0o644); err != nil {
			return err
		}
	}
	// A memory file with a second name outside the memory dir.
	if err := os.WriteFile(t.HardlinkOther, []byte(memory("linked", "Also linked from the project", "feedback", "The review is tomorrow.\n")), 0o644); err != nil {
		return err
	}
	if err := os.Link(t.HardlinkOther, filepath.Join(t.Evil, t.Hardlink)); err != nil {
		return err
	}
	if err := os.Symlink(t.Outside, filepath.Join(t.Evil, t.LinkOutside)); err != nil {
		return err
	}
	// A link to another memory, inside the dir: Claude Code's scan
	// follows it, so memtui reads it, and a write must never go through it.
	if err := os.Symlink(t.Plain, filepath.Join(t.Evil, t.LinkInside)); err != nil {
		return err
	}

	// The index: every escape in a line of its own, the numbered steps
	// (past the 200-line cap), then one more entry below the cut. The
	// file with a secret in its name and the NUL file are orphans, so a
	// reindex would add them.
	var ix strings.Builder
	ix.WriteString("# Memory\n\n- [Plain](feedback_plain.md) — keep commits small\n- [Journal](journal_target.md) — rewritten by a proposal\n")
	ix.WriteString("- [Clipboard " + OSC52 + "](osc52_note.md) — hook " + OSC52 + "\n")
	ix.WriteString("- [Title](title_note.md) — " + OSC0 + " sets the window title\n")
	ix.WriteString("- [Clear](clear_note.md) — " + Clear + " clears the screen\n")
	ix.WriteString("- [Link](link_note.md) — " + OSC8 + "\n")
	ix.WriteString("- [C1](c1_note.md) — " + C1CSI + " eight-bit CSI\n")
	ix.WriteString("- [Bidi](bidi_note.md) — " + Bidi + " reversed\n")
	ix.WriteString("- [Escaped name](" + t.EscName + ") — a file name with escapes\n")
	ix.WriteString("- [Launch](project_launch.md) — when the portal launches\n")
	ix.WriteString("- [Deploy key](pem_live.md) — the deploy key\n")
	ix.WriteString("- [AWS](aws_note.md) — backup credentials\n")
	ix.WriteString("- [Linked](feedback_linked.md) — review date\n")
	ix.WriteString("- [Outside](link_outside.md) — a link out\n")
	ix.WriteString("- [Blob](binary_blob.md) — binary\n- [UTF-16](utf16_note.md) — tabs\n")
	// The first line past the 200-line cut is quoted in Claude Code's
	// warning, clipped at 80 characters: there it holds a token the clip
	// cuts through (what is left of it is no longer a token to a scanner;
	// none of it may show) and escapes.
	quoteTok := token("quoted in the warning")
	t.Secrets["the GitHub token in the line Claude Code's warning quotes, clipped"] = []string{quoteTok[:24]}
	above := strings.Count(ix.String(), "\n")
	for i, name := range t.Numbered {
		if above+i == 200 {
			fmt.Fprintf(&ix, "- [Ticket %d](%s) %s%s %s\n", i+1, name, C1CSI, quoteTok, OSC52)
			continue
		}
		fmt.Fprintf(&ix, "- [Ticket %d](%s) — platform team, sprint %d\n", i+1, name, i+1)
	}
	// (no "]" in its title: an OSC's would end the link text early)
	ix.WriteString("- [Cut " + Clear + C1CSI + "](" + t.CutNote + ") — below the cut " + OSC52 + OSC0 + Bidi + "\n")
	index := ix.String()

	// The repository's own settings send memory elsewhere.
	settings, _ := json.Marshal(map[string]string{"autoMemoryDirectory": t.Override})
	for p, c := range map[string]string{
		filepath.Join(t.EvilRoot, ".claude", "settings.json"): string(settings) + "\n",
		filepath.Join(t.Override, "MEMORY.md"):                "# Memory\n\n- [Override](override_note.md) — " + OSC52 + "\n",
		filepath.Join(t.Override, "override_note.md"):         memory("override", "From a cloned repo's settings "+OSC0, "project", "The demo is tomorrow "+Clear+".\n"),
	} {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			return err
		}
	}

	// Two agents race on MEMORY.md: A adds a line holding a secret and
	// escapes, B writes the whole index from its stale read and drops it.
	// A's branch name holds a secret, its title escapes.
	proj := filepath.Dir(t.Evil)
	indexPath := filepath.Join(t.Evil, "MEMORY.md")
	v0, err := os.ReadFile(indexPath)
	if err != nil {
		return err
	}
	lost := "- [Vault](reference_vault.md) — vault token " + lostTok + " " + OSC52
	vault := memory("vault-token", "Where the vault token lives", "reference", "Ask ops for the vault token.\n")
	t0 := Now.Add(-20 * time.Hour)
	a := sessionfix.New(proj, "aaaa1111-1d7b-4c3e-9a46-0b8e2f1d7c90", t.EvilRoot, "feat/"+branchTok)
	b := sessionfix.New(proj, "bbbb2222-4e5f-4a6b-8c7d-9e0f1a2b3c4d", t.EvilRoot, "main"+OSC0)
	a.Title("Plan " + OSC0 + " the vault " + OSC52)
	b.Title("Rebuild " + Clear + " the index")
	a.Prompt(t0, "remember the vault")
	b.Prompt(t0.Add(time.Second), "rebuild the index")
	a.Read(t0.Add(10*time.Second), indexPath, string(v0))
	b.Read(t0.Add(12*time.Second), indexPath, string(v0))
	vaultPath := filepath.Join(t.Evil, "reference_vault.md")
	a.Write(t0.Add(20*time.Second), vaultPath, vault, "", true)
	v1 := strings.TrimSuffix(string(v0), "\n") + "\n" + lost
	a.Edit(t0.Add(30*time.Second), indexPath, strings.TrimSuffix(string(v0), "\n"), v1, string(v0))
	b.Write(t0.Add(50*time.Second), indexPath, index, v1+"\n", false)
	// B also wrote the escape-laden notes, so provenance names it.
	b.Write(t0.Add(55*time.Second), filepath.Join(t.Evil, "osc52_note.md"), files["osc52_note.md"], "", true)
	if err := a.Save(t0.Add(31 * time.Second)); err != nil {
		return err
	}
	if err := b.Save(t0.Add(56 * time.Second)); err != nil {
		return err
	}
	if err := os.WriteFile(vaultPath, []byte(vault), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(indexPath, []byte(index), 0o644); err != nil {
		return err
	}
	when := t0.Add(51 * time.Second)
	if err := os.Chtimes(indexPath, when, when); err != nil {
		return err
	}

	// The project whose recorded cwd holds escapes writes one note.
	escNote := memory("esc-note", "Written from a hostile cwd", "project", "Written in "+t.EscRoot+".\n")
	c := sessionfix.New(filepath.Dir(t.Esc), "cccc3333-0000-4000-8000-000000000003", t.EscRoot, "dev"+Clear)
	c.Title("Work in " + OSC52)
	c.Prompt(t0, "note where we are")
	c.Write(t0.Add(5*time.Second), filepath.Join(t.Esc, "esc_note.md"), escNote, "", true)
	if err := c.Save(t0.Add(6 * time.Second)); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(t.Esc, "esc_note.md"), []byte(escNote), 0o644); err != nil {
		return err
	}
	// EscRoot is a repository's root, and a session launched in a
	// subdirectory of it (whose name holds escapes) wrote into the
	// subdirectory's own store, which Claude Code never loads: both
	// stores' findings name the two folders (facts §12.1).
	t.StrandRoot = filepath.Join(t.EscRoot, "web"+OSC52+"\x1b[2J")
	t.Stranded = filepath.Join(t.Config, "projects", slug(t.StrandRoot), "memory")
	for _, d := range []string{filepath.Join(t.EscRoot, ".git"), t.StrandRoot, t.Stranded} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	strandNote := memory("strand"+OSC0, "Written from a subdirectory "+Clear, "project", "Written in "+t.StrandRoot+".\n")
	sd := sessionfix.New(filepath.Dir(t.Stranded), "dddd4444-0000-4000-8000-000000000004", t.StrandRoot, "dev")
	sd.Prompt(t0, "note the styles")
	sd.Write(t0.Add(5*time.Second), filepath.Join(t.Stranded, "strand_note.md"), strandNote, "", true)
	if err := sd.Save(t0.Add(6 * time.Second)); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(t.Stranded, "strand_note.md"), []byte(strandNote), 0o644); err != nil {
		return err
	}
	// Its index links the note (no "]" in the title: an OSC's would end
	// the link text early), so the store is whole and only stranded.
	if err := os.WriteFile(filepath.Join(t.Stranded, "MEMORY.md"), []byte("- [Styles "+Clear+C1CSI+"](strand_note.md) — "+OSC52+"\n"), 0o644); err != nil {
		return err
	}
	t.LinkedTranscript = filepath.Join(filepath.Dir(t.Esc), "agent-"+OSC52+"\n"+Forged+" "+secret("the GitHub token in a transcript's name", token("transcript"))+".jsonl")
	if err := os.Symlink(t.Outside, t.LinkedTranscript); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(t.Esc, "MEMORY.md"), []byte("# Memory\n\n- [Key](pem_redacted.md) — the old deploy key\n- [Here "+OSC0+"](esc_note.md) — "+OSC52+"\n"), 0o644)
}

// binaryBytes is every byte value, twice.
func binaryBytes() string {
	var b []byte
	for i := 0; i < 512; i++ {
		b = append(b, byte(i))
	}
	return string(b)
}

// utf16LE encodes s as UTF-16 little-endian with a byte-order mark, as
// Windows editors save it.
func utf16LE(s string) string {
	u := utf16.Encode([]rune(s))
	b := []byte{0xff, 0xfe}
	for _, r := range u {
		b = binary.LittleEndian.AppendUint16(b, r)
	}
	return string(b)
}

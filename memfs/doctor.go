package memfs

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/memtui/memtui/model/claude"
)

// Choice is how Claude Code chooses the auto-memory dir, and whether it
// keeps auto memory and autoDream on, for sessions launched in one folder
// under one config dir (facts §1.1–§1.4, §6.1), as far as memtui can see:
// its own environment stands for the sessions' (a session launched from
// another shell may differ), and the workspace trust Claude Code asks for
// before it reads a repository's own settings is assumed given.
type Choice struct {
	// Dir is the directory Claude Code uses, with no trailing separator.
	Dir string `json:"dir"`
	// By says what chose it: the variable, the setting, or the default.
	By string `json:"chosen_by"`
	// How are the steps behind it, one line each: the memory base, the
	// key and why, the folder the key root came from.
	How []string `json:"how"`
	// Ignored are the settings and variables that name a directory (or
	// would change the default's name) that Claude Code does not follow
	// here, each with why.
	Ignored []Ignored `json:"ignored"`
	// AutoMemory and AutoDream are facts §1.2's and §6.1's switches.
	AutoMemory claude.Switch `json:"-"`
	AutoDream  claude.Switch `json:"-"`
}

// Ignored is one setting or variable Claude Code does not follow, and why.
type Ignored struct {
	// Source is the settings file or the variable's name; Line is 1-based
	// in a file when known.
	Source string `json:"source"`
	Line   int    `json:"line,omitempty"`
	Why    string `json:"why"`
}

// settingsScope is one settings file in Claude Code's order of precedence.
type settingsScope struct {
	sc   scope
	path string
}

// ChooseDir works out Choice for sessions launched in cwd ("" when no
// transcript names the folder: its own settings and git key root cannot
// then be read, and slug stands for the key) under configDir ("" for the
// switches alone, as the policy settings and the environment set them).
func ChooseDir(o Options, configDir, cwd, slug string) Choice {
	o = o.withDefaults()
	var c Choice
	scopes := []settingsScope{{scopePolicy, o.ManagedSettings}}
	if cwd != "" && filepath.IsAbs(cwd) {
		scopes = append(scopes,
			settingsScope{scopeLocal, filepath.Join(cwd, ".claude", "settings.local.json")},
			settingsScope{scopeProject, filepath.Join(cwd, ".claude", "settings.json")})
	} else {
		c.How = append(c.How, "the folder its sessions were launched in is not known (no transcript names it), so its .claude/settings.json and settings.local.json were not read")
	}
	if configDir != "" { // "": no config dir to read user settings from (never a relative path)
		scopes = append(scopes, settingsScope{scopeUser, filepath.Join(configDir, "settings.json")})
	}

	// Read each file once, for all three keys.
	var dirs []setting
	var memOn, dreamOn *claude.BoolSetting
	for _, s := range scopes {
		obj, data, prob := settingsObject(s.path)
		if prob != nil {
			c.Ignored = append(c.Ignored, Ignored{Source: s.path, Line: prob.Line, Why: s.sc.name() + ": " + prob.Detail})
			continue
		}
		if obj == nil {
			continue
		}
		v, prob := dirSetting(obj, data, s.path)
		if prob != nil {
			c.Ignored = append(c.Ignored, Ignored{Source: s.path, Line: prob.Line, Why: s.sc.name() + ": " + prob.Detail})
			continue // the schema rejects the whole file: its other keys go too
		}
		if v.set {
			dirs = append(dirs, setting{sc: s.sc, source: s.path, line: v.line, value: v.value})
		}
		where := settingWhere(setting{sc: s.sc, source: s.path})
		for _, b := range []struct {
			key string
			dst **claude.BoolSetting
		}{{claude.SettingAutoMemory, &memOn}, {claude.SettingAutoDream, &dreamOn}} {
			raw, ok := obj[b.key]
			if !ok {
				continue
			}
			bv, isBool := raw.(bool)
			switch {
			case !isBool:
				c.Ignored = append(c.Ignored, Ignored{Source: s.path, Line: keyLine(data, b.key),
					Why: fmt.Sprintf("%s: %s must be true or false, not %s; Claude Code's settings schema rejects it", s.sc.name(), b.key, jsonKind(raw))})
			case *b.dst == nil:
				*b.dst = &claude.BoolSetting{Value: bv, Where: where}
			default:
				c.Ignored = append(c.Ignored, Ignored{Source: s.path, Line: keyLine(data, b.key),
					Why: fmt.Sprintf("%s: %s: %v is not used, as %s sets it first", s.sc.name(), b.key, bv, (*b.dst).Where)})
			}
		}
	}
	c.AutoMemory = claude.AutoMemory(o.Getenv, memOn)
	c.AutoDream = claude.AutoDream(o.Getenv, c.AutoMemory, dreamOn)

	// Rule 1: the env override, no ~ expansion.
	if raw := o.Getenv(envMemoryOverride); raw != "" {
		if dir, reason := acceptEnvOverride(raw, o.Home); reason == "" {
			c.Dir, c.By = strings.TrimRight(dir, `/\`), envMemoryOverride
			for _, d := range dirs {
				c.Ignored = append(c.Ignored, Ignored{Source: d.source, Line: d.line,
					Why: fmt.Sprintf("%s: autoMemoryDirectory %q is not reached: %s decides first", d.sc.name(), d.value, envMemoryOverride)})
			}
			return c
		} else {
			c.Ignored = append(c.Ignored, Ignored{Source: envMemoryOverride,
				Why: fmt.Sprintf("%q is rejected because %s; Claude Code goes on to the settings", raw, reason)})
		}
	}
	def, how := defaultDirOf(o, configDir, cwd, slug, &c.Ignored)
	// Rule 2: the first scope that defines autoMemoryDirectory, even as "".
	if len(dirs) > 0 {
		w := dirs[0]
		for _, d := range dirs[1:] {
			c.Ignored = append(c.Ignored, Ignored{Source: d.source, Line: d.line,
				Why: fmt.Sprintf("%s: autoMemoryDirectory %q is not reached: %s defines it first", d.sc.name(), d.value, settingWhere(w))})
		}
		trust := ""
		if w.sc == scopeLocal || w.sc == scopeProject {
			trust = " (read once the workspace is trusted)"
		}
		dir, reason := acceptSetting(w.value, o.Home)
		if reason == "" {
			c.Dir = strings.TrimRight(dir, `/\`)
			c.By = fmt.Sprintf("autoMemoryDirectory %q in %s%s", w.value, settingWhere(w), lineSuffix(w.line))
			return c
		}
		c.Ignored = append(c.Ignored, Ignored{Source: w.source, Line: w.line,
			Why: fmt.Sprintf("%s: autoMemoryDirectory %q is rejected because %s; Claude Code uses the default directory and tries no lower scope%s",
				w.sc.name(), w.value, reason, trust)})
		c.Dir, c.By, c.How = def, "the default, as the autoMemoryDirectory Claude Code takes is rejected", append(c.How, how...)
		return c
	}
	c.Dir, c.By, c.How = def, "the default (no override or setting names a directory)", append(c.How, how...)
	return c
}

func lineSuffix(line int) string {
	if line > 0 {
		return fmt.Sprintf(", line %d", line)
	}
	return ""
}

// defaultDirOf is facts §1.1 row 3 for sessions launched in cwd: the
// memory base, then projects/<key>/memory, where the key is
// CLAUDE_CODE_PROJECT_DIR_NAME when it applies, else sanitizePath of the
// folder's key root (facts §1.3).
func defaultDirOf(o Options, configDir, cwd, slug string, ignored *[]Ignored) (string, []string) {
	var how []string
	base := configDir
	remote := o.Getenv(envRemoteMemory)
	envConfig := o.Getenv(envConfigDir)
	switch {
	case remote != "":
		if abs, err := filepath.Abs(remote); err == nil {
			remote = abs
		}
		base = remote
		how = append(how, fmt.Sprintf("memory base %s, from %s", remote, envRemoteMemory))
	case envConfig != "":
		how = append(how, fmt.Sprintf("memory base: the config home %s (%s)", configDir, envConfigDir))
	default:
		how = append(how, fmt.Sprintf("memory base: the config home %s", configDir))
	}
	key := slug
	if key == "" && cwd != "" {
		key = sanitizePath(cwd) // the launch folder's own name, unless its key root says otherwise below
	}
	if name := o.Getenv(envProjectDirName); name != "" {
		why := ""
		switch {
		case remote != "":
			why = "ignored for the memory dir while " + envRemoteMemory + " is set"
		case envConfig == "":
			why = "read only when " + envConfigDir + " is set"
		case !validProjectDirName(name):
			why = "not a valid name (1 to 64 of A-Z, a-z, 0-9, _ and -, not a Windows device name), so Claude Code silently ignores it"
		case !sameDir(envConfig, configDir):
			why = "it applies to the config home " + envConfig + ", not this one"
		}
		if why != "" {
			*ignored = append(*ignored, Ignored{Source: envProjectDirName, Why: fmt.Sprintf("%q is %s", name, why)})
		} else {
			how = append(how, fmt.Sprintf("key %s, from %s", name, envProjectDirName))
			return filepath.Join(base, "projects", name, MemoryDirName), how
		}
	}
	if cwd != "" && filepath.IsAbs(cwd) {
		if k, err := keyIn(o.Chroot, cwd); err == nil && k.Root != "" {
			key = sanitizePath(k.Root)
			how = append(how, fmt.Sprintf("key %s: the key root %s of the launch folder %s", key, k.Root, cwd))
			how = append(how, k.Evidence...)
		} else if err == nil && k.Kind == KeyMissing {
			how = append(how, fmt.Sprintf("key %s: the launch folder %s is gone, so the name its sessions used is kept", key, cwd))
		}
	} else {
		how = append(how, fmt.Sprintf("key %s: the project's folder name under projects/", key))
	}
	return filepath.Join(base, "projects", key, MemoryDirName), how
}

func sameDir(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && filepath.Clean(aa) == filepath.Clean(bb)
}

// doctorEnv are the environment variables that shape Claude Code's
// memory (facts §1), in the order doctor lists them.
var doctorEnv = []string{
	envConfigDir, envRemoteMemory, envProjectDirName, envMemoryOverride, envMemoryStores,
	claude.EnvSafeMode, claude.EnvDisable, claude.EnvSimple, claude.EnvRemote, claude.EnvCoworkGuide,
	"CLAUDE_COWORK_MEMORY_EXTRA_GUIDELINES", "CLAUDE_COWORK_MEMORY_INDEX_CONTENT", claude.EnvDisableOrg,
}

// MemoryEnv lists the variables of doctorEnv that getenv has set, as
// "NAME=value" pairs in a fixed order.
func MemoryEnv(getenv func(string) string) [][2]string {
	var out [][2]string
	for _, k := range doctorEnv {
		if v := getenv(k); v != "" {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

// LockState is Claude Code's .consolidate-lock in a memory dir as it
// stands (facts §6.2): its mtime is the last consolidation, its body the
// PID of the process that took it, and it is held while it is under an
// hour old and that process lives.
type LockState struct {
	Present bool
	ModTime int64 // Unix nanoseconds; 0 when absent
	// PID is the body's PID read as Claude Code reads it; HasPID false
	// when the body names none (empty after a rollback).
	PID    int
	HasPID bool
	// Problem says why the lock could not be read ("" when it could).
	Problem string
}

// maxLockBody caps the read of a lock's body: a PID and, in the storage-v5
// variant, a timestamp.
const maxLockBody = 4096

// ReadLock reads dir's .consolidate-lock without taking it or changing
// it; a link in its place is not followed (Problem says so). Whether its
// PID lives is the caller's to ask (PIDAlive): a record of the lock
// (memfs/snapshot) has no use for it.
func ReadLock(dir string) LockState {
	var s LockState
	path := filepath.Join(dir, LockFileName)
	f, fi, err := openRead(path, noFollow)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.Present = true
			s.Problem = UnwrapPathErr(err).Error()
		}
		return s
	}
	defer f.Close()
	s.Present, s.ModTime = true, fi.ModTime().UnixNano()
	body, err := readOpened(f, fi.Size(), maxLockBody)
	if err != nil {
		s.Problem = UnwrapPathErr(err).Error()
		return s
	}
	s.PID, s.HasPID = ParseLockPID(string(body))
	return s
}

// IsDir reports whether p is a directory (a link to one counts), as the
// discovery checks a configured one.
func IsDir(p string) bool { return dirState(p) == present }

// keyIn is KeyOf of dir, looked up under chroot when set (the demo's
// repositories: Options.Chroot) and said without it, as strands do.
func keyIn(chroot, dir string) (Key, error) {
	if chroot == "" {
		return KeyOf(dir)
	}
	k, err := KeyOf(filepath.Join(chroot, dir))
	unchroot(&k, chroot)
	return k, err
}

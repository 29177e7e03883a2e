package memfs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/memtui/memtui/model"
)

// envMemoryOverride is Cowork's memory path override, the first rule of
// Claude Code's resolution order (facts §1.1 row 1).
const envMemoryOverride = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"

// settingsKey is the setting that redirects auto memory (facts §1.1 row 2).
const settingsKey = "autoMemoryDirectory"

// maxSettingsBytes caps a settings read; real settings files are a few KB.
const maxSettingsBytes = 4 << 20

// scope is where an override came from, in Claude Code's order of
// precedence (facts §1.1): the env override (rule 1), then the settings
// scopes of rule 2, highest first. It decides what the override affects
// (env, policy and user: every project; local and project: one).
// Claude Code's flag scope (--settings) sits between policy and local;
// memtui cannot see it.
type scope int

const (
	scopeEnv scope = iota
	scopePolicy
	scopeLocal
	scopeProject
	scopeUser
)

// name is how a message names the scope.
func (s scope) name() string {
	switch s {
	case scopeEnv:
		return envMemoryOverride
	case scopePolicy:
		return "policy settings"
	case scopeLocal:
		return "local settings"
	case scopeProject:
		return "project settings"
	}
	return "user settings"
}

// settingsValue is what one settings file says about autoMemoryDirectory.
type settingsValue struct {
	value string // the raw value; "" when absent or empty
	line  int    // line of the key, for problems about the value
	// set is true when the file defines the key, even as "": Claude Code
	// then takes this scope's value and looks no further (facts §1.1).
	set bool
}

// settingsObject reads a settings file as Claude Code's parseSettingsFile
// does (see readSettings): its top-level object and bytes, or nil and the
// problem that makes Claude Code ignore the file (nil, nil when there is
// no file or it is blank).
func settingsObject(path string) (map[string]any, []byte, *model.ConfigProblem) {
	// Followed if a symlink (settings kept in a dotfiles repo, as Claude
	// Code allows); a FIFO, device or oversized file is a problem.
	data, err := readFile(path, maxSettingsBytes, followLinks)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, &model.ConfigProblem{
			Kind:       model.SettingsInvalid,
			Source:     path,
			Detail:     fmt.Sprintf("cannot be read (%v); Claude Code ignores it, including any %s in it", UnwrapPathErr(err), settingsKey),
			Suggestion: "make it a readable regular file, or remove it",
		}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, nil
	}
	var top any
	if err := json.Unmarshal(data, &top); err != nil {
		line := 0
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = lineAt(data, se.Offset)
		}
		return nil, nil, &model.ConfigProblem{
			Kind:   model.SettingsInvalid,
			Source: path,
			Line:   line,
			Detail: fmt.Sprintf("not valid JSON (%v); Claude Code parses settings with plain JSON.parse and ignores the whole file, including any %s in it",
				err, settingsKey),
			Suggestion: jsonFix(line),
		}
	}
	obj, ok := top.(map[string]any)
	if !ok {
		return nil, nil, &model.ConfigProblem{
			Kind:       model.SettingsInvalid,
			Source:     path,
			Line:       1,
			Detail:     "the top level is not a JSON object; Claude Code's settings schema rejects the whole file",
			Suggestion: `wrap the settings in an object: {"autoMemoryDirectory": "~/notes/memory"}`,
		}
	}
	return obj, data, nil
}

// readSettings reads autoMemoryDirectory from a settings file the way Claude
// Code's parseSettingsFile does: a missing file is no settings, an empty or
// blank file is {} (not an error: an all-whitespace file short-circuits),
// a BOM is stripped, and anything else must be plain JSON (JSON.parse: no
// comments, no trailing commas). A file that fails is ignored whole by
// Claude Code, so its override does not apply either; the problem says so.
func readSettings(path string) (settingsValue, *model.ConfigProblem) {
	obj, data, prob := settingsObject(path)
	if obj == nil {
		return settingsValue{}, prob
	}
	return dirSetting(obj, data, path)
}

// dirSetting is autoMemoryDirectory in a parsed settings file.
func dirSetting(obj map[string]any, data []byte, path string) (settingsValue, *model.ConfigProblem) {
	raw, present := obj[settingsKey]
	if !present {
		return settingsValue{}, nil
	}
	line := keyLine(data, settingsKey)
	s, ok := raw.(string)
	if !ok {
		return settingsValue{}, &model.ConfigProblem{
			Kind:       model.SettingsInvalid,
			Source:     path,
			Line:       line,
			Detail:     fmt.Sprintf("%s must be a string, not %s; Claude Code's settings schema rejects the whole file", settingsKey, jsonKind(raw)),
			Suggestion: fmt.Sprintf(`write it as a quoted path: "%s": "~/notes/memory"`, settingsKey),
		}
	}
	return settingsValue{value: s, line: line, set: true}, nil
}

// acceptEnvOverride is Claude Code's check of
// CLAUDE_COWORK_MEMORY_PATH_OVERRIDE (facts §1.4, no ~ expansion): the
// dir it names, or why it is rejected. Discovery and doctor both ask it.
func acceptEnvOverride(raw, home string) (dir, reason string) {
	return validateMemoryPath(raw, false, home, nativeFlavor())
}

// acceptSetting is Claude Code's check of the autoMemoryDirectory it
// takes (facts §1.4, with ~/ expansion): the dir, or why it is rejected;
// "" is rejected too, though it counts as set (facts §1.1 row 2).
func acceptSetting(value, home string) (dir, reason string) {
	dir, reason = validateMemoryPath(value, true, home, nativeFlavor())
	if value == "" {
		reason = reasonEmpty
	}
	return dir, reason
}

// checkEnvOverride validates CLAUDE_COWORK_MEMORY_PATH_OVERRIDE (facts
// §1.1 row 1: no ~ expansion) and, when Claude Code would reject it, builds
// the OverrideInvalid problem. A rejected env override is simply skipped:
// Claude Code goes on to autoMemoryDirectory, then to the default.
func checkEnvOverride(raw, home, defaultDir string) (string, *model.ConfigProblem) {
	validated, reason := acceptEnvOverride(raw, home)
	if reason == "" {
		return validated, nil
	}
	return "", &model.ConfigProblem{
		Kind:   model.OverrideInvalid,
		Source: envMemoryOverride,
		Detail: fmt.Sprintf("Claude Code rejects %s %q because %s, and goes on to autoMemoryDirectory in settings, else the default directory %s",
			envMemoryOverride, raw, reason, defaultDir),
		Suggestion: overrideFix(raw, reason, home, "", false),
	}
}

// setting is autoMemoryDirectory as one settings scope defines it.
type setting struct {
	sc     scope
	source string // the settings file
	line   int
	value  string // may be "": still defined
}

// settingJudgement is what Claude Code makes of one defined
// autoMemoryDirectory, given the scopes around it.
type settingJudgement struct {
	// shadow names what decides the directory instead of this value: the
	// env override or a higher settings scope that defines the key; ""
	// when this value is the one Claude Code takes.
	shadow string
	// lower lists the lower scopes that define the key too (their files,
	// or a phrase): Claude Code never reaches them when this value wins.
	lower []string
	// defaultDir is the directory Claude Code falls back to when it takes
	// this value and rejects it; caveat, when set, follows it in the
	// message (who the fallback applies to).
	defaultDir, caveat string
	home, base         string
}

// judgeSetting validates v (facts §1.4, with ~/ expansion) and returns the
// directory it names when Claude Code would accept it, else the
// OverrideInvalid problem. Claude Code reads the settings scopes in order
// and takes the first that defines autoMemoryDirectory, even as "" (facts
// §1.1 row 2); only that value is validated, and when it is rejected the
// result is the default directory: a lower scope is never tried. So:
//   - a taken value that Claude Code rejects is an error that names the
//     default it uses instead, and the lower scopes it does not go on to;
//   - a taken "" is reported only when a lower scope defines a value that
//     it thereby hides (on its own, "" just means the default);
//   - a value that something higher shadows is reported only if Claude Code
//     would reject it once it decides, saying it is not used now.
func judgeSetting(v setting, j settingJudgement) (string, *model.ConfigProblem) {
	validated, reason := acceptSetting(v.value, j.home)
	if reason == "" {
		return validated, nil
	}
	where := settingWhere(v)
	var detail string
	switch {
	case j.shadow != "" && v.value == "":
		return "", nil
	case j.shadow != "":
		detail = fmt.Sprintf("Claude Code would reject autoMemoryDirectory %q in %s because %s; it does not use it now, as %s decides the memory directory first",
			v.value, where, reason, j.shadow)
	case v.value == "" && len(j.lower) == 0:
		return "", nil
	default:
		who := "Claude Code"
		if v.sc == scopeLocal || v.sc == scopeProject {
			// Claude Code reads these only in a trusted workspace, which
			// memtui cannot see: it assumes trust, as for listing them.
			who = "In a trusted workspace, Claude Code"
		}
		counted := ""
		if v.value == "" {
			counted = " (an empty value still counts as set)"
		}
		detail = fmt.Sprintf("%s rejects autoMemoryDirectory %q in %s because %s%s, and uses the default directory %s%s",
			who, v.value, where, reason, counted, j.defaultDir, j.caveat)
		if len(j.lower) > 0 {
			detail += "; it does not go on to " + strings.Join(j.lower, ", ")
		}
	}
	return "", &model.ConfigProblem{
		Kind:       model.OverrideInvalid,
		Source:     v.source,
		Line:       v.line,
		Detail:     detail,
		Suggestion: settingFix(v.value, reason, j.home, j.base),
	}
}

// settingFix is the suggestion for a rejected autoMemoryDirectory: for an
// empty one, what removing it does.
func settingFix(raw, reason, home, base string) string {
	if raw == "" {
		return "remove the key to let the next settings scope decide, or set an absolute path such as ~/notes/memory"
	}
	return overrideFix(raw, reason, home, base, true)
}

func jsonFix(line int) string {
	where := "the JSON syntax"
	if line > 0 {
		where = fmt.Sprintf("the JSON syntax at line %d", line)
	}
	return "fix " + where + " (settings allow no comments and no trailing commas)"
}

// lineAt is the 1-based line of the byte at offset (encoding/json reports
// the offset just past the offending byte).
func lineAt(data []byte, offset int64) int {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset > 0 {
		offset--
	}
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

// keyLine finds the line of a top-level key by its first quoted occurrence:
// good enough to point an editor at it, and never wrong about the file.
func keyLine(data []byte, key string) int {
	i := bytes.Index(data, []byte(`"`+key+`"`))
	if i < 0 {
		return 0
	}
	return bytes.Count(data[:i], []byte("\n")) + 1
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a " + fmt.Sprintf("%T", v)
}

// UnwrapPathErr drops the path from an *fs.PathError: the problem already
// names the file in Source. It is exported for memfs/transcript, whose
// problems name their file too.
func UnwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// defaultMemDir is the memory dir Claude Code falls back to for a project
// (facts §1.1 row 3), with "<project>" when the problem is not tied to one.
func defaultMemDir(base, slug string) string {
	if slug == "" {
		slug = "<project>"
	}
	return filepath.Join(base, "projects", slug, "memory") + string(filepath.Separator)
}

package memfs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/memtui/memtui/model"
)

// envMemoryOverride is Cowork's memory path override, the first rule of
// Claude Code's resolution order (facts §1.1 row 1).
const envMemoryOverride = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"

// settingsKey is the setting that redirects auto memory (facts §1.1 row 2).
const settingsKey = "autoMemoryDirectory"

// maxSettingsBytes caps a settings read; real settings files are a few KB.
const maxSettingsBytes = 4 << 20

// scope is where an override came from. It decides what the override
// affects (env, policy and user: every project; project and local: one) and
// what Claude Code falls back to when it rejects the value.
type scope int

const (
	scopeEnv scope = iota
	scopePolicy
	scopeUser
	scopeLocal
	scopeProject
)

// fallback completes "Claude Code falls back to ..." for a rejected override
// of this scope, following the resolution order of facts §1.1: env, then
// settings (policy, --settings, local, project, user), then the default.
func (s scope) fallback(defaultDir string) string {
	switch s {
	case scopeEnv:
		return "autoMemoryDirectory from settings, else the default " + defaultDir
	case scopePolicy:
		return "autoMemoryDirectory from --settings, local, project or user settings, else the default " + defaultDir
	case scopeLocal:
		return "autoMemoryDirectory from project or user settings, else the default " + defaultDir
	case scopeProject:
		return "autoMemoryDirectory from user settings, else the default " + defaultDir
	default:
		return "the default " + defaultDir
	}
}

// settingsValue is what one settings file says about autoMemoryDirectory.
type settingsValue struct {
	value string // the raw value; "" when absent or empty
	line  int    // line of the key, for problems about the value
}

// readSettings reads autoMemoryDirectory from a settings file the way Claude
// Code's parseSettingsFile does: a missing file is no settings, an empty or
// blank file is {} (not an error: an all-whitespace file short-circuits),
// a BOM is stripped, and anything else must be plain JSON (JSON.parse: no
// comments, no trailing commas). A file that fails is ignored whole by
// Claude Code, so its override does not apply either; the problem says so.
func readSettings(path string) (settingsValue, *model.ConfigProblem) {
	// Followed if a symlink (settings kept in a dotfiles repo, as Claude
	// Code allows); a FIFO, device or oversized file is a problem.
	data, err := readFile(path, maxSettingsBytes, followLinks)
	if errors.Is(err, fs.ErrNotExist) {
		return settingsValue{}, nil
	}
	if err != nil {
		return settingsValue{}, &model.ConfigProblem{
			Kind:       model.SettingsInvalid,
			Source:     path,
			Detail:     fmt.Sprintf("cannot be read (%v); Claude Code ignores it, including any %s in it", unwrapPathErr(err), settingsKey),
			Suggestion: "make it a readable regular file, or remove it",
		}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if len(bytes.TrimSpace(data)) == 0 {
		return settingsValue{}, nil
	}
	var top any
	if err := json.Unmarshal(data, &top); err != nil {
		line := 0
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = lineAt(data, se.Offset)
		}
		return settingsValue{}, &model.ConfigProblem{
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
		return settingsValue{}, &model.ConfigProblem{
			Kind:       model.SettingsInvalid,
			Source:     path,
			Line:       1,
			Detail:     "the top level is not a JSON object; Claude Code's settings schema rejects the whole file",
			Suggestion: `wrap the settings in an object: {"autoMemoryDirectory": "~/notes/memory"}`,
		}
	}
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
	return settingsValue{value: s, line: line}, nil
}

// checkOverride validates an override value (facts §1.4) and, when Claude
// Code would reject it, builds the OverrideInvalid problem: what is wrong,
// what Claude Code uses instead, and a value it would accept. base is the
// directory a relative value was probably meant against (the project root
// for project and local settings).
func checkOverride(raw, source string, line int, sc scope, home, base, defaultDir string) (string, *model.ConfigProblem) {
	expand := sc != scopeEnv // the env override is not ~-expanded (facts §1.1 row 1)
	validated, reason := validateMemoryPath(raw, expand, home, nativeFlavor())
	if reason == "" {
		return validated, nil
	}
	what := settingsKey
	if sc == scopeEnv {
		what = envMemoryOverride
	}
	return "", &model.ConfigProblem{
		Kind:   model.OverrideInvalid,
		Source: source,
		Line:   line,
		Detail: fmt.Sprintf("Claude Code ignores %s %q because %s; it falls back to %s",
			what, raw, reason, sc.fallback(defaultDir)),
		Suggestion: overrideFix(raw, reason, home, base, expand),
	}
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

// unwrapPathErr drops the path from an *fs.PathError: the problem already
// names the file in Source.
func unwrapPathErr(err error) error {
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

package memfs

// memtui's Claude Code hook: `<memtui> snapshot` run by Claude Code on
// three events, so that memtui holds a record of every memory store from
// before and after each background write it cannot otherwise see. Here is
// what the hook is, how memtui recognises its own, and the edits that add
// it to a settings text or take it out again (pure: settings_write.go
// reads and writes the file).
//
// The settings shape follows Claude Code's hooks reference
// (https://code.claude.com/docs/en/hooks, "Configuration"; the same page
// at docs.claude.com/…/claude-code/hooks): "hooks" maps an event name to
// an array of matcher groups, each {"matcher": …, "hooks": [handler…]},
// a handler being {"type": "command", "command": "<shell command>",
// "timeout": <seconds>}. The matcher is left out: Stop takes none, and on
// SessionStart and SessionEnd a group without one runs for every source
// and reason.
//
// Why these events (claude-memory-format.md, facts §5 and §6.1):
// Claude Code's memory extraction and autoDream are both started
// fire-and-forget "from stop hooks", at the end of each turn of the main
// agent, and run in the background with no transcript (facts §12.2). So:
//   - SessionStart records the stores before the session does anything;
//   - Stop runs as each turn ends, when extraction and Dream are launched:
//     each Stop's record is the "after" of what the previous turn's
//     background runs wrote and the "before" of the ones starting now;
//   - SessionEnd is the "after" of the last turn's runs, which no later
//     Stop would record (the next record would otherwise come from
//     another session, hours later, mixed with whatever happened between).
//
// The command ends in `|| exit 1`: the reference says a Stop hook that
// exits 2 blocks the stop and feeds its stderr to Claude, and 2 is
// memtui's exit status for any usage or I/O error (an older binary
// without `snapshot` included). Any failure is turned into 1, a
// non-blocking error Claude Code only reports.

import (
	"fmt"
	"slices"
	"strings"
)

// HookEvents are the Claude Code events memtui's snapshot hook runs on, in
// the order an install adds them (see the file comment for why these).
var HookEvents = []string{"SessionStart", "Stop", "SessionEnd"}

// HookTimeout is the hook's timeout in seconds: Claude Code cancels the
// command after it. A snapshot reads the stores' files and takes well
// under a second; the bound is for a machine under load, far below the
// reference's default of ten minutes, which would hold a turn's end that
// long.
const HookTimeout = 30

// hookFailSuffix turns any failure of the snapshot into exit status 1 (see
// the file comment).
const hookFailSuffix = " || exit 1"

// hookHandler is a command handler as the settings hold it, its fields in
// the order the reference shows them.
type hookHandler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// hookGroup is a matcher group with no matcher.
type hookGroup struct {
	Hooks []hookHandler `json:"hooks"`
}

// HookCommand is the command line of memtui's hook for the memtui binary
// at bin (an absolute path): the path quoted for the shell Claude Code
// runs it with, then "snapshot".
func HookCommand(bin string) string {
	return ShellQuote(bin) + " snapshot" + hookFailSuffix
}

// ShellQuote quotes s as one word for a POSIX shell: as it is when it is
// made only of characters no shell treats specially, else in single quotes
// (a single quote inside written '\”).
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// IsMemtuiHook reports whether a hook's command line is memtui's snapshot
// hook: exactly two words, a program whose name is memtui (memtui.exe), in
// any directory or on the PATH, and "snapshot", optionally followed by
// " || exit 1". The program's name, not its directory, is the mark, so a
// hook of a memtui that moved (a new Go bin, another machine's home) is
// still memtui's to replace or remove. A command that does more (other
// arguments, a pipeline, a second command) is someone's own and is left
// alone.
func IsMemtuiHook(command string) bool {
	c := strings.TrimSpace(command)
	if rest, ok := strings.CutSuffix(c, strings.TrimSpace(hookFailSuffix)); ok {
		c = strings.TrimSpace(rest)
	}
	words, ok := shellWords(c)
	if !ok || len(words) != 2 || words[1] != "snapshot" {
		return false
	}
	return IsMemtuiName(words[0])
}

// IsMemtuiName reports whether the program at path is named memtui
// (memtui.exe on Windows), whatever its directory.
func IsMemtuiName(path string) bool {
	name := path[strings.LastIndexAny(path, `/\`)+1:]
	return name == "memtui" || strings.EqualFold(name, "memtui.exe")
}

// shellWords splits a simple command line into its words as a POSIX shell
// would: blanks separate words, single quotes keep everything, double
// quotes keep all but a backslash before $ ` " \ or a newline, a backslash
// outside quotes keeps the next character. It fails (false) on anything
// that makes it more than one simple command: an operator or a parenthesis
// outside quotes, a command substitution, an unclosed quote. A $ is kept
// as text: the words are only compared, never run.
func shellWords(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			in = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, false
				}
				d := s[i]
				if d == '"' {
					break
				}
				if d == '`' || d == '$' && i+1 < len(s) && s[i+1] == '(' {
					return nil, false
				}
				if d == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
					d = s[i]
				}
				cur.WriteByte(d)
			}
		case c == '\\':
			if i+1 >= len(s) {
				return nil, false
			}
			i++
			cur.WriteByte(s[i])
			in = true
		case strings.IndexByte(";&|<>()`", c) >= 0, c == '$' && i+1 < len(s) && s[i+1] == '(':
			return nil, false
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words, true
}

// HookFound is one of memtui's hook handlers in a settings file: the event
// it runs on and its command line.
type HookFound struct {
	Event, Command string
}

// HookEdit is an install or uninstall worked out on a settings text:
// the text before and after (both whole files, byte order mark included),
// and what changed, for the messages.
type HookEdit struct {
	Before, After string
	// Added are the events memtui's hook was added to; Present those that
	// had one already (its command replaced when it was another).
	Added, Present []string
	// Replaced are memtui hooks whose command was another (another path
	// of memtui, or a bare `memtui snapshot`): each now runs the new one.
	Replaced []HookFound
	// Removed are the hooks an uninstall took out.
	Removed []HookFound
}

// Changed reports whether the edit changes the file.
func (e HookEdit) Changed() bool { return e.Before != e.After }

// SettingsShapeError is a settings file memtui will not edit: valid JSON,
// but not of the shape Claude Code's settings schema takes where the hook
// goes (the top level, "hooks" or an event's list), so the edit could not
// be what Claude Code reads. Line is 1-based.
type SettingsShapeError struct {
	Line int
	What string
}

func (e *SettingsShapeError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.What)
}

const bom = "\uFEFF"

// PlanHookInstall works out the install of command (HookCommand) in a
// settings text. before is the file's content, "" when it does not exist.
// Each memtui hook with another command gets this one (in place); each of
// HookEvents without a memtui hook gets a matcher group of its own at the
// end of its list, the list and the "hooks" object created when missing.
// Every other byte is kept. An empty or blank file counts as {}, as Claude
// Code reads it. It fails, changing nothing, on a text that is not JSON
// (*JSONSyntaxError) or not of the settings' shape (*SettingsShapeError).
func PlanHookInstall(before, command string) (HookEdit, error) {
	e := HookEdit{Before: before}
	lead, text := splitBOM(before)
	if strings.TrimSpace(text) == "" {
		text = "{}\n"
	}
	top, err := parseTop(text)
	if err != nil {
		return e, err
	}
	l := layoutOf(text, top)
	found, err := findHooks(text, top)
	if err != nil {
		return e, err
	}
	// Replacements go from the end of the text back, so each one's span is
	// still where the parse found it.
	for i := len(found) - 1; i >= 0; i-- {
		f := found[i]
		if f.cmd.str == command {
			continue
		}
		enc, err := encodeAt(command, "", jlayout{nl: l.nl})
		if err != nil {
			return e, err
		}
		text = splice(text, f.cmd.start, f.cmd.end, enc)
		e.Replaced = append(e.Replaced, HookFound{Event: f.event, Command: f.cmd.str})
	}
	slices.Reverse(e.Replaced)
	handler := hookGroup{Hooks: []hookHandler{{Type: "command", Command: command, Timeout: HookTimeout}}}
	for _, ev := range HookEvents {
		if top, err = parseTop(text); err != nil {
			return e, err
		}
		if slices.ContainsFunc(found, func(f foundHook) bool { return f.event == ev }) {
			e.Present = append(e.Present, ev)
			continue
		}
		hooks := top.get("hooks")
		if hooks == nil {
			if text, err = appendMember(text, top, "hooks", struct{}{}, l); err != nil {
				return e, err
			}
			if top, err = parseTop(text); err != nil {
				return e, err
			}
			hooks = top.get("hooks")
		}
		list := hooks.get(ev)
		if list == nil {
			text, err = appendMember(text, hooks, ev, []hookGroup{handler}, l)
		} else {
			text, err = appendElem(text, list, handler, l)
		}
		if err != nil {
			return e, err
		}
		e.Added = append(e.Added, ev)
	}
	e.After = lead + text
	return e, nil
}

// PlanHookUninstall works out the removal of every memtui hook from a
// settings text. A matcher group left with no handler goes too (unless it
// holds more than a matcher), then an event's emptied list, then an
// emptied "hooks" object: removing what an install added gives back the
// text it started from, byte for byte. Every other byte is kept.
func PlanHookUninstall(before string) (HookEdit, error) {
	e := HookEdit{Before: before, After: before}
	lead, text := splitBOM(before)
	if strings.TrimSpace(text) == "" {
		return e, nil
	}
	for {
		top, err := parseTop(text)
		if err != nil {
			return e, err
		}
		found, err := findHooks(text, top)
		if err != nil {
			return e, err
		}
		if len(found) == 0 {
			break
		}
		f := found[len(found)-1]
		e.Removed = append(e.Removed, HookFound{Event: f.event, Command: f.cmd.str})
		text = removeHook(text, top, f)
	}
	slices.Reverse(e.Removed)
	e.After = lead + text
	return e, nil
}

// removeHook removes one handler and each container it leaves empty.
func removeHook(text string, top *jvalue, f foundHook) string {
	hooks := top.get("hooks")
	list := hooks.members[f.eventIdx].value
	group := list.elems[f.groupIdx]
	handlers := group.get("hooks")
	onlyMatcher := true
	for _, m := range group.members {
		onlyMatcher = onlyMatcher && (m.key == "hooks" || m.key == "matcher")
	}
	switch {
	case len(handlers.elems) > 1 || !onlyMatcher:
		return removeItem(text, handlers, f.handlerIdx)
	case len(list.elems) > 1:
		return removeItem(text, list, f.groupIdx)
	case len(hooks.members) > 1:
		return removeItem(text, hooks, f.eventIdx)
	default:
		return removeItem(text, top, top.memberIndex("hooks"))
	}
}

// foundHook is a memtui handler where the parse found it.
type foundHook struct {
	event                          string
	eventIdx, groupIdx, handlerIdx int
	cmd                            *jvalue
}

// findHooks lists memtui's handlers in the settings, in text order, as
// Claude Code reads the file (a key given twice counts once, the last).
// A "hooks" that is not an object, or an event's value that is not a
// list, fails: an edit there could not be what Claude Code reads. Groups
// and handlers of another shape are someone's own and skipped.
func findHooks(text string, top *jvalue) ([]foundHook, error) {
	hooks := top.get("hooks")
	if hooks == nil {
		return nil, nil
	}
	if hooks.kind != jObject {
		return nil, &SettingsShapeError{Line: lineOf(text, hooks.start), What: `"hooks" is ` + kindName(hooks.kind) + `, not an object of events`}
	}
	var out []foundHook
	for ei, m := range hooks.members {
		if hooks.memberIndex(m.key) != ei {
			continue // shadowed by a later member of the same name
		}
		if m.value.kind != jArray {
			if slices.Contains(HookEvents, m.key) {
				return nil, &SettingsShapeError{Line: lineOf(text, m.value.start), What: fmt.Sprintf(`"hooks.%s" is %s, not a list of matcher groups`, m.key, kindName(m.value.kind))}
			}
			continue
		}
		for gi, g := range m.value.elems {
			handlers := g.get("hooks")
			if handlers == nil || handlers.kind != jArray {
				continue
			}
			for hi, h := range handlers.elems {
				typ, cmd := h.get("type"), h.get("command")
				if typ == nil || typ.kind != jString || typ.str != "command" || cmd == nil || cmd.kind != jString {
					continue
				}
				if IsMemtuiHook(cmd.str) {
					out = append(out, foundHook{event: m.key, eventIdx: ei, groupIdx: gi, handlerIdx: hi, cmd: cmd})
				}
			}
		}
	}
	return out, nil
}

// parseTop parses a settings text and checks its top level is an object.
func parseTop(text string) (*jvalue, error) {
	top, err := parseJSON(text)
	if err != nil {
		return nil, err
	}
	if top.kind != jObject {
		return nil, &SettingsShapeError{Line: lineOf(text, top.start), What: "the top level is " + kindName(top.kind) + ", not an object"}
	}
	return top, nil
}

// splitBOM splits off a leading byte order mark, which Claude Code skips
// and an edit keeps.
func splitBOM(s string) (lead, rest string) {
	if r, ok := strings.CutPrefix(s, bom); ok {
		return bom, r
	}
	return "", s
}

func lineOf(text string, pos int) int { return strings.Count(text[:pos], "\n") + 1 }

func kindName(k jkind) string {
	switch k {
	case jObject:
		return "an object"
	case jArray:
		return "a list"
	case jString:
		return "a string"
	}
	return "a number, boolean or null"
}

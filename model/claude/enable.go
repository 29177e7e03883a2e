package claude

import "strings"

// The variables and settings that switch auto memory and autoDream on or
// off (facts §1.2, §6.1, §7.1, §7.3).
const (
	EnvSafeMode       = "CLAUDE_CODE_SAFE_MODE"
	EnvDisable        = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
	EnvSimple         = "CLAUDE_CODE_SIMPLE"
	EnvRemote         = "CLAUDE_CODE_REMOTE"
	EnvRemoteMemory   = "CLAUDE_CODE_REMOTE_MEMORY_DIR"
	EnvCoworkOverride = "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
	EnvCoworkGuide    = "CLAUDE_COWORK_MEMORY_GUIDELINES"
	EnvMemoryStores   = "CLAUDE_MEMORY_STORES"
	EnvDisableOrg     = "CLAUDE_CODE_DISABLE_ORG_MEMORY"

	SettingAutoMemory = "autoMemoryEnabled"
	SettingAutoDream  = "autoDreamEnabled"
)

// Truthy is Claude Code's reading of a switch variable: "1", "true", "yes"
// or "on", case-insensitive, trimmed (facts §1.2 row 4).
func Truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// Falsy is the other side: "0", "false", "no" or "off". A variable that is
// neither (unset, empty, "maybe") is neither.
func Falsy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "0", "false", "no", "off":
		return true
	}
	return false
}

// BoolSetting is a boolean setting as the settings scope that decides it
// defines it: the first scope, in Claude Code's order of precedence, whose
// file sets the key to true or false.
type BoolSetting struct {
	Value bool
	// Where names the scope and its file ("user settings (/h/.claude/settings.json)").
	Where string
}

// Switch is whether something is on, and what decided it, for people.
type Switch struct {
	On bool
	// By names the rule that decided: the variable, the setting, or
	// "the default".
	By string
	// Caveats are what could still decide otherwise for a session, which
	// memtui cannot see (flags, server switches, the session's own
	// environment).
	Caveats []string
}

// AutoMemory is facts §1.2's enablement, in its order, as far as the
// environment getenv reads and the settings say: the first matching row
// wins. The flags of a single launch (--safe-mode, --restricted, --bare)
// and the server switch of row 7 are not visible here; they are caveats.
func AutoMemory(getenv func(string) string, setting *BoolSetting) Switch {
	caveats := []string{
		"a session launched with --safe-mode, --restricted or --bare, or in another environment, may decide otherwise",
		"a server switch (facts §1.2 row 7) can turn it off for some models",
	}
	off := func(by string) Switch { return Switch{On: false, By: by, Caveats: caveats} }
	if v := getenv(EnvSafeMode); Truthy(v) {
		return off(EnvSafeMode + "=" + v)
	}
	if v := getenv(EnvDisable); Truthy(v) {
		return off(EnvDisable + "=" + v)
	} else if Falsy(v) {
		// Defined and falsy forces it on: rows 5-8 are skipped.
		return Switch{On: true, By: EnvDisable + "=" + v + " (forces it on; the rows after it are skipped)",
			Caveats: caveats[:1]}
	}
	if v := getenv(EnvSimple); Truthy(v) {
		return off(EnvSimple + "=" + v + " (as --bare sets it)")
	}
	if v := getenv(EnvRemote); Truthy(v) && getenv(EnvRemoteMemory) == "" && getenv(EnvCoworkOverride) == "" {
		return off(EnvRemote + "=" + v + " with neither " + EnvRemoteMemory + " nor " + EnvCoworkOverride + " set")
	}
	if setting != nil {
		if setting.Value {
			return Switch{On: true, By: SettingAutoMemory + ": true in " + setting.Where, Caveats: caveats}
		}
		return off(SettingAutoMemory + ": false in " + setting.Where)
	}
	return Switch{On: true, By: "the default (nothing turns it off)", Caveats: caveats}
}

// AutoDream is facts §6.1 step 1 as far as memtui can see: autoDream needs
// auto memory on and a session that is not remote, the server must offer
// it (not visible here), and then the autoDreamEnabled setting decides, or
// the server's default when no scope sets it.
func AutoDream(getenv func(string) string, memory Switch, setting *BoolSetting) Switch {
	server := "the server must offer autoDream (facts §6.1 step 1), which memtui cannot see"
	switch {
	case !memory.On:
		return Switch{On: false, By: "auto memory is off (" + memory.By + ")"}
	case Truthy(getenv(EnvRemote)):
		return Switch{On: false, By: EnvRemote + "=" + getenv(EnvRemote) + " (autoDream never runs in a remote session)"}
	case setting != nil && !setting.Value:
		return Switch{On: false, By: SettingAutoDream + ": false in " + setting.Where}
	case setting != nil:
		return Switch{On: true, By: SettingAutoDream + ": true in " + setting.Where, Caveats: []string{server}}
	}
	return Switch{On: true, By: "the server's default (no settings scope sets " + SettingAutoDream + ")",
		Caveats: []string{server + ", and its default decides whether it is on"}}
}

// RecallByEnv reports whether the environment alone puts sessions in recall
// mode (facts §4.2): a non-empty CLAUDE_MEMORY_STORES does, and hides the
// MEMORY.md injection. The other trigger is a server switch; the
// transcripts show which mode sessions actually ran in.
func RecallByEnv(getenv func(string) string) bool {
	return strings.TrimSpace(getenv(EnvMemoryStores)) != ""
}

// ToolsBlockedBy names the variable that keeps the memory-store tools
// (memory_list, memory_read, memory_write) out of every session (facts
// §7.3), or "" when the environment allows them (a server switch or
// organization memory then decides).
func ToolsBlockedBy(getenv func(string) string) string {
	for _, k := range []string{EnvCoworkOverride, EnvCoworkGuide, EnvMemoryStores} {
		if getenv(k) != "" {
			return k
		}
	}
	if getenv(EnvRemote) != "" && getenv(EnvRemoteMemory) != "" {
		return EnvRemote + " with " + EnvRemoteMemory
	}
	return ""
}

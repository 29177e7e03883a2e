package model

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// This file is CLAUDE_MEMORY_STORES as Claude Code 2.1.332 reads it (facts
// 7.1, 2.1): the memory stores a session runs with, where each is mounted in
// the memory dir, which file is its index, and which folders hold skills
// rather than memories. memtui reads the variable from its own
// environment; Claude Code's sessions may have run with another value,
// which memtui cannot see (the README says so).

// Store is one element of CLAUDE_MEMORY_STORES.
type Store struct {
	Path  string
	Mode  string // "rw" or "ro"; a bare path is "rw"
	Scope string // "user" or "team" (Claude Code also knows an internal "account")
	// Mount names the folder a team store is mounted at, team/<Mount>/ in
	// the memory dir; it defaults to the path's last element. The user
	// store is mounted at the memory dir itself.
	Mount string
	// PromptIndex is the store's index file, relative to where the store
	// is mounted; "MEMORY.md" when the element names none. "" when the
	// value given leaves the mount (absolute, or through ..): no file of
	// the memory dir is then that index.
	PromptIndex string
	// PromptIndexMaxBytes is the byte cap the element gives its index (0:
	// none given).
	PromptIndexMaxBytes int64
	// SkillsDirs are folders, relative to the mount, that hold skills:
	// the scan lists nothing below them. Values that leave the mount are
	// dropped.
	SkillsDirs []string
}

// Label names the store for people: "team store <mount>" or "user store".
func (s *Store) Label() string {
	if s.Scope == "user" {
		return "user store"
	}
	return s.Scope + " store " + s.Mount
}

// root is where the store is mounted, relative to the memory dir, with a
// trailing slash ("" for the memory dir itself).
func (s *Store) root() string {
	if s.Scope == "user" {
		return ""
	}
	return "team/" + s.Mount + "/"
}

// IndexRel is the store's index file relative to the memory dir; "" when
// it has none inside its mount.
func (s *Store) IndexRel() string {
	if s.PromptIndex == "" {
		return ""
	}
	return s.root() + s.PromptIndex
}

// MemoryStores is what memtui knows of CLAUDE_MEMORY_STORES.
type MemoryStores struct {
	// Set is true when the variable is set and not empty: that alone turns
	// recall mode on (facts 4.2), whatever it holds.
	Set bool
	// Stores are its elements, in order; nil when the value could not be
	// used (Err says why): Claude Code then mounts no store either.
	Stores []Store
	// Err says why the value could not be used ("" when it could).
	Err string
}

// ParseMemoryStores reads a CLAUDE_MEMORY_STORES value: a JSON array whose
// elements are a path (a read-write team store mounted at the path's last
// element) or {path, mode, scope, mount?, promptIndex?,
// promptIndexMaxBytes?, skillsDirs?}. A duplicate team mount or a second
// user store makes the whole value an error, as it does for Claude Code.
func ParseMemoryStores(raw string) MemoryStores {
	if strings.TrimSpace(raw) == "" {
		return MemoryStores{}
	}
	ms := MemoryStores{Set: true}
	var elems []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &elems); err != nil {
		ms.Err = "CLAUDE_MEMORY_STORES is not valid JSON (an array of stores): " + err.Error()
		return ms
	}
	var stores []Store
	mounts := map[string]bool{}
	users := 0
	for i, e := range elems {
		st, err := parseStore(e)
		if err != "" {
			ms.Err = fmt.Sprintf("CLAUDE_MEMORY_STORES element %d: %s", i+1, err)
			return ms
		}
		switch st.Scope {
		case "user":
			if users++; users > 1 {
				ms.Err = "CLAUDE_MEMORY_STORES has a second store of scope \"user\""
				return ms
			}
		case "team":
			if mounts[st.Mount] {
				ms.Err = fmt.Sprintf("CLAUDE_MEMORY_STORES mounts two team stores at %q", st.Mount)
				return ms
			}
			mounts[st.Mount] = true
		}
		stores = append(stores, st)
	}
	ms.Stores = stores
	return ms
}

// parseStore reads one element; the error is "" when it could.
func parseStore(e json.RawMessage) (Store, string) {
	var p string
	if json.Unmarshal(e, &p) == nil {
		st := Store{Path: p, Mode: "rw", Scope: "team", Mount: mountOf(p), PromptIndex: IndexFileName}
		if st.Mount == "" {
			return st, "a path with no last element to mount it at"
		}
		return st, ""
	}
	var o struct {
		Path                string   `json:"path"`
		Mode                string   `json:"mode"`
		Scope               string   `json:"scope"`
		Mount               string   `json:"mount"`
		PromptIndex         *string  `json:"promptIndex"`
		PromptIndexMaxBytes int64    `json:"promptIndexMaxBytes"`
		SkillsDirs          []string `json:"skillsDirs"`
	}
	if err := json.Unmarshal(e, &o); err != nil {
		return Store{}, "neither a path nor a store object: " + err.Error()
	}
	st := Store{Path: o.Path, Mode: o.Mode, Scope: o.Scope, Mount: o.Mount, PromptIndex: IndexFileName, PromptIndexMaxBytes: o.PromptIndexMaxBytes}
	if st.Mode == "" {
		st.Mode = "rw"
	}
	if st.Scope == "" {
		st.Scope = "team"
	}
	if st.Mount == "" {
		st.Mount = mountOf(o.Path)
	}
	if st.Scope == "team" && (st.Mount == "" || strings.ContainsAny(st.Mount, `/\`) || st.Mount == "." || st.Mount == "..") {
		return st, fmt.Sprintf("a team store needs a mount that is one folder name (got %q)", st.Mount)
	}
	if o.PromptIndex != nil {
		st.PromptIndex = insideRel(*o.PromptIndex)
	}
	for _, d := range o.SkillsDirs {
		if r := insideRel(d); r != "" {
			st.SkillsDirs = append(st.SkillsDirs, r)
		}
	}
	return st, ""
}

// insideRel is p as a clean slash path inside its mount, or "" when it
// leaves it (absolute, or climbing out through ..) or names the mount
// itself.
func insideRel(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	if p == "" || strings.HasPrefix(p, "/") || len(p) > 1 && p[1] == ':' {
		return ""
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

// mountOf is a store path's last element.
func mountOf(p string) string {
	p = strings.TrimRight(strings.ReplaceAll(p, `\`, "/"), "/")
	if p == "" {
		return ""
	}
	return path.Base(p)
}

// Has reports whether any store is configured: the scan's file filter then
// follows the stores (facts 2.1), and descriptions fall back to the body.
func (ms MemoryStores) Has() bool { return len(ms.Stores) > 0 }

// Team is the team store mounted at team/<mount>/, or nil.
func (ms MemoryStores) Team(mount string) *Store {
	for i := range ms.Stores {
		if s := &ms.Stores[i]; s.Scope == "team" && s.Mount == mount {
			return s
		}
	}
	return nil
}

// TeamMounts are the mounts of the team stores, in order.
func (ms MemoryStores) TeamMounts() []string {
	var out []string
	for _, s := range ms.Stores {
		if s.Scope == "team" {
			out = append(out, s.Mount)
		}
	}
	return out
}

// PathRole is what a *.md file of an auto-memory dir is to Claude Code
// before the scan's path exclusions: a memory, an index, or neither.
type PathRole int

// Path roles.
const (
	// RoleMemory: a memory file, if the path exclusions keep it.
	RoleMemory PathRole = iota
	// RoleIndex: MEMORY.md at the top of the memory dir.
	RoleIndex
	// RoleStoreIndex: a store's index file (team/<mount>/<promptIndex>,
	// or the user store's promptIndex): not a memory.
	RoleStoreIndex
	// RoleNestedIndex: a MEMORY.md below the top, which the scan skips
	// by its name when no store is configured.
	RoleNestedIndex
	// RoleSkill: below a store's skillsDirs: a skill, not a memory.
	RoleSkill
)

// Role says what the file at rel (slash-separated, relative to the memory
// dir) is to Claude Code's scan (facts 2.1), and the store it belongs to
// for RoleStoreIndex and RoleSkill. Without stores every file named
// MEMORY.md is skipped, at any depth; with stores only the exact index
// paths are, and anything below a skills folder.
func (ms MemoryStores) Role(rel string) (PathRole, *Store) {
	if rel == IndexFileName {
		return RoleIndex, nil
	}
	if !ms.Has() {
		if path.Base(rel) == IndexFileName {
			return RoleNestedIndex, nil
		}
		return RoleMemory, nil
	}
	for i := range ms.Stores {
		s := &ms.Stores[i]
		if s.Scope != "user" && s.Scope != "team" {
			continue // mounted outside the memory dir
		}
		if ix := s.IndexRel(); ix != "" && rel == ix {
			return RoleStoreIndex, s
		}
		for _, d := range s.SkillsDirs {
			if strings.HasPrefix(rel, s.root()+d+"/") {
				return RoleSkill, s
			}
		}
	}
	return RoleMemory, nil
}

// IndexFileName is the name of Claude Code's memory index.
const IndexFileName = "MEMORY.md"

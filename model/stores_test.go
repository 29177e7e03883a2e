package model

import (
	"strings"
	"testing"
)

func TestParseMemoryStores(t *testing.T) {
	for _, c := range []struct {
		raw    string
		set    bool
		mounts []string
		err    string // a part of the error, "" for none
	}{
		{"", false, nil, ""},
		{"  ", false, nil, ""},
		{`[]`, true, nil, ""},
		{`["/srv/stores/acme"]`, true, []string{"acme"}, ""},
		{`["/srv/stores/acme/"]`, true, []string{"acme"}, ""},
		{`[{"path":"/srv/x/","scope":"team"},{"path":"/srv/me","scope":"user"},{"path":"/srv/y","scope":"team","mount":"web"}]`, true, []string{"x", "web"}, ""},
		{`[{"path":"/srv/z"}]`, true, []string{"z"}, ""},
		{`{not json`, true, nil, "not valid JSON"},
		{`{"path":"/srv/z"}`, true, nil, "not valid JSON"},
		{`["/a/x","/b/x"]`, true, nil, `two team stores at "x"`},
		{`[{"path":"a","scope":"user"},{"path":"b","scope":"user"}]`, true, nil, `second store of scope "user"`},
		{`[42]`, true, nil, "element 1"},
		{`[{"path":"/a","mount":"../up"}]`, true, nil, "one folder name"},
	} {
		ms := ParseMemoryStores(c.raw)
		if ms.Set != c.set || strings.Join(ms.TeamMounts(), ",") != strings.Join(c.mounts, ",") ||
			(ms.Err != "") != (c.err != "") || !strings.Contains(ms.Err, c.err) {
			t.Errorf("ParseMemoryStores(%q) = %+v", c.raw, ms)
		}
		if ms.Err != "" && ms.Has() {
			t.Errorf("ParseMemoryStores(%q): an unusable value keeps stores %+v", c.raw, ms.Stores)
		}
	}
}

func TestStoreFields(t *testing.T) {
	ms := ParseMemoryStores(`[{"path":"/srv/a","scope":"team","mount":"web","promptIndex":"INDEX.md","promptIndexMaxBytes":8000,"skillsDirs":["skills","../out","/abs"]},` +
		`{"path":"/srv/me","scope":"user","mode":"ro","promptIndex":"../../etc/passwd"}]`)
	if ms.Err != "" || len(ms.Stores) != 2 {
		t.Fatalf("parse: %+v", ms)
	}
	web, me := ms.Stores[0], ms.Stores[1]
	if web.IndexRel() != "team/web/INDEX.md" || web.PromptIndexMaxBytes != 8000 || strings.Join(web.SkillsDirs, ",") != "skills" || web.Mode != "rw" {
		t.Errorf("team store = %+v (index %q)", web, web.IndexRel())
	}
	if me.IndexRel() != "" || me.Mode != "ro" || me.Label() != "user store" {
		t.Errorf("a promptIndex leaving the mount must name no file: %+v (index %q)", me, me.IndexRel())
	}
}

func TestStoreRole(t *testing.T) {
	none := MemoryStores{}
	ms := ParseMemoryStores(`[{"path":"/srv/a","scope":"team","mount":"web","skillsDirs":["skills"]},{"path":"/srv/me","scope":"user","promptIndex":"notes/INDEX.md","skillsDirs":["tools"]}]`)
	for _, c := range []struct {
		rel    string
		stores MemoryStores
		role   PathRole
		store  string
	}{
		{"MEMORY.md", none, RoleIndex, ""},
		{"MEMORY.md", ms, RoleIndex, ""},
		{"a.md", none, RoleMemory, ""},
		{"sub/MEMORY.md", none, RoleNestedIndex, ""},
		{"team/MEMORY.md", none, RoleNestedIndex, ""},
		// With stores only the exact index paths are indexes.
		{"sub/MEMORY.md", ms, RoleMemory, ""},
		{"team/MEMORY.md", ms, RoleMemory, ""},
		{"team/web/MEMORY.md", ms, RoleStoreIndex, "team store web"},
		{"team/other/MEMORY.md", ms, RoleMemory, ""},
		{"notes/INDEX.md", ms, RoleStoreIndex, "user store"},
		{"team/web/skills/deploy.md", ms, RoleSkill, "team store web"},
		{"team/web/skillsx/deploy.md", ms, RoleMemory, ""},
		{"tools/x.md", ms, RoleSkill, "user store"},
		{"skills/x.md", ms, RoleMemory, ""},
	} {
		role, st := c.stores.Role(c.rel)
		label := ""
		if st != nil {
			label = st.Label()
		}
		if role != c.role || label != c.store {
			t.Errorf("Role(%q) = %d, %q; want %d, %q", c.rel, role, label, c.role, c.store)
		}
	}
}

package keymap

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
)

// Rebinding from the config file. Every binding has a name a user can
// write there: its group and its action, the KeyMap's field names in
// snake case (proposals.accept, editor.row_up, global.quit). The names are
// worked out from the struct, so a binding someone adds is named at once
// (and the list in docs/KEYS.md, which a test keeps equal to Names, tells
// them to add it there). An action no other group has may be written
// alone (quit for global.quit); case, "-" and "_" do not matter
// (Proposals.Accept-Shown is proposals.accept_shown).

// Override is one rebinding: a binding's name and the keys it takes
// instead of its own.
type Override struct {
	Name string
	Keys []string
	// Line is where it was written in the config file (0: unknown), for
	// the problem that leaves it out.
	Line int
}

// Problem is why an override was left out. Its text quotes what the
// config file said (cut short, but as it is): the caller makes it safe
// before printing it.
type Problem struct {
	Override Override
	// Text says what is wrong, naming the entry: `keys: "x.y" names no
	// binding ...`.
	Text string
}

func (p Problem) Error() string { return p.Text }

// Limits on an override: a binding takes a handful of keys (the defaults
// take at most four), and a key name is a word.
const (
	maxKeysPerBinding = 8
	maxKeyLen         = 48
)

// Names lists every binding's name, group by group in the KeyMap's order,
// each group's bindings in its struct's order.
func Names() []string {
	var out []string
	walk(reflect.ValueOf(&KeyMap{}).Elem(), func(name string, _ *key.Binding) {
		out = append(out, name)
	})
	return out
}

// Binding is the binding called name (a full name, as Names gives it),
// or nil.
func (k *KeyMap) Binding(name string) *key.Binding {
	var found *key.Binding
	walk(reflect.ValueOf(k).Elem(), func(n string, b *key.Binding) {
		if n == name {
			found = b
		}
	})
	return found
}

// walk calls fn with each binding of the key map v (a KeyMap value that
// can be set) and its name.
func walk(v reflect.Value, fn func(name string, b *key.Binding)) {
	bindingType := reflect.TypeFor[key.Binding]()
	for i := range v.NumField() {
		g := v.Field(i)
		if g.Kind() != reflect.Struct {
			continue
		}
		group := snake(v.Type().Field(i).Name)
		for j := range g.NumField() {
			if g.Field(j).Type() != bindingType {
				continue
			}
			fn(group+"."+snake(g.Type().Field(j).Name), g.Field(j).Addr().Interface().(*key.Binding))
		}
	}
}

// snake turns a Go field name into a config name: NextPane is next_pane,
// EditorDiff editor_diff.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fold is a name as matched: lower case, without "-" and "_".
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// resolve finds the full name an override's name means, or says why none.
func resolve(name string, names []string) (string, string) {
	f := fold(strings.TrimSpace(name))
	var bare []string
	for _, n := range names {
		if fold(n) == f {
			return n, ""
		}
		if _, action, _ := strings.Cut(n, "."); fold(action) == f {
			bare = append(bare, n)
		}
	}
	switch {
	case len(bare) == 1:
		return bare[0], ""
	case len(bare) > 1:
		return "", fmt.Sprintf("means more than one binding (%s): write the one you mean", strings.Join(bare, ", "))
	}
	why := "names no binding (docs/KEYS.md lists them)"
	if near := nearest(f, names); near != "" {
		why = "names no binding; did you mean " + near + "? (docs/KEYS.md lists them)"
	}
	return "", why
}

// nearest is the name closest to the folded f, full or bare, when it is
// a slip of a character or two away.
func nearest(f string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		_, action, _ := strings.Cut(n, ".")
		for _, cand := range []string{n, action} {
			if d := distance(f, fold(cand)); d < bestD {
				best, bestD = n, d
			}
		}
	}
	return best
}

// distance is the edit distance between a and b (names are short; a long
// a, which is nobody's slip, is not compared at all).
func distance(a, b string) int {
	if len(a) > 64 {
		return len(a)
	}
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// modifiers are the modifier names in the order Bubble Tea writes them in
// a key's name (ctrl+alt+shift+...), which is what key.Matches compares.
var modifiers = []string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

// named are the keys with a name rather than a character, as Bubble Tea
// spells them; aliases maps other common spellings onto them.
var (
	named = map[string]bool{
		"enter": true, "tab": true, "backspace": true, "esc": true, "space": true,
		"up": true, "down": true, "left": true, "right": true, "begin": true, "find": true,
		"insert": true, "delete": true, "select": true, "pgup": true, "pgdown": true, "home": true, "end": true,
	}
	aliases = map[string]string{
		"return": "enter", "escape": "esc", "pageup": "pgup", "pagedown": "pgdown", "pgdn": "pgdown",
		"del": "delete", "ins": "insert", "bs": "backspace",
	}
)

// ParseKey reads a key as a user writes it and gives it as Bubble Tea
// names a key press (what key.Matches compares): modifiers first, in
// Bubble Tea's order, then a named key (enter, pgup, f5) or one
// character. "shift+g" is "G" and "ctrl+G" is "ctrl+shift+g", as a
// terminal reports them; a name's case does not matter ("Enter").
func ParseKey(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("an empty key")
	}
	if len(s) > maxKeyLen || !utf8.ValidString(s) {
		return "", fmt.Errorf("%s is not a key", quote(s))
	}
	mods := map[string]bool{}
	rest := s
	for {
		m, after, ok := strings.Cut(rest, "+")
		if !ok || after == "" { // "+" alone, or "ctrl++": the key is "+"
			break
		}
		m = strings.ToLower(m)
		if !slices.Contains(modifiers, m) {
			return "", fmt.Errorf("%s is not a key: %s is not a modifier (ctrl, alt, shift, meta, hyper, super)", quote(s), quote(m))
		}
		if mods[m] {
			return "", fmt.Errorf("%s is not a key: %s twice", quote(s), m)
		}
		mods[m] = true
		rest = after
	}
	base := rest
	if utf8.RuneCountInString(base) == 1 {
		r, _ := utf8.DecodeRuneInString(base)
		// A character a terminal can type and the help can show: no
		// control, blank, combining mark or format character.
		if !(unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)) {
			return "", fmt.Errorf("%s is not a key (write space, tab, enter... by name)", quote(s))
		}
		if unicode.IsUpper(r) && len(mods) > 0 {
			// A capital with a modifier arrives as the modifier, shift
			// and the small letter.
			mods["shift"] = true
			base = string(unicode.ToLower(r))
		} else if unicode.IsLower(r) && len(mods) == 1 && mods["shift"] {
			// Shift and a letter arrive as the capital.
			delete(mods, "shift")
			base = string(unicode.ToUpper(r))
		}
	} else {
		n := strings.ToLower(base)
		if a, ok := aliases[n]; ok {
			n = a
		}
		if !named[n] && !isFunctionKey(n) {
			return "", fmt.Errorf("%s is not a key: %s is neither one character nor a key's name (enter, tab, esc, space, up, pgdown, home, f1...)", quote(s), quote(base))
		}
		base = n
	}
	var b strings.Builder
	for _, m := range modifiers {
		if mods[m] {
			b.WriteString(m + "+")
		}
	}
	b.WriteString(base)
	return b.String(), nil
}

// isFunctionKey reports whether n is f1 to f63.
func isFunctionKey(n string) bool {
	num, ok := strings.CutPrefix(n, "f")
	if !ok || num == "" || num[0] == '0' {
		return false
	}
	v, err := strconv.Atoi(num)
	return err == nil && v >= 1 && v <= 63
}

// quote quotes what the config file said for a problem, cut to a few
// dozen characters, so a megabyte-long value makes a short line. It
// escapes nothing: the caller's sanitizer (internal/safe) shows control
// characters as escapes, and escaping here too would show them twice.
func quote(s string) string {
	const most = 40
	if utf8.RuneCountInString(s) > most {
		s = string([]rune(s)[:most]) + "…"
	}
	return `"` + s + `"`
}

// helpKey is how the help shows keys: the first two, arrows drawn as the
// defaults draw them.
func helpKey(keys []string) string {
	arrows := strings.NewReplacer("up", "↑", "down", "↓", "left", "←", "right", "→")
	var shown []string
	for _, k := range keys[:min(2, len(keys))] {
		if m, base, ok := cutLastPlus(k); ok {
			shown = append(shown, m+"+"+arrowOf(base, arrows))
		} else {
			shown = append(shown, arrowOf(k, arrows))
		}
	}
	return strings.Join(shown, "/")
}

// cutLastPlus splits a key into its modifiers and its base ("ctrl+up" is
// "ctrl" and "up"; "+" and "ctrl++" keep their "+").
func cutLastPlus(k string) (string, string, bool) {
	i := strings.LastIndex(k[:len(k)-1], "+")
	if i < 0 {
		return "", k, false
	}
	return k[:i], k[i+1:], true
}

// arrowOf draws an arrow key as an arrow, any other key as it is.
func arrowOf(base string, arrows *strings.Replacer) string {
	switch base {
	case "up", "down", "left", "right":
		return arrows.Replace(base)
	}
	return base
}

// With is the key map with the overrides applied: each replaces its
// binding's keys, and the binding's help shows the new ones. An override
// that names no binding (or more than one), gives no key, a key that is
// not one, or more than a few, or names a binding already overridden, is
// left out with a Problem; so is one whose key another binding live in
// the same place already takes (see Clashes), since the first match would
// silently win. The rest apply. Overrides that swap two bindings' keys
// apply together; of two overrides that take the same key, the later is
// left out. k is not changed.
func (k KeyMap) With(overrides []Override) (KeyMap, []Problem) {
	var problems []Problem
	names := Names()
	type pending struct {
		o    Override
		name string
		keys []string
	}
	var apply []pending
	seen := map[string]int{}
	for _, o := range overrides {
		bad := func(format string, args ...any) {
			problems = append(problems, Problem{o, "keys: " + fmt.Sprintf(format, args...) + "; ignored"})
		}
		name, why := resolve(o.Name, names)
		if name == "" {
			bad("%s %s", quote(o.Name), why)
			continue
		}
		if line, dup := seen[name]; dup {
			where := ""
			if line > 0 {
				where = fmt.Sprintf(" (line %d)", line)
			}
			bad("%s: %s was rebound already%s", quote(o.Name), name, where)
			continue
		}
		if len(o.Keys) == 0 {
			bad("%s: no keys given (a binding needs at least one)", name)
			continue
		}
		if len(o.Keys) > maxKeysPerBinding {
			bad("%s: %d keys given, more than the %d a binding may take", name, len(o.Keys), maxKeysPerBinding)
			continue
		}
		var keys []string
		var err error
		for _, s := range o.Keys {
			var c string
			if c, err = ParseKey(s); err != nil {
				break
			}
			if !slices.Contains(keys, c) {
				keys = append(keys, c)
			}
		}
		if err != nil {
			bad("%s: %v", name, err)
			continue
		}
		seen[name] = o.Line
		apply = append(apply, pending{o, name, keys})
	}
	// Apply them all, then take out the ones that clash, until none does:
	// taking one out gives its binding its default keys back, which may
	// clash in turn.
	for {
		out := k
		over := map[string]int{} // binding name → index in apply
		for i, p := range apply {
			b := out.Binding(p.name)
			b.SetKeys(p.keys...)
			b.SetHelp(helpKey(p.keys), b.Help().Desc)
			over[p.name] = i
		}
		drop := map[int]string{}
		for _, c := range out.Clashes() {
			ia, aOver := over[c.A]
			ib, bOver := over[c.B]
			victim, other := -1, ""
			switch {
			case aOver && bOver:
				// The later override yields to the earlier.
				victim, other = max(ia, ib), c.A
				if victim == ia {
					other = c.B
				}
			case aOver:
				victim, other = ia, c.B
			case bOver:
				victim, other = ib, c.A
			default:
				continue // the defaults' own clash: not the user's doing
			}
			if _, done := drop[victim]; !done {
				drop[victim] = fmt.Sprintf("keys: %s: %s is also the key of %s, live with it in %s; ignored", apply[victim].name, quote(c.Key), other, place(c.Scope))
			}
		}
		if len(drop) == 0 {
			return out, problems
		}
		var kept []pending
		for i, p := range apply {
			if why, ok := drop[i]; ok {
				problems = append(problems, Problem{p.o, why})
				continue
			}
			kept = append(kept, p)
		}
		apply = kept
	}
}

// place names a scope in a sentence.
func place(s Scope) string {
	switch s {
	case ScopeBrowse, ScopeFindings, ScopeIndex, ScopeProposals, ScopeChanges, ScopeJournal:
		return "the " + s.String() + " view"
	case ScopeDialog:
		return "a question"
	case ScopeInput:
		return "a text input"
	}
	return "the " + s.String()
}

// Clash is a key two bindings live at the same time both take: the first
// to match would win and the other never fire.
type Clash struct {
	Scope Scope
	Key   string
	// A and B are the bindings' names (A the one listed first).
	A, B string
}

// Clashes lists every key two bindings live in the same scope take, once
// per scope, key and pair.
func (k KeyMap) Clashes() []Clash {
	// Which group field each help title is, to name the live bindings.
	kv := reflect.ValueOf(&k).Elem()
	byTitle := map[string]string{}
	for i := range kv.NumField() {
		if g, ok := kv.Field(i).Interface().(interface{ Group() Group }); ok {
			byTitle[g.Group().Title] = snake(kv.Type().Field(i).Name) + "."
		}
	}
	type bound struct {
		name string
		b    *key.Binding
	}
	var all []bound
	walk(kv, func(name string, b *key.Binding) { all = append(all, bound{name, b}) })
	var out []Clash
	for _, s := range Scopes() {
		owner := map[string]string{}
		for _, g := range k.Live(s) {
			prefix, ok := byTitle[g.Title]
			if !ok {
				continue // a group of no field: nothing to name
			}
			for _, bd := range all {
				if !strings.HasPrefix(bd.name, prefix) {
					continue
				}
				for _, key := range bd.b.Keys() {
					if prev, ok := owner[key]; ok && prev != bd.name {
						out = append(out, Clash{Scope: s, Key: key, A: prev, B: bd.name})
						continue
					}
					owner[key] = bd.name
				}
			}
		}
	}
	return out
}

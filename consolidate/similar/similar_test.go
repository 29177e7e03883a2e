package similar

import (
	"fmt"
	"github.com/memtui/memtui/internal/testgen"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDuplicatePairs(t *testing.T) {
	pos, neg := 0, 0
	for i, p := range testgen.SimilarPairs {
		if p.Dup {
			pos++
		} else {
			neg++
		}
		a, b := Item(p.A), Item(p.B)
		a.Path = fmt.Sprintf("p%02d/%s", i, a.Path)
		b.Path = fmt.Sprintf("p%02d/%s", i, b.Path)
		gs := Find([]Item{a, b})
		sc := new(dupScratch)
		docs := sc.start(2)
		sc.newDoc(&docs[0], a)
		sc.newDoc(&docs[1], b)
		f := newDupFinder(docs, sc)
		s := f.sims(&f.docs[0], &f.docs[1])
		t.Logf("%-45s shingle %.2f body %.2f meta %.2f -> %v", p.Name, s.shingle, s.body, s.meta, gs)
		if got := len(gs) == 1; got != p.Dup {
			t.Errorf("%s: duplicate = %v, want %v (%+v)", p.Name, got, p.Dup, gs)
			continue
		}
		if p.Dup && !strings.HasPrefix(gs[0].Reason, p.Kind) &&
			!(p.Kind == "fuzzy" && (strings.HasPrefix(gs[0].Reason, "bodies") || strings.HasPrefix(gs[0].Reason, "names"))) {
			t.Errorf("%s: reason %q, want %q...", p.Name, gs[0].Reason, p.Kind)
		}
	}
	if pos < 10 || neg < 10 {
		t.Errorf("the table needs at least 10 pairs of each kind: %d positive, %d negative", pos, neg)
	}
}

// TestDuplicatePairsTogether runs the whole table as one directory: exactly
// the duplicate pairs may come out, each on its own.
func TestDuplicatePairsTogether(t *testing.T) {
	var items []Item
	var want [][]string
	for i, p := range testgen.SimilarPairs {
		a, b := Item(p.A), Item(p.B)
		a.Path = fmt.Sprintf("p%02d/%s", i, a.Path)
		b.Path = fmt.Sprintf("p%02d/%s", i, b.Path)
		items = append(items, a, b)
		if p.Dup {
			w := []string{a.Path, b.Path}
			slices.Sort(w)
			want = append(want, w)
		}
	}
	var got [][]string
	for _, g := range Find(items) {
		w := slices.Clone(g.Paths)
		slices.Sort(w)
		got = append(got, w)
	}
	slices.SortFunc(got, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	slices.SortFunc(want, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got groups\n%v\nwant\n%v", got, want)
	}
}

// TestDuplicatePairsInCrowd hides the table among a thousand unrelated
// memories: the blocking indexes must still propose every duplicate pair,
// and token weights that now see a large directory must not create false
// ones.
func TestDuplicatePairsInCrowd(t *testing.T) {
	var items []Item
	var want []string
	for i, p := range testgen.SimilarPairs {
		a, b := Item(p.A), Item(p.B)
		a.Path = fmt.Sprintf("p%02d/%s", i, a.Path)
		b.Path = fmt.Sprintf("p%02d/%s", i, b.Path)
		items = append(items, a, b)
		if p.Dup {
			w := []string{a.Path, b.Path}
			slices.Sort(w)
			want = append(want, fmt.Sprint(w))
		}
	}
	for i, it := range genDupItems(2000, 5) {
		if i%2 == 1 { // the distinct half
			it.Path = "crowd/" + it.Path
			items = append(items, it)
		}
	}
	var got []string
	for _, g := range Find(items) {
		w := slices.Clone(g.Paths)
		slices.Sort(w)
		got = append(got, fmt.Sprint(w))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got groups\n%v\nwant\n%v", got, want)
	}
}

func TestDuplicateKeepAndOrder(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 5, d, 0, 0, 0, 0, time.UTC) }
	body := "Use pnpm, not npm or yarn: the lockfile is pnpm-lock.yaml and CI fails on any other lockfile."
	items := []Item{
		{Path: "c.md", Body: body, Modified: day(3)},
		{Path: "b.md", Body: body, Modified: day(1)},
		{Path: "a.md", Body: body, Modified: day(2)},
		{Path: "z.md", Body: body, Modified: day(1)},
		{Path: "other.md", Body: "Something else entirely, about the staging database credentials rotation."},
	}
	gs := Find(items)
	if len(gs) != 1 || fmt.Sprint(gs[0].Paths) != "[b.md a.md c.md z.md]" || gs[0].Reason != "identical bodies" || gs[0].Score != 1 {
		t.Fatalf("got %+v", gs)
	}
	// The same answer whatever the input order.
	for range 10 {
		rand.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		if g2 := Find(items); fmt.Sprint(g2) != fmt.Sprint(gs) {
			t.Fatalf("order-dependent: %+v vs %+v", g2, gs)
		}
	}
	if Find(nil) != nil || Find(items[:1]) != nil {
		t.Error("fewer than two items make no group")
	}
}

func TestDupTokens(t *testing.T) {
	h := func(ws ...string) []uint64 {
		var out []uint64
		for _, w := range ws {
			var buf [32]byte
			copy(buf[:], w)
			out = append(out, dupHashWord(&buf, len(w)))
		}
		return out
	}
	cases := []struct {
		in   string
		want []uint64
	}{
		{"Deploying the tests", h("deploy", "test")},
		{"**Why:** committing; deployments, DEPLOYED", h("commit", "deploy", "deploy")},
		{"run go test -race 2026-05-26 v2", h("run", "go", "test", "race", "v2")},
		{"", nil},
		{"x", nil},
	}
	for _, c := range cases {
		got, truncated := dupTokens(c.in, nil, false, dupMaxTokens)
		if !slices.Equal(got, c.want) || truncated {
			t.Errorf("dupTokens(%q) = %x, want %x", c.in, got, c.want)
		}
	}
	long := strings.Repeat("word ", dupMaxTokens+10)
	if got, truncated := dupTokens(long, nil, false, dupMaxTokens); len(got) != dupMaxTokens || !truncated {
		t.Errorf("limit: %d tokens, truncated %v", len(got), truncated)
	}
	if got, _ := dupTokens("feedback_testing-notes", nil, true, dupMaxTokens); !slices.Equal(got, h("test")) {
		t.Errorf("meta words: %x", got)
	}
}

// refTokens is dupTokens written the plain way, a byte at a time: the
// reference the fast tokenizer (bitmap, eight bytes at a time, word cache)
// must match exactly.
func refTokens(s string, meta bool, limit int) (out []uint64, truncated bool) {
	var buf [32]byte
	n, or := 0, byte(0)
	for i := 0; i <= len(s); i++ {
		c := byte(0)
		if i < len(s) {
			c = dupFold[s[i]]
		}
		if c != 0 {
			if n < len(buf) {
				buf[n] = c
			}
			n++
			or |= c
			continue
		}
		if n >= 2 && n <= len(buf) && or >= 0x40 {
			h := dupHashWord(&buf, len(dupStem(buf[:n])))
			if !dupStop.has(h) && !(meta && dupMetaStop.has(h)) {
				if len(out) == limit {
					return out, true
				}
				out = append(out, h)
			}
		}
		n, or = 0, 0
	}
	return out, false
}

// TestDupTokensReference checks the tokenizer against refTokens on
// random text built to hit its edges: words across 64-byte blocks and
// at the end of the text, words of 8, 15, 16, 32 and 33 bytes, suffixes
// the stemmer cuts, capitals, digits, UTF-8, and stop words. One
// tokenizer serves every case, as a pooled one does, so the word cache
// and numbering are exercised too.
func TestDupTokensReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	pieces := []string{"a", "I", "the", "Deployments", "testing", "tested", "committing", "stopped", "classes",
		"feedback", "notes", "quickly", "2026", "v2", "x86_64", "é", "日本語", "ABCDEFGH", "abcdefghijklmno",
		"abcdefghijklmnop", "abcdefghijklmnopqrstuvwxyzabcdef", "abcdefghijklmnopqrstuvwxyzabcdefg",
		"0123456789012345", " ", "  ", "\n", "-", "_", ".", "/", "@", "[", "`", "{", "\x7f", "\x00", "\xff"}
	var z dupTokenizer
	check := func(s string) {
		t.Helper()
		for _, meta := range []bool{false, true} {
			for _, limit := range []int{dupMaxTokens, 0, 1, 7} {
				want, wantTrunc := refTokens(s, meta, limit)
				got, gotTrunc := z.tokens(s, nil, meta, limit)
				if !slices.Equal(got, want) || gotTrunc != wantTrunc {
					t.Fatalf("tokens(%q, meta %v, limit %d) = %x %v, want %x %v", s, meta, limit, got, gotTrunc, want, wantTrunc)
				}
				if len(z.tids) != len(got) {
					t.Fatalf("tokens(%q): %d word numbers for %d words", s, len(z.tids), len(got))
				}
			}
		}
	}
	for range 20000 {
		var sb strings.Builder
		for n := r.IntN(300); sb.Len() < n; {
			sb.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(2) == 0 {
				sb.WriteByte(' ')
			}
		}
		check(sb.String())
	}
	for _, p := range testgen.SimilarPairs {
		for _, it := range []Item{Item(p.A), Item(p.B)} {
			check(it.Body)
			check(it.Name + " " + it.Description + " " + it.Path)
		}
	}
}

// TestFindDuplicatesReuse runs Find again and again, and from
// several goroutines at once (run it with -race): the pooled scratch, the
// word cache and the word numbers it keeps between calls must not change
// an answer.
func TestFindDuplicatesReuse(t *testing.T) {
	inputs := [][]Item{genDupItems(300, 4), genDupItems(40, 5), nil}
	for _, p := range testgen.SimilarPairs {
		inputs[2] = append(inputs[2], Item(p.A), Item(p.B))
	}
	want := make([]string, len(inputs))
	for i, items := range inputs {
		want[i] = fmt.Sprint(Find(items))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 6 {
				i := (g + k) % len(inputs)
				if got := fmt.Sprint(Find(inputs[i])); got != want[i] {
					t.Errorf("input %d, goroutine %d, round %d: got %s, want %s", i, g, k, got, want[i])
				}
			}
		}()
	}
	wg.Wait()
}

func TestDupStripDate(t *testing.T) {
	cases := map[string]string{
		"x-2026-05-26":          "x",
		"standup_2026_05_26":    "standup",
		"standup-2026-05-27":    "standup",
		"2026-05-26-retro":      "retro",
		"perf_20260526":         "perf",
		"report-2026-05":        "report",
		"log-2026-05-26T10-15":  "log",
		"2026-05-26":            "",
		"build-12026051":        "!",
		"deploy-process":        "!",
		"incident-2026-13-01-x": "!",
	}
	for in, want := range cases {
		got, ok := dupStripDate(in)
		if want == "!" {
			if ok {
				t.Errorf("%s: found a date (%q)", in, got)
			}
			continue
		}
		if !ok || got != want {
			t.Errorf("%s: %q %v, want %q", in, got, ok, want)
		}
	}
}

// genDupItems makes n memories: half in five large families of edited
// copies (one word in twenty replaced, dropped or added; names varied),
// the rest distinct memories drawn from the same vocabulary.
func genDupItems(n int, seed uint64) []Item { return genDupItemsIn(n, seed, 5) }

// genDupItemsIn is genDupItems with the copies in the given number of
// groups.
func genDupItemsIn(n int, seed uint64, groups int) []Item {
	r := rand.New(rand.NewPCG(seed, 11))
	vocab := make([]string, 5000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("%s%d", []string{"deploy", "test", "cache", "queue", "user", "api", "db", "flag", "build", "auth"}[i%10], i)
	}
	word := func() string {
		// Zipf-like: a few words are common, most are rare.
		return vocab[int(float64(len(vocab))*r.Float64()*r.Float64()*r.Float64())]
	}
	sentence := func(k int) string {
		ws := make([]string, k)
		for i := range ws {
			ws[i] = word()
		}
		return strings.Join(ws, " ") + "."
	}
	body := func() string {
		var sb strings.Builder
		for range 8 + r.IntN(8) {
			sb.WriteString(sentence(8 + r.IntN(8)))
			sb.WriteString(" ")
		}
		return sb.String()
	}
	mutate := func(b string) string {
		ws := strings.Fields(b)
		out := ws[:0:0]
		for _, w := range ws {
			switch x := r.Float64(); {
			case x < 0.02:
				// dropped
			case x < 0.04:
				out = append(out, word())
			case x < 0.05:
				out = append(out, w, word())
			default:
				out = append(out, w)
			}
		}
		return strings.Join(out, " ")
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	items := make([]Item, 0, n)
	bases := make([]string, groups)
	for g := range bases {
		bases[g] = body()
	}
	for i := range n {
		it := Item{Modified: base.Add(time.Duration(r.IntN(1e6)) * time.Second), Type: "project"}
		if i%2 == 0 {
			g := (i / 2) % groups
			// A name per copy, but not a numbered series (topic-3-v16,
			// topic-3-v26 would be told apart by their numbers).
			it.Path = fmt.Sprintf("topic-%d-%s.md", g, testgen.Letters(i))
			it.Name = fmt.Sprintf("Topic %d notes %s", g, word())
			it.Description = fmt.Sprintf("What we know about topic %d", g)
			if r.IntN(2) == 0 {
				it.Description += " and " + word()
			}
			it.Body = mutate(bases[g])
		} else {
			it.Path = fmt.Sprintf("memory-%d-%s.md", i, word())
			it.Name = fmt.Sprintf("%s %s %s", word(), word(), word())
			it.Description = sentence(6)
			it.Body = body()
		}
		items = append(items, it)
	}
	return items
}

// topicOf is the planted group of a generated copy ("topic-3-bc.md": 3).
func topicOf(p string) string {
	if !strings.HasPrefix(p, "topic-") {
		return ""
	}
	return strings.Split(p, "-")[1]
}

func TestDuplicatesGenerated(t *testing.T) {
	// 250 groups of four edited copies among 1,000 distinct memories. The
	// blocking finds most pairs (a few groups come out in two pairs, when
	// no pair across them shared a band), and never mixes two groups.
	gs := Find(genDupItemsIn(2000, 1, 250))
	members := 0
	for _, g := range gs {
		topic := topicOf(g.Paths[0])
		for _, p := range g.Paths {
			if topic == "" || topicOf(p) != topic {
				t.Errorf("distinct memory %s grouped: %v", p, g.Paths)
			}
		}
		members += len(g.Paths)
	}
	t.Logf("%d of 1,000 copies in %d groups", members, len(gs))
	if members < 900 {
		t.Errorf("%d of the 1,000 planted copies grouped, in %d groups", members, len(gs))
	}
}

// Five families of 200 edited copies each: sets that large are not one
// memory written again, so none is merged whole; only identical copies
// among them (a copy the edits left alone) may be grouped.
func TestDuplicateFamiliesAreNotGroups(t *testing.T) {
	for _, g := range Find(genDupItems(2000, 1)) {
		if len(g.Paths) > MaxGroup || g.Reason != "identical bodies" {
			t.Errorf("group of %d (%s): %v", len(g.Paths), g.Reason, g.Paths[:min(len(g.Paths), 5)])
		}
		for _, p := range g.Paths {
			if topicOf(p) == "" {
				t.Errorf("distinct memory %s grouped", p)
			}
		}
	}
}

func BenchmarkFindDuplicates(b *testing.B) {
	for _, n := range []int{10000, 20000} {
		items := genDupItems(n, 2)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Find(items)
			}
		})
	}
}

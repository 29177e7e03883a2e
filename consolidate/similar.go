package consolidate

// Near-duplicate memories (the duplicate-memory check, and the input of
// Dream's merge proposals).
//
// Real duplicates are rewrites, not copies: an agent that forgot it already
// wrote "deploy with make ship" writes it again in other words, under a
// similar name, or starts a dated series (standup_2026_05_26.md,
// standup_2026_05_27.md). So FindDuplicates matches on the file stem, the
// frontmatter name and description as well as on the body:
//
//   - exact: the same body once case, punctuation, whitespace and filler
//     words are set aside;
//   - dated series: the same stem once the date is removed, in the same
//     directory, with the same type;
//   - same name and description, whatever the bodies say;
//   - near-copy: bodies whose word pairs mostly coincide;
//   - rewrite: names, descriptions and stems that largely agree, and bodies
//     that share a fair part of their vocabulary.
//
// It never compares every pair. Exact, series and name+description matches
// come from hash maps. Fuzzy candidates come from two blocking indexes:
// MinHash (one-permutation hashing, 32 bins, LSH with 8 bands of 4) over the
// body's word pairs, and an inverted index over the rare meta tokens (stem,
// name and description words that few items share). A candidate pair is
// first judged on the MinHash estimates of its similarities (32 comparisons)
// and only then, when in reach of a threshold, on exact ones; pairs are
// grouped with union-find, pairs already in one group are never verified,
// and a large bucket is compared against a few representatives rather than
// pair by pair, so a big group of copies costs linear time.
//
// Precision matters more than recall here: a rule that cries wolf gets
// switched off. Two different feedback memories about one subject ("run
// tests with -race" and "never mock the database in tests") share a
// vocabulary and a type but are not duplicates; the thresholds below come
// from the table of realistic pairs in similar_test.go.

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"
)

// DupItem is one memory as FindDuplicates sees it.
type DupItem struct {
	Path        string // relative to the memory dir, slash-separated
	Name        string // frontmatter name
	Description string // frontmatter description
	Body        string // the text after the frontmatter
	Modified    time.Time
	// Type is the memory type as written; optional. When both items of a
	// dated series have one, they must agree (a feedback and a project
	// memory that happen to share a stem are not a series).
	Type string
}

// DupGroup is a set of memories that say the same thing.
type DupGroup struct {
	// Paths[0] is the memory to keep: the oldest by Modified (it has the
	// history), ties broken by path. The rest follow sorted by path.
	Paths []string
	// Reason says why, for humans: "identical bodies", "dated series",
	// "same name and description", "bodies 84% alike", "names and
	// descriptions 70% alike, bodies 45% alike". A group is held together
	// by links between pairs of its members; Reason is that of the weakest
	// link, so it holds for the whole group ("at least this alike").
	Reason string
	// Score is the strength of that link, 0..1 (1 for exact, series and
	// name+description matches).
	Score float64
}

// Thresholds, chosen with the pair table in similar_test.go (run
// TestDuplicatePairs with -v to see every pair's similarities). Three
// similarities are used: shingle, the Jaccard similarity of the bodies'
// sets of adjacent content-word pairs; body, the weighted Jaccard
// similarity of their content words; meta, the weighted Jaccard similarity
// of the words of the stem, name and description (or of the stem and name
// alone, when that is higher). In the table, memories that are not
// duplicates, even on one subject, score at most 0.20 shingle and 0.29
// body; their meta stays at 0.40 or below except for two memories named
// alike whose bodies share nothing (0.50, body 0.00).
const (
	// dupCopyShingle: bodies whose word pairs mostly coincide are
	// near-copies whatever their names say. Copies edited in a sentence or
	// extended by an update score 0.7-0.95; word pairs are specific, so
	// memories that only share a subject stay under 0.2.
	dupCopyShingle = 0.5
	// dupCopyMinShingles: shorter bodies are too short for the near-copy
	// rule ("See the deploy doc." and "See the testing doc." share half
	// their pairs).
	dupCopyMinShingles = 8
	// dupSameBody: bodies sharing this much of their vocabulary say the
	// same thing even in another order ("freeze 2026-06-01..14 for the SOC2
	// audit; hotfixes need Dana" written twice scores 0.73), provided the
	// titles agree a little (dupSameBodyMeta) and the bodies are not stubs
	// (dupSameBodyMinTokens words).
	dupSameBody          = 0.55
	dupSameBodyMeta      = 0.2
	dupSameBodyMinTokens = 8
	// dupRewriteMeta and dupRewriteBody: a rewrite in other words has
	// titles that largely agree ("Deploy process" / "Deployment", "Lint
	// before committing" / "golangci-lint before commit": 0.6-1.0) and
	// bodies sharing a third or more of their vocabulary (0.38-0.58).
	// Related memories fail one or the other: "Staging deploys" and
	// "Production deploys" share the commands (body 0.29) but their titles
	// differ in the word that matters (meta 0.33); "-race" and "never mock
	// the database" share only "test" (meta 0.20, body 0.10).
	dupRewriteMeta = 0.5
	dupRewriteBody = 0.35
	// dupMinBodyTokens: a body with fewer content words is a stub; it
	// takes part in exact, series and name+description matches only.
	dupMinBodyTokens = 5
)

// Blocking parameters.
const (
	dupBins       = 32 // one-permutation MinHash bins
	dupBandRows   = 4  // rows per LSH band: 8 bands; pairs with Jaccard 0.5 collide with p≈0.4, 0.7 with p≈0.9
	dupSmallBlock = 32 // buckets up to this size are verified pair by pair
	dupReps       = 8  // larger buckets: each member is compared with at most this many representatives
	dupMetaCap    = 32 // a meta token in more items than this is too common to block on (a fixed cap keeps the index linear)
	// dupMaxTokens caps the content words read from a body (about 4 KB of
	// prose, what recall injects anyway): a 115 KB memory costs no more
	// than a long one.
	dupMaxTokens = 600
)

// dupDoc is what FindDuplicates derives from an item, once.
type dupDoc struct {
	path     string
	modified time.Time
	typ      string
	series   string // dir + residual stem when the stem holds a date, else ""
	nameDesc uint64 // hash of the normalised name and description; 0 if either is empty
	bodyHash uint64 // hash of the normalised body; 0 for stubs
	// body holds the distinct content-word hashes, in first-seen order;
	// sorted (bodySorted) when the document is first verified.
	body       []uint64
	bodySorted bool
	// shingles hashes adjacent content-word pairs, in text order; sorted
	// and deduplicated (shinglesSorted) only when the document is first
	// verified, which most documents never are.
	shingles       []uint64
	shinglesSorted bool
	meta           []uint64  // sorted distinct stem, name and description word hashes
	title          []uint64  // the same for the stem and name only
	bodyW          []float32 // token weights, set by dupFinder.weighBody
	metaW          []float32 // and weighMeta
	titleW         []float32
	sig            [dupBins]uint32 // MinHash of the shingles
	hasSig         bool
	bodySig        [dupBins]uint32 // MinHash of the content words
}

// FindDuplicates groups the items that say the same thing. Each group has at
// least two members; groups are sorted by their first path. It runs in time
// roughly linear in the number of items.
func FindDuplicates(items []DupItem) []DupGroup {
	if len(items) < 2 {
		return nil
	}
	// Work in path order so that the result does not depend on input order.
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(items[a].Path, items[b].Path) })
	docs := make([]dupDoc, len(items))
	var seen []uint64
	for k, i := range order {
		docs[k] = newDupDoc(items[i], &seen)
	}
	f := newDupFinder(docs)
	f.exactMatches()
	f.lshMatches()
	f.metaMatches()
	return f.groups()
}

// dupFinder holds the documents, token weights and the union-find forest.
type dupFinder struct {
	docs   []dupDoc
	df     map[uint64]int32 // meta (salted) and body token document frequencies
	bodyDF bool             // the body tokens have been counted into df
	wcap   float64          // tokens in more documents than this are down-weighted
	parent []int32
	weak   []dupEdge // per root: the weakest link holding its group together
	// verified remembers pairs already verified (by LSH bands and the meta
	// index, which find the same pair many times).
	verified map[[2]int32]bool
}

type dupEdge struct {
	score  float64
	reason string
	rank   int // the kind of link, strongest first: exact 4, series 3, name+desc 2, fuzzy 1
}

func newDupFinder(docs []dupDoc) *dupFinder {
	f := &dupFinder{
		docs:     docs,
		df:       make(map[uint64]int32, len(docs)*4),
		parent:   make([]int32, len(docs)),
		weak:     make([]dupEdge, len(docs)),
		verified: map[[2]int32]bool{},
	}
	for i := range f.parent {
		f.parent[i] = int32(i)
	}
	for i := range docs {
		for _, t := range docs[i].meta {
			f.df[t^dupMetaSalt]++
		}
	}
	// Boilerplate (a line every feedback memory has, a project name in every
	// description) would make unrelated memories look alike; a token counts
	// fully only while it is in at most a tenth of the memories (and always
	// when there are few of them: in a directory of five, two memories
	// sharing a word is evidence, not boilerplate).
	f.wcap = math.Max(2, float64(len(docs))/10)
	return f
}

// weighBody and weighMeta compute a document's token weights the first
// time it is verified (most documents never are). Body weights need the
// sorted body set.
func (f *dupFinder) weighBody(d *dupDoc) {
	if d.bodyW != nil {
		return
	}
	if !f.bodyDF {
		// Body word frequencies are counted the first time a pair gets
		// this far: in most directories none does.
		for i := range f.docs {
			for _, t := range f.docs[i].body {
				f.df[t]++
			}
		}
		f.bodyDF = true
	}
	d.bodyW = f.weights(d.bodySet(), 0)
}

func (f *dupFinder) weighMeta(d *dupDoc) {
	if d.metaW == nil {
		d.metaW = f.weights(d.meta, dupMetaSalt)
		d.titleW = f.weights(d.title, dupMetaSalt)
	}
}

// weights gives each token its weight: 1 while it is in at most f.wcap
// documents, wcap/df beyond.
func (f *dupFinder) weights(ts []uint64, salt uint64) []float32 {
	w := make([]float32, len(ts))
	for i, t := range ts {
		w[i] = 1
		if df := float64(f.df[t^salt]); df > f.wcap {
			w[i] = float32(f.wcap / df)
		}
	}
	return w
}

// dupMetaSalt keeps meta and body tokens apart in the shared df map.
const dupMetaSalt = 0x9e3779b97f4a7c15

func (f *dupFinder) find(i int32) int32 {
	for f.parent[i] != i {
		f.parent[i] = f.parent[f.parent[i]]
		i = f.parent[i]
	}
	return i
}

func (f *dupFinder) union(a, b int32, e dupEdge) {
	ra, rb := f.find(a), f.find(b)
	if ra == rb {
		return
	}
	if rb < ra {
		ra, rb = rb, ra
	}
	f.parent[rb] = ra
	for _, o := range []dupEdge{f.weak[rb], e} {
		if o.rank != 0 && (f.weak[ra].rank == 0 || o.weaker(f.weak[ra])) {
			f.weak[ra] = o
		}
	}
}

// weaker orders links by kind (fuzzy < name+description < series < exact),
// then by score.
func (e dupEdge) weaker(o dupEdge) bool {
	if e.rank != o.rank {
		return e.rank < o.rank
	}
	return e.score < o.score
}

// exactMatches links identical bodies, dated series and equal
// name+description pairs through hash maps.
func (f *dupFinder) exactMatches() {
	link := func(key func(*dupDoc) uint64, e dupEdge) {
		first := map[uint64]int32{}
		for i := range f.docs {
			k := key(&f.docs[i])
			if k == 0 {
				continue
			}
			if j, seen := first[k]; seen {
				f.union(j, int32(i), e)
			} else {
				first[k] = int32(i)
			}
		}
	}
	link(func(d *dupDoc) uint64 { return d.bodyHash }, dupEdge{1, "identical bodies", 4})
	link(func(d *dupDoc) uint64 { return d.nameDesc }, dupEdge{1, "same name and description", 2})

	// A dated series: one stem once the date is removed, one directory, and
	// one type. A member without a type joins the series of its stem.
	series := map[string][]int32{}
	var keys []string
	for i := range f.docs {
		if d := &f.docs[i]; d.series != "" {
			if _, ok := series[d.series]; !ok {
				keys = append(keys, d.series)
			}
			series[d.series] = append(series[d.series], int32(i))
		}
	}
	e := dupEdge{1, "dated series", 3}
	for _, k := range keys {
		ms := series[k]
		byType := map[string]int32{}
		var untyped []int32
		for _, m := range ms {
			t := f.docs[m].typ
			if t == "" {
				untyped = append(untyped, m)
				continue
			}
			if j, ok := byType[t]; ok {
				f.union(j, m, e)
			} else {
				byType[t] = m
			}
		}
		// Untyped members link with each other and, when the typed ones
		// agree on a single type, with those.
		for x := 1; x < len(untyped); x++ {
			f.union(untyped[0], untyped[x], e)
		}
		if len(untyped) > 0 && len(byType) == 1 {
			for _, j := range byType {
				f.union(untyped[0], j, e)
			}
		}
	}
}

// lshMatches verifies the pairs whose body MinHash signatures agree on a
// whole band.
func (f *dupFinder) lshMatches() {
	nb := dupBins / dupBandRows
	buckets := make(map[uint64][]int32, len(f.docs))
	for band := 0; band < nb; band++ {
		clear(buckets)
		var keys []uint64 // in first-seen order, for determinism
		for i := range f.docs {
			d := &f.docs[i]
			if !d.hasSig {
				continue
			}
			h := uint64(band+1) * 0x9e3779b97f4a7c15
			for r := 0; r < dupBandRows; r++ {
				h = dupMix(h ^ uint64(d.sig[band*dupBandRows+r]))
			}
			if _, ok := buckets[h]; !ok {
				keys = append(keys, h)
			}
			buckets[h] = append(buckets[h], int32(i))
		}
		for _, k := range keys {
			f.verifyBlock(buckets[k])
		}
	}
}

// metaMatches verifies the pairs that share rare meta tokens.
func (f *dupFinder) metaMatches() {
	// Rare means in at most an eighth of the memories (at least 3, at most
	// dupMetaCap): in a directory of 40, a word that six memories share
	// says little about any two of them, and blocking on it would make
	// every pair of them a candidate.
	limit := int32(min(dupMetaCap, max(3, len(f.docs)/8)))
	postings := map[uint64][]int32{}
	for i := range f.docs {
		for _, t := range f.docs[i].meta {
			if f.df[t^dupMetaSalt] <= limit && f.df[t^dupMetaSalt] > 1 {
				postings[t] = append(postings[t], int32(i))
			}
		}
	}
	// A shared word counts 2 when it is in at most 3 memories ("soc2",
	// "golangci"): one such word is candidate enough. Other rare words
	// count 1, and a candidate needs 2 (1 when either side has a single
	// meta word).
	weight := func(t uint64) int32 {
		if f.df[t^dupMetaSalt] <= 3 {
			return 2
		}
		return 1
	}
	count := make([]int32, len(f.docs))
	var touched []int32
	for i := range f.docs {
		d := &f.docs[i]
		touched = touched[:0]
		for _, t := range d.meta {
			w := weight(t)
			for _, j := range postings[t] {
				if j >= int32(i) {
					break
				}
				if count[j] == 0 {
					touched = append(touched, j)
				}
				count[j] += w
			}
		}
		slices.Sort(touched)
		for _, j := range touched {
			need := int32(2)
			if len(d.meta) < 2 || len(f.docs[j].meta) < 2 {
				need = 1
			}
			// Candidates from this index are about titles: a pair whose
			// titles do not even agree a little could only be a
			// near-copy, and the MinHash index is there for those.
			if count[j] >= need && f.metaSim(&f.docs[j], d) >= min(dupSameBodyMeta, dupRewriteMeta) {
				f.verifyPair(j, int32(i))
			}
			count[j] = 0
		}
	}
}

// verifyBlock verifies the members of one bucket: pair by pair when it is
// small, against a few representatives when it is large (a big group of
// copies then costs linear time: each member joins at the first
// representative).
func (f *dupFinder) verifyBlock(ms []int32) {
	if len(ms) < 2 {
		return
	}
	if len(ms) <= dupSmallBlock {
		for x := 1; x < len(ms); x++ {
			for y := 0; y < x; y++ {
				f.verifyPair(ms[y], ms[x])
			}
		}
		return
	}
	var reps []int32
	for _, m := range ms {
		joined := false
		for _, r := range reps {
			if f.find(r) == f.find(m) || f.verifyPair(r, m) {
				joined = true
				break
			}
		}
		if !joined && len(reps) < dupReps {
			reps = append(reps, m)
		}
	}
}

// verifyPair links a and b when they are duplicates; it reports whether
// they are (now) in one group.
func (f *dupFinder) verifyPair(a, b int32) bool {
	if f.find(a) == f.find(b) {
		return true
	}
	key := [2]int32{min(a, b), max(a, b)}
	if f.verified[key] {
		return false
	}
	f.verified[key] = true
	if e, ok := f.similar(&f.docs[a], &f.docs[b]); ok {
		f.union(a, b, e)
		return true
	}
	return false
}

// bodySet returns the document's sorted, distinct content words.
func (d *dupDoc) bodySet() []uint64 {
	if !d.bodySorted {
		slices.Sort(d.body)
		d.bodySorted = true
	}
	return d.body
}

// shingleSet returns the document's sorted, distinct shingles.
func (d *dupDoc) shingleSet() []uint64 {
	if !d.shinglesSorted {
		d.shingles = dupSet(d.shingles)
		d.shinglesSorted = true
	}
	return d.shingles
}

// dupSims are the similarities the decision uses.
type dupSims struct {
	shingle float64 // Jaccard of body word-pair sets
	body    float64 // weighted Jaccard of body content words
	meta    float64 // weighted Jaccard of stem, name and description words, or of stem and name words if higher
}

func (f *dupFinder) sims(a, b *dupDoc) dupSims {
	return dupSims{shingle: f.shingleSim(a, b), body: f.bodySim(a, b), meta: f.metaSim(a, b)}
}

func (f *dupFinder) shingleSim(a, b *dupDoc) float64 {
	return jaccardSorted(a.shingleSet(), b.shingleSet())
}

func (f *dupFinder) bodySim(a, b *dupDoc) float64 {
	f.weighBody(a)
	f.weighBody(b)
	return weightedJaccard(a.body, a.bodyW, b.body, b.bodyW)
}

// metaSim: names and stems are terse topic labels, descriptions wordier;
// titles that agree count even when the descriptions ramble apart.
func (f *dupFinder) metaSim(a, b *dupDoc) float64 {
	f.weighMeta(a)
	f.weighMeta(b)
	return max(weightedJaccard(a.meta, a.metaW, b.meta, b.metaW),
		weightedJaccard(a.title, a.titleW, b.title, b.titleW))
}

// similar decides whether two memories are duplicates (see the
// thresholds). It computes the cheap similarities first: the meta sets are
// a few words, the body sets need sorting the first time.
func (f *dupFinder) similar(a, b *dupDoc) (dupEdge, bool) {
	if len(a.body) < dupMinBodyTokens || len(b.body) < dupMinBodyTokens {
		return dupEdge{}, false
	}
	pct := func(x float64) int { return int(100*x + 0.5) }
	// The MinHash signatures estimate both body similarities in 32
	// comparisons, within about ±0.09 (one standard deviation at 0.5); the
	// exact ones, which sort both sets the first time, run only when the
	// estimate is within reach of a threshold. Most candidates (memories
	// that merely share a subject) stop here.
	if a.hasSig && b.hasSig && dupSigSim(&a.sig, &b.sig) >= dupCopyShingle-dupEstSlack {
		if sh := f.shingleSim(a, b); sh >= dupCopyShingle && min(len(a.shingleSet()), len(b.shingleSet())) >= dupCopyMinShingles {
			return dupEdge{sh, fmt.Sprintf("bodies %d%% alike", pct(sh)), 1}, true
		}
	}
	meta := f.metaSim(a, b)
	if meta < min(dupSameBodyMeta, dupRewriteMeta) {
		return dupEdge{}, false
	}
	// Below dupRewriteMeta only the same-vocabulary rule can still apply.
	need := dupSameBody
	if meta >= dupRewriteMeta {
		need = min(dupSameBody, dupRewriteBody)
	}
	if dupSigSim(&a.bodySig, &b.bodySig) < need-dupEstSlack {
		return dupEdge{}, false
	}
	body := f.bodySim(a, b)
	switch {
	case body >= dupSameBody && meta >= dupSameBodyMeta && min(len(a.body), len(b.body)) >= dupSameBodyMinTokens:
		return dupEdge{body, fmt.Sprintf("bodies %d%% alike in wording", pct(body)), 1}, true
	case meta >= dupRewriteMeta && body >= dupRewriteBody:
		return dupEdge{(meta + body) / 2, fmt.Sprintf("names and descriptions %d%% alike, bodies %d%% alike",
			pct(meta), pct(body)), 1}, true
	}
	return dupEdge{}, false
}

// weightedJaccard over sorted token sets with their weights.
func weightedJaccard(a []uint64, aw []float32, b []uint64, bw []float32) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	var inter, union float32
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			union += aw[i]
			i++
		case b[j] < a[i]:
			union += bw[j]
			j++
		default:
			inter += aw[i]
			union += aw[i]
			i++
			j++
		}
	}
	for ; i < len(a); i++ {
		union += aw[i]
	}
	for ; j < len(b); j++ {
		union += bw[j]
	}
	return float64(inter / union)
}

func jaccardSorted(a, b []uint64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case b[j] < a[i]:
			j++
		default:
			inter++
			i++
			j++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// groups turns the union-find forest into sorted groups.
func (f *dupFinder) groups() []DupGroup {
	members := map[int32][]int32{}
	var roots []int32
	for i := range f.docs {
		r := f.find(int32(i))
		if _, ok := members[r]; !ok {
			roots = append(roots, r)
		}
		members[r] = append(members[r], int32(i))
	}
	var out []DupGroup
	for _, r := range roots {
		ms := members[r]
		if len(ms) < 2 {
			continue
		}
		keep := ms[0]
		for _, m := range ms[1:] {
			a, b := &f.docs[m], &f.docs[keep]
			if a.modified.Before(b.modified) || a.modified.Equal(b.modified) && a.path < b.path {
				keep = m
			}
		}
		g := DupGroup{Paths: []string{f.docs[keep].path}, Reason: f.weak[r].reason, Score: f.weak[r].score}
		for _, m := range ms {
			if m != keep {
				g.Paths = append(g.Paths, f.docs[m].path)
			}
		}
		slices.Sort(g.Paths[1:])
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b DupGroup) int { return strings.Compare(a.Paths[0], b.Paths[0]) })
	return out
}

// --- Text normalisation ------------------------------------------------------

// newDupDoc tokenises an item once: body words (stop words and memory
// boilerplate dropped, light stemming), the body's word pairs and their
// MinHash signature, and the meta words of its stem, name and description.
func newDupDoc(it DupItem, seen *[]uint64) dupDoc {
	d := dupDoc{path: it.Path, modified: it.Modified, typ: strings.ToLower(strings.TrimSpace(it.Type))}
	dir, file := path.Split(it.Path)
	stem := strings.TrimSuffix(file, path.Ext(file))
	if residual, ok := dupStripDate(stem); ok && residual != "" {
		d.series = dir + "\x00" + residual
	}

	toks, truncated := dupTokens(it.Body, make([]uint64, 0, 256), false, dupMaxTokens)
	if len(toks) >= dupMinBodyTokens {
		// The sequence of content words is the normalised body: edits to
		// whitespace, case, punctuation and filler words do not change it.
		h := uint64(14695981039346656037)
		for _, t := range toks {
			h = dupMix(h ^ t)
		}
		if truncated {
			// Past the word limit, the rest must match byte for byte.
			h ^= maphash.String(dupSeed, it.Body)
		}
		d.bodyHash = h | 1
	}
	d.shingles = make([]uint64, 0, len(toks))
	for i := 0; i+1 < len(toks); i++ {
		d.shingles = append(d.shingles, dupMix(toks[i]*31+toks[i+1]))
	}
	d.body = dupDistinct(toks, seen)
	if len(d.shingles) >= 2 {
		d.sig = dupSignature(d.shingles)
		d.hasSig = true
	}
	d.bodySig = dupSignature(d.body)

	if name, desc := dupFoldHash(it.Name), dupFoldHash(it.Description); name != 0 && desc != 0 {
		d.nameDesc = dupMix(name^dupMix(desc)) | 1
	}
	// The stem's separators and its date fall away in tokenising (a date
	// is all digits).
	meta := make([]uint64, 0, 16)
	meta, _ = dupTokens(stem, meta, true, dupMaxTokens)
	meta, _ = dupTokens(it.Name, meta, true, dupMaxTokens)
	d.title = dupSet(slices.Clone(meta))
	meta, _ = dupTokens(it.Description, meta, true, dupMaxTokens)
	d.meta = dupSet(meta)
	return d
}

// dupDistinct removes repeated hashes in place, keeping first-seen order:
// one probe per token in an open-addressing table (seen, reused from
// document to document and cleared only as far as it is used), where
// sorting would cost a log factor for every document, verified or not.
func dupDistinct(ts []uint64, seen *[]uint64) []uint64 {
	size := 16
	for size < 4*len(ts) {
		size *= 2
	}
	if cap(*seen) < size {
		*seen = make([]uint64, size)
	}
	tab := (*seen)[:size]
	clear(tab)
	mask := uint64(size - 1)
	out := ts[:0]
	for _, t := range ts {
		if t == 0 {
			continue
		}
		for i := t & mask; ; i = (i + 1) & mask {
			if tab[i] == t {
				break
			}
			if tab[i] == 0 {
				tab[i] = t
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// dupSet sorts and dedupes in place.
func dupSet(s []uint64) []uint64 {
	slices.Sort(s)
	return slices.Compact(s)
}

// dupSignature is a one-permutation MinHash: each word pair's hash picks a
// bin with its top bits and competes for the bin's minimum with the rest;
// empty bins borrow from the next non-empty one ("rotation"
// densification), which keeps the collision probability of a bin equal to
// the Jaccard similarity. One hash per pair instead of one per pair and bin.
func dupSignature(sh []uint64) (sig [dupBins]uint32) {
	for i := range sig {
		sig[i] = math.MaxUint32
	}
	shift := 64 - bits.Len(uint(dupBins-1))
	for _, h := range sh {
		b := h >> shift
		if v := uint32(h); v < sig[b] {
			sig[b] = v
		}
	}
	for i := range sig {
		if sig[i] != math.MaxUint32 {
			continue
		}
		for j := 1; j < dupBins; j++ {
			if v := sig[(i+j)%dupBins]; v != math.MaxUint32 && (i+j)%dupBins != i {
				// Borrowed values are marked by distance so that a borrowed
				// bin only collides with the same borrowing.
				sig[i] = uint32(dupMix(uint64(v) + uint64(j)*0x51_7c_c1_b7))
				if sig[i] == math.MaxUint32 {
					sig[i]--
				}
				break
			}
		}
	}
	return sig
}

// dupEstSlack is how far below a threshold a MinHash estimate may fall and
// still earn an exact check: about two standard deviations of a 32-bin
// estimate.
const dupEstSlack = 0.15

// dupSigSim estimates the Jaccard similarity of two sets from their
// signatures: the share of bins that agree.
func dupSigSim(a, b *[dupBins]uint32) float64 {
	n := 0
	for i := range a {
		if a[i] == b[i] {
			n++
		}
	}
	return float64(n) / dupBins
}

// dupMix is a 64-bit finaliser (splitmix64): good avalanche for cheap.
func dupMix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// dupDateRe finds a date in a file stem: 2026-05-26, 2026_05_26, 20260526,
// 2026-05 (with an optional time after it).
var dupDateRe = regexp.MustCompile(`(?:19|20)\d\d[-_.]?(?:0[1-9]|1[0-2])(?:[-_.]?(?:0[1-9]|[12]\d|3[01]))?(?:[tT_-]?\d\d[-_:]?\d\d(?:[-_:]?\d\d)?)?`)

// dupStripDate removes the date from a stem; ok is false when there is
// none. The residual is lower-cased with its separators unified, so that
// standup_2026_05_26 and standup-2026-05-27 are one series.
func dupStripDate(stem string) (residual string, ok bool) {
	if !dupHasDigitRun(stem, 6) {
		return "", false
	}
	loc := dupDateRe.FindStringIndex(stem)
	if loc == nil {
		return "", false
	}
	// A date inside a longer run of digits is a number, not a date.
	if loc[0] > 0 && stem[loc[0]-1] >= '0' && stem[loc[0]-1] <= '9' || loc[1] < len(stem) && stem[loc[1]] >= '0' && stem[loc[1]] <= '9' {
		return "", false
	}
	rest := strings.ToLower(stem[:loc[0]] + "-" + stem[loc[1]:])
	return strings.Join(strings.FieldsFunc(rest, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == ' ' }), "-"), true
}

// dupHasDigitRun reports whether s holds at least n digits; a date needs
// six (2026-05), so most stems skip the regex.
func dupHasDigitRun(s string, n int) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			if n--; n == 0 {
				return true
			}
		}
	}
	return false
}

// dupTokens appends the hashes of the content words of s: ASCII letters and
// digits (and any non-ASCII byte) lower-cased, words split at everything
// else, one-letter words, numbers and stop words dropped, light suffix
// stemming (tests/testing -> test, deployment -> deploy). With meta set,
// type words that file names and descriptions carry (feedback, project,
// memory) are dropped too. It stops after limit words (truncated is then
// true). One pass, no allocation beyond out.
func dupTokens(s string, out []uint64, meta bool, limit int) (_ []uint64, truncated bool) {
	var buf [32]byte
	// or accumulates the word's bytes: digits alone stay below 0x40,
	// any letter or non-ASCII byte lifts it above (numbers are dropped).
	n, or, added := 0, byte(0), 0
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
				if added == limit {
					return out, true
				}
				out = append(out, h)
				added++
			}
		}
		n, or = 0, 0
	}
	return out, false
}

// dupSeed seeds the hash of long bodies (equal within a process, which is
// all FindDuplicates needs).
var dupSeed = maphash.MakeSeed()

// dupFold maps a byte to its lower-case self when it belongs in a word
// (ASCII letters and digits, and every byte of a multi-byte UTF-8
// character), to 0 when it separates words.
var dupFold = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c >= 0x80:
			t[c] = byte(c)
		case c >= 'A' && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		}
	}
	return t
}()

// dupFoldHash hashes the words of a text (lower-cased, separated by
// single spaces whatever separated them): the identity of a name or a
// description. 0 when the text has no word.
func dupFoldHash(s string) uint64 {
	h := uint64(14695981039346656037)
	words, inWord := 0, false
	for i := 0; i < len(s); i++ {
		c := dupFold[s[i]]
		if c == 0 {
			inWord = false
			continue
		}
		if !inWord {
			if words > 0 {
				h ^= ' '
				h *= 1099511628211
			}
			words++
			inWord = true
		}
		h ^= uint64(c)
		h *= 1099511628211
	}
	if words == 0 {
		return 0
	}
	return dupMix(h)
}

// dupHashWord hashes the first n bytes of buf (a word; the bytes after it
// are stale and masked off), eight bytes at a time with one multiply each:
// words are short, and this runs for every word of every memory.
func dupHashWord(buf *[32]byte, n int) uint64 {
	h := uint64(n) * 0x9e3779b97f4a7c15
	i := 0
	for ; n-i > 8; i += 8 {
		h = (h ^ binary.LittleEndian.Uint64(buf[i:i+8])) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
	}
	v := binary.LittleEndian.Uint64(buf[i : i+8])
	if r := n - i; r < 8 {
		v &= 1<<(8*r) - 1
	}
	h = (h ^ v) * 0x94d049bb133111eb
	return h ^ h>>32
}

// dupStem strips a few English suffixes; enough to make "tests", "testing"
// and "tested" one word, "deployment", "deploys" and "deploying" one word,
// and "commit" and "committing" one word, without a dictionary.
func dupStem(w []byte) []byte {
	cut := func(suf string) bool {
		if len(w)-len(suf) >= 4 && string(w[len(w)-len(suf):]) == suf {
			w = w[:len(w)-len(suf)]
			return true
		}
		return false
	}
	switch w[len(w)-1] {
	case 's':
		if !cut("ments") && !cut("ings") && w[len(w)-2] != 's' && len(w) >= 4 {
			w = w[:len(w)-1]
		}
	case 't':
		cut("ment")
	case 'g':
		if cut("ing") {
			dupUndouble(&w)
		}
	case 'd':
		if cut("ed") {
			dupUndouble(&w)
		}
	case 'y':
		cut("ly")
	}
	return w
}

// dupUndouble turns committ into commit and stopp into stop.
func dupUndouble(w *[]byte) {
	if n := len(*w); (*w)[n-1] == (*w)[n-2] && strings.IndexByte("aeioulsz", (*w)[n-1]) < 0 {
		*w = (*w)[:n-1]
	}
}

// dupStop are English function words plus the scaffolding every memory
// repeats (the **Why:** / **How to apply:** lines of feedback memories), by
// the hash dupTokens computes for them.
var dupStop = dupHashSet(`a an the and or but if then else when while of to in on at by for with
	from into onto over under about as is are was were be been being am do does did done have has had
	it its this that these those there here we you they he she i me my our your their them us
	not no nor never always only also too very just so than such can could should would will shall may might must
	what which who whom whose why how where all any some each every both either neither more most other
	up down out off again once via per etc e.g i.e ie eg use using used see note apply
	get got gets without within want prefer like before after`)

// dupMetaStop are words that name the memory's kind rather than its
// subject, common in file names (feedback_testing.md) and descriptions.
var dupMetaStop = dupHashSet(`feedback project user reference memory memories note notes md`)

// dupWordSet is a small open-addressing set of word hashes: a membership
// test is one or two probes, several times cheaper than a map lookup on the
// tokenizer's hot path.
type dupWordSet [512]uint64

func (s *dupWordSet) has(h uint64) bool {
	for i := h; ; i++ {
		switch s[i%uint64(len(s))] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// dupHashSet hashes words as dupTokens would see them (stemmed).
func dupHashSet(words string) *dupWordSet {
	var s dupWordSet
	for _, w := range strings.Fields(words) {
		var buf [32]byte
		if len(w) < 2 || len(w) > len(buf) {
			continue
		}
		copy(buf[:], w)
		h := dupHashWord(&buf, len(dupStem(buf[:len(w)])))
		for i := h; ; i++ {
			if s[i%uint64(len(s))] == 0 || s[i%uint64(len(s))] == h {
				s[i%uint64(len(s))] = h
				break
			}
		}
	}
	return &s
}

// --- The check ---------------------------------------------------------------

// checkDuplicates reports every member of a duplicate group except the one
// to keep. Files under logs/ are skipped: daily logs are a series by design.
func checkDuplicates(s *dirState) {
	for _, g := range FindDuplicates(dupItems(s)) {
		keep := g.Paths[0]
		for _, p := range g.Paths[1:] {
			s.report(RuleDuplicateMemory, p, 0,
				fmt.Sprintf("duplicate of %s (%s); %s is kept as the older one", keep, g.Reason, keep),
				fmt.Sprintf("merge it into %s and delete it", keep))
		}
	}
}

// dupItems is what checkDuplicates hands FindDuplicates: the directory's
// topic files outside logs/, with the frontmatter's modified date when
// there is one (else the file's mtime).
func dupItems(s *dirState) []DupItem {
	items := make([]DupItem, 0, len(s.files))
	for _, fs := range s.files {
		p := fs.f.Path
		if strings.HasPrefix(p, "logs/") || strings.Contains(p, "/logs/") {
			continue
		}
		mod := fs.doc.FM.ModifiedTime
		if mod.IsZero() {
			mod = fs.f.ModTime
		}
		items = append(items, DupItem{
			Path:        p,
			Name:        fs.doc.FM.Name,
			Description: fs.doc.FM.Description,
			Body:        dupBody(fs),
			Modified:    mod,
			Type:        fs.doc.FM.Type,
		})
	}
	return items
}

// dupBody is fs.doc.Body(content) without copying the content again:
// fs.text already holds it as a string.
func dupBody(fs *fileState) string {
	if fs.doc.BodyStart > len(fs.text) {
		return ""
	}
	return fs.text[fs.doc.BodyStart:]
}

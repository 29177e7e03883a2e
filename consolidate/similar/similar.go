package similar

// Near-duplicate memories (the duplicate-memory check, and the input of
// Dream's merge proposals).
//
// Real duplicates are rewrites, not copies: an agent that forgot it already
// wrote "deploy with make ship" writes it again in other words, under a
// similar name, or starts a dated series (standup_2026_05_26.md,
// standup_2026_05_27.md). So Find matches on the file stem, the
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
// It runs on every memory directory lint opens, so its cost is mostly that
// of reading each body once: tokens walks a bitmap of word bytes and looks
// words up in a cache, documents keep only what blocking needs (the
// sorted sets, weights and shingles of the few that get verified are
// built on demand), and the working memory is pooled (dupScratch).
// BenchmarkDuplicatesCorpus measures it on a realistic tree.
//
// Numbers are facts. Content words leave digits out (a rewrite says
// "5,000 rows" as "5k rows"), so the numbers of a body are kept apart: two
// bodies that both hold numbers and share none of them state different
// facts (svc-0001 on port 10001 and svc-0002 on port 10002), whatever
// their wording, names or dates, and are never linked; identical bodies
// must agree on their numbers too.
//
// A group is what a merge acts on, so it must be one memory said several
// times, not a family of memories that resemble each other (a template
// filled in 1,200 times, a numbered series) chained together pair by
// pair. Each member must be linked to the member kept, directly; and a
// group has at most MaxGroup members (see there).
//
// Precision matters more than recall here: a rule that cries wolf gets
// switched off. Two different feedback memories about one subject ("run
// tests with -race" and "never mock the database in tests") share a
// vocabulary and a type but are not duplicates; the thresholds below come
// from the table of realistic pairs in internal/testgen (SimilarPairs).

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
	"sync"
	"time"
)

// Item is one memory as Find sees it.
type Item struct {
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

// Group is a set of memories that say the same thing.
type Group struct {
	// Paths[0] is the memory to keep: the oldest by Modified (it has the
	// history), ties broken by path. The rest follow sorted by path.
	Paths []string
	// Reason says why, for humans: "identical bodies", "dated series",
	// "same name and description", "bodies 84% alike", "names and
	// descriptions 70% alike, bodies 45% alike". Each member is linked to
	// the one kept; Reason is that of the weakest of those links, so it
	// holds for the whole group ("at least this alike").
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
	// MaxGroup caps a group. A merge is reviewed as one diff, and
	// past a handful of files nobody reads it. Real duplicates are an
	// agent writing one memory again two to four times; the generated
	// corpus (internal/corpus) peaks at seven, a dated series of six days
	// and a rewrite of one of them. A dozen memories that all resemble
	// each other are a family (two series of one stem months apart, a
	// template filled in, tickets), not one memory. Larger sets of fuzzy, series or
	// name+description matches form no group at all; identical copies
	// (bodies equal, numbers included) are grouped MaxGroup at a time,
	// which loses nothing, and the next run merges the survivors.
	MaxGroup = 8
	// dupMaxNums caps the distinct numbers kept of a body; a body with
	// more is not judged on its numbers (the sets may have been cut where
	// they would meet).
	dupMaxNums = 64
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

// dupDoc is what Find derives from an item, once. Everything
// only verification needs (sorted sets, weights, the shingle set, the
// MinHash of the content words) is derived on demand: most documents are
// never verified.
type dupDoc struct {
	path     string
	text     string // the body, tokenised again if the shingle set is needed
	modified time.Time
	typ      string
	series   string // dir + residual stem when the stem holds a date, else ""
	// numbered is a hash of the dir and the stem without its numbers when
	// the stem holds numbers and no date (0 otherwise); stemNums a hash of
	// those numbers.
	numbered, stemNums uint64
	nameDesc           uint64 // hash of the normalised name and description; 0 if either is empty
	bodyHash           uint64 // hash of the normalised body and its numbers; 0 for stubs
	// nums holds the hashes of the body's numbers (runs of digits,
	// leading zeros dropped), sorted and distinct; nil when it has none
	// or more than dupMaxNums.
	nums []uint64
	// body holds the distinct content-word hashes, in first-seen order;
	// sorted (bodySorted) when the document is first verified.
	body       []uint64
	bodySorted bool
	// shingles hashes the sorted, distinct adjacent content-word pairs; it
	// is built (hasShingles) when the document is first verified.
	shingles    []uint64
	hasShingles bool
	meta        []uint64  // sorted distinct stem, name and description word hashes
	metaID      []int32   // their ids in dupFinder.df (salted), set by newDupFinder
	title       []uint64  // the same for the stem and name only
	bodyW       []float32 // token weights, set by dupFinder.weighBody
	metaW       []float32 // and weighMeta
	titleW      []float32
	sig         [dupBins]uint32 // MinHash of the shingles
	hasSig      bool
	bodySig     [dupBins]uint32 // MinHash of the content words, set by bodySignature
	hasBodySig  bool
}

// Find groups the items that say the same thing. Each group has at
// least two members; groups are sorted by their first path. It runs in time
// roughly linear in the number of items.
func Find(items []Item) []Group {
	if len(items) < 2 {
		return nil
	}
	// Work in path order so that the result does not depend on input order.
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(items[a].Path, items[b].Path) })
	sc := dupScratchPool.Get().(*dupScratch)
	defer sc.release()
	docs := sc.start(len(items))
	for k, i := range order {
		sc.newDoc(&docs[k], items[i])
	}
	f := newDupFinder(docs, sc)
	f.exactMatches()
	f.lshMatches()
	f.metaMatches()
	return f.groups()
}

// dupScratch is the working memory of Find, pooled: lint runs it
// once per memory directory, and allocating (and then collecting) the
// token buffers, documents and tables of every directory afresh cost about
// as much as the work itself. Only the tokenizer's word cache and word
// numbers, and the stamps that go with them, carry over from one call to
// the next; every call starts its tables afresh.
type dupScratch struct {
	tok  dupTokenizer
	toks []uint64 // a body's content words
	meta []uint64 // an item's stem, name and description words
	nums []uint64 // a body's numbers
	// By word number (dupTokenizer.vocab): the last document whose body
	// had the word (documents are numbered across calls, so that stamps
	// never need clearing: a stamp below firstDoc is from an earlier
	// call), and how many documents of this call have it.
	stamp    []int32
	bodyDF   []int32
	docNo    int32
	firstDoc int32
	u64      dupArena[uint64]
	i32      dupArena[int32]
	f32      dupArena[float32]
	docBuf   []dupDoc
	df       dupCounter
	pairs    dupPairSet
	band     dupCounter // lshMatches' buckets
}

var dupScratchPool = sync.Pool{New: func() any { return new(dupScratch) }}

// release returns the scratch to the pool, dropping the references its
// documents hold to the caller's items.
func (sc *dupScratch) release() {
	clear(sc.docBuf)
	sc.u64.reset()
	sc.i32.reset()
	sc.f32.reset()
	dupScratchPool.Put(sc)
}

// start begins a call with n documents, for newDoc to fill.
func (sc *dupScratch) start(n int) []dupDoc {
	if sc.docNo > math.MaxInt32-int32(n) || len(sc.tok.vocab.count) > dupMaxVocab {
		// Start afresh (after two billion documents, or a very large
		// vocabulary): no stamp may look recent.
		sc.tok.reset()
		clear(sc.stamp)
		sc.docNo = 0
	}
	sc.firstDoc = sc.docNo + 1
	if cap(sc.docBuf) < n {
		sc.docBuf = make([]dupDoc, n)
	}
	sc.docBuf = sc.docBuf[:n]
	return sc.docBuf
}

// dupArena hands out slices carved from one buffer: one allocation for
// thousands of documents' sets instead of several per document. A full
// buffer is replaced by a bigger one; the slices already handed out keep
// the old one alive until the call ends. The memory is not zeroed (it may
// hold the previous call's values): callers fill what they get.
type dupArena[T any] struct{ buf []T }

func (a *dupArena[T]) alloc(n int) []T {
	if len(a.buf)+n > cap(a.buf) {
		a.buf = make([]T, 0, max(2*cap(a.buf), n, 4096))
	}
	k := len(a.buf)
	a.buf = a.buf[:k+n]
	// The capacity limit keeps an append on the result from running into
	// the next slice.
	return a.buf[k : k+n : k+n]
}

func (a *dupArena[T]) reset() { a.buf = a.buf[:0] }

// dupFinder holds the documents, token weights and the union-find forest.
type dupFinder struct {
	docs []dupDoc
	sc   *dupScratch
	// df counts the meta tokens' document frequencies (keys salted with
	// dupMetaSalt); the body tokens' are in sc.bodyDF, by word number.
	df     *dupCounter
	shared bool    // shareDF has run
	wcap   float64 // tokens in more documents than this are down-weighted
	parent []int32
	// verified remembers pairs already verified (by LSH bands and the meta
	// index, which find the same pair many times).
	verified *dupPairSet
}

type dupEdge struct {
	score  float64
	reason string
	rank   int // the kind of link, strongest first: exact 4, series 3, name+desc 2, fuzzy 1
}

func newDupFinder(docs []dupDoc, sc *dupScratch) *dupFinder {
	f := &dupFinder{
		docs:     docs,
		sc:       sc,
		df:       &sc.df,
		parent:   sc.i32.alloc(len(docs)),
		verified: &sc.pairs,
	}
	for i := range f.parent {
		f.parent[i] = int32(i)
	}
	nMeta := 0
	for i := range docs {
		nMeta += len(docs[i].meta)
	}
	f.df.reset(nMeta)
	f.verified.reset(len(docs))
	for i := range docs {
		d := &docs[i]
		d.metaID = sc.i32.alloc(len(d.meta))
		for k, t := range d.meta {
			d.metaID[k] = f.df.add(t ^ dupMetaSalt)
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
	if !f.shared {
		f.shareDF()
		f.shared = true
	}
	body := d.bodySet()
	d.bodyW = f.sc.f32.alloc(len(body))
	for i, t := range body {
		id, _ := f.sc.tok.vocab.id(t)
		d.bodyW[i] = f.weight(f.sc.bodyDF[id])
	}
}

// shareDF merges the body and meta document frequencies where a key is
// both. They were counted in one table, meta keys salted (dupMetaSalt)
// to keep them apart, and the body words counted the first time a pair
// got as far as body weights; a salted meta word that equals a body word
// (a 64-bit coincidence) thus counted both from then on. newDoc counts
// the body words as it goes, in their own array: this keeps the old
// counts exactly, at the old moment.
func (f *dupFinder) shareDF() {
	vocab, sc := &f.sc.tok.vocab, f.sc
	for _, s := range f.df.slots {
		if s.id == 0 {
			continue
		}
		tid, ok := vocab.id(s.key)
		if !ok || int(tid) >= len(sc.stamp) || sc.stamp[tid] < sc.firstDoc {
			continue // in no body of this call
		}
		m := &f.df.count[s.id-1]
		*m, sc.bodyDF[tid] = *m+sc.bodyDF[tid], sc.bodyDF[tid]+*m
	}
}

func (f *dupFinder) weighMeta(d *dupDoc) {
	if d.metaW != nil {
		return
	}
	d.metaW = f.sc.f32.alloc(len(d.meta))
	for k, id := range d.metaID {
		d.metaW[k] = f.weight(f.df.count[id])
	}
	// The title words are some of the meta words (both sorted): their
	// weights are already known.
	d.titleW = f.sc.f32.alloc(len(d.title))
	k := 0
	for i, t := range d.title {
		for d.meta[k] != t {
			k++
		}
		d.titleW[i] = d.metaW[k]
	}
}

// weight is 1 for a token in at most f.wcap documents, wcap/df beyond.
func (f *dupFinder) weight(df int32) float32 {
	if df := float64(df); df > f.wcap {
		return float32(f.wcap / df)
	}
	return 1
}

// dupMetaSalt keeps meta and body tokens apart (see shareDF).
const dupMetaSalt = 0x9e3779b97f4a7c15

func (f *dupFinder) find(i int32) int32 {
	for f.parent[i] != i {
		f.parent[i] = f.parent[f.parent[i]]
		i = f.parent[i]
	}
	return i
}

// union links a and b, unless they are distinct memories and the link is
// not one of identical bodies (the series and name+description links are
// made without looking at the bodies or names).
func (f *dupFinder) union(a, b int32, exact bool) {
	if !exact && dupDistinct(&f.docs[a], &f.docs[b]) {
		return
	}
	ra, rb := f.find(a), f.find(b)
	if ra == rb {
		return
	}
	if rb < ra {
		ra, rb = rb, ra
	}
	f.parent[rb] = ra
}

// weaker orders links by kind (fuzzy < name+description < series < exact),
// then by score.
func (e dupEdge) weaker(o dupEdge) bool {
	if e.rank != o.rank {
		return e.rank < o.rank
	}
	return e.score < o.score
}

// dupCounter counts uint64 keys and numbers them in first-seen order (ids
// 0, 1, ...; count is indexed by id). It is an open-addressing table with
// linear probing, a key and its id side by side: the document frequencies
// of a lint run are a few million increments, several times cheaper here
// than in a map, and the ids let callers keep a token's count at hand
// without hashing it again.
type dupCounter struct {
	slots []dupCounterSlot
	spare []dupCounterSlot // the table before the last grow, reused by the next
	count []int32
	shift uint // 64 - log2(len(slots))
}

type dupCounterSlot struct {
	key uint64
	id  uint64 // id+1; 0 when the slot is empty
}

// reset empties the counter and sizes it for about n keys.
func (c *dupCounter) reset(n int) {
	c.shift = resetTable(&c.slots, &c.spare, n)
	c.count = c.count[:0]
}

// resetTable empties an open-addressed table sized for about n keys (a
// power of two, at most half full), reusing the larger of the current and
// the spare backing array, and returns the Fibonacci-hash shift for it.
func resetTable[T any](slots, spare *[]T, n int) uint {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if cap(*spare) > cap(*slots) {
		*slots, *spare = *spare, *slots
	}
	if cap(*slots) < size {
		*slots = make([]T, size)
	} else {
		*slots = (*slots)[:size]
		clear(*slots)
	}
	return uint(64 - bits.TrailingZeros(uint(size)))
}

// growTable doubles a table made by resetTable, reusing the spare's
// memory when it is large enough, and returns the old slots to re-insert
// (they become the spare).
func growTable[T any](slots, spare *[]T) []T {
	old := *slots
	if cap(*spare) >= 2*len(old) {
		*slots = (*spare)[:2*len(old)]
		clear(*slots)
	} else {
		*slots = make([]T, 2*len(old))
	}
	*spare = old
	return old
}

// slot returns the slot holding k, or the empty one where k belongs
// (Fibonacci hashing: the multiply spreads keys that differ only in their
// low bits). The table is never more than half full.
func (c *dupCounter) slot(k uint64) *dupCounterSlot {
	mask := uint64(len(c.slots) - 1)
	i := (k * 0x9e3779b97f4a7c15) >> (c.shift & 63)
	for {
		s := &c.slots[i&mask]
		if min(s.id, s.key^k) == 0 { // empty, or k
			return s
		}
		i++
	}
}

// add counts k once more and returns its id.
func (c *dupCounter) add(k uint64) int32 {
	if 2*(len(c.count)+1) > len(c.slots) {
		c.grow()
	}
	s := c.slot(k)
	if s.id == 0 {
		s.key = k
		c.count = append(c.count, 0)
		s.id = uint64(len(c.count))
	}
	c.count[s.id-1]++
	return int32(s.id - 1)
}

// id returns k's id, if k was added.
func (c *dupCounter) id(k uint64) (int32, bool) {
	s := c.slot(k)
	return int32(s.id) - 1, s.id != 0
}

// grow doubles the table, keeping the ids.
func (c *dupCounter) grow() {
	old := growTable(&c.slots, &c.spare)
	c.shift--
	for _, o := range old {
		if o.id != 0 {
			*c.slot(o.key) = o
		}
	}
}

// dupPairSet is a set of document pairs (a<<32 | b with a < b, never 0),
// an open-addressing table like dupCounter.
type dupPairSet struct {
	keys  []uint64
	spare []uint64 // the table before the last grow, reused by the next
	n     int
	shift uint
}

func (p *dupPairSet) reset(n int) {
	p.shift = resetTable(&p.keys, &p.spare, n)
	p.n = 0
}

// insert adds k and reports whether it was new.
func (p *dupPairSet) insert(k uint64) bool {
	if 2*(p.n+1) > len(p.keys) {
		old := growTable(&p.keys, &p.spare)
		p.shift--
		p.n = 0
		for _, o := range old {
			if o != 0 {
				p.insert(o)
			}
		}
	}
	mask := len(p.keys) - 1
	for i := int((k * 0x9e3779b97f4a7c15) >> p.shift); ; i = (i + 1) & mask {
		switch p.keys[i] {
		case k:
			return false
		case 0:
			p.keys[i] = k
			p.n++
			return true
		}
	}
}

// exactMatches links identical bodies, dated series and equal
// name+description pairs through hash tables.
func (f *dupFinder) exactMatches() {
	link := func(key func(*dupDoc) uint64, exact bool) {
		// The first document with each key, by the key's id.
		keys := &f.sc.band
		keys.reset(len(f.docs))
		first := f.sc.i32.alloc(len(f.docs))
		for i := range f.docs {
			k := key(&f.docs[i])
			if k == 0 {
				continue
			}
			if id := keys.add(k); keys.count[id] == 1 {
				first[id] = int32(i)
			} else {
				f.union(first[id], int32(i), exact)
			}
		}
	}
	link(func(d *dupDoc) uint64 { return d.bodyHash }, true)
	link(func(d *dupDoc) uint64 { return d.nameDesc }, false)

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
				f.union(j, m, false)
			} else {
				byType[t] = m
			}
		}
		// Untyped members link with each other and, when the typed ones
		// agree on a single type, with those.
		for x := 1; x < len(untyped); x++ {
			f.union(untyped[0], untyped[x], false)
		}
		if len(untyped) > 0 && len(byType) == 1 {
			for _, j := range byType {
				f.union(untyped[0], j, false)
			}
		}
	}
}

// lshMatches verifies the pairs whose body MinHash signatures agree on a
// whole band. Buckets are verified in the order of their first member,
// each in document order (the order decides which members become a large
// bucket's representatives).
func (f *dupFinder) lshMatches() {
	n := len(f.docs)
	nb := dupBins / dupBandRows
	bucket := f.sc.i32.alloc(n)    // each document's bucket (its id in f.sc.band), -1 without signature
	start := f.sc.i32.alloc(n + 1) // start[b]: where bucket b's members begin in members
	members := f.sc.i32.alloc(n)
	for band := 0; band < nb; band++ {
		buckets := &f.sc.band
		buckets.reset(n)
		for i := range f.docs {
			d := &f.docs[i]
			if !d.hasSig {
				bucket[i] = -1
				continue
			}
			h := uint64(band+1) * 0x9e3779b97f4a7c15
			for r := 0; r < dupBandRows; r++ {
				h = dupMix(h ^ uint64(d.sig[band*dupBandRows+r]))
			}
			bucket[i] = buckets.add(h)
		}
		// A counting sort groups the members; bucket ids are in
		// first-seen order already.
		nbk := len(buckets.count)
		at := int32(0)
		for b, c := range buckets.count {
			start[b] = at
			at += c
		}
		start[nbk] = at
		for i, b := range bucket {
			if b >= 0 {
				members[start[b]] = int32(i)
				start[b]++
			}
		}
		// start[b] now holds the end of bucket b, the start of b+1.
		lo := int32(0)
		for b := 0; b < nbk; b++ {
			hi := start[b]
			if hi-lo >= 2 {
				f.verifyBlock(members[lo:hi])
			}
			lo = hi
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
	// The postings of the rare tokens, by token id, in document order: a
	// counting sort into one array (post[start[id]:start[id+1]]).
	nid := len(f.df.count)
	start := f.sc.i32.alloc(nid + 1)
	clear(start)
	for i := range f.docs {
		for _, id := range f.docs[i].metaID {
			if c := f.df.count[id]; c <= limit && c > 1 {
				start[id+1]++
			}
		}
	}
	for id := 0; id < nid; id++ {
		start[id+1] += start[id]
	}
	post := f.sc.i32.alloc(int(start[nid]))
	next := f.sc.i32.alloc(nid)
	copy(next, start[:nid])
	for i := range f.docs {
		for _, id := range f.docs[i].metaID {
			if c := f.df.count[id]; c <= limit && c > 1 {
				post[next[id]] = int32(i)
				next[id]++
			}
		}
	}
	// A shared word counts 2 when it is in at most 3 memories ("soc2",
	// "golangci"): one such word is candidate enough. Other rare words
	// count 1, and a candidate needs 2 (1 when either side has a single
	// meta word).
	count := f.sc.i32.alloc(len(f.docs))
	clear(count)
	touched := f.sc.i32.alloc(len(f.docs))[:0]
	for i := range f.docs {
		d := &f.docs[i]
		touched = touched[:0]
		for _, id := range d.metaID {
			ps := post[start[id]:start[id+1]]
			if len(ps) == 0 {
				continue
			}
			// Read the count now, not when the postings were built:
			// verifying may have counted the body words into df since.
			w := int32(1)
			if f.df.count[id] <= 3 {
				w = 2
			}
			for _, j := range ps {
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
			if count[j] >= need {
				if meta := f.metaSim(&f.docs[j], d); meta >= min(dupSameBodyMeta, dupRewriteMeta) {
					f.verifyPair(j, int32(i), meta)
				}
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
				f.verifyPair(ms[y], ms[x], -1)
			}
		}
		return
	}
	var reps []int32
	for _, m := range ms {
		joined := false
		for _, r := range reps {
			if f.find(r) == f.find(m) || f.verifyPair(r, m, -1) {
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
// they are (now) in one group. meta is their metaSim when the caller has
// it, else negative.
func (f *dupFinder) verifyPair(a, b int32, meta float64) bool {
	if f.find(a) == f.find(b) {
		return true
	}
	if !f.verified.insert(uint64(min(a, b))<<32 | uint64(max(a, b))) {
		return false
	}
	if _, ok := f.similar(&f.docs[a], &f.docs[b], meta); ok {
		f.union(a, b, false)
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

// shingleSet returns the document's sorted, distinct shingles. They are
// not kept from newDoc: tokenising the few verified bodies again costs
// less than storing every body's shingles.
func (f *dupFinder) shingleSet(d *dupDoc) []uint64 {
	if !d.hasShingles {
		toks, _ := f.sc.tok.tokens(d.text, f.sc.toks[:0], false, dupMaxTokens)
		f.sc.toks = toks
		sh := f.sc.u64.alloc(max(len(toks)-1, 0))
		for i := range sh {
			sh[i] = dupShingle(toks[i], toks[i+1])
		}
		d.shingles = dupSet(sh)
		d.hasShingles = true
	}
	return d.shingles
}

// bodySignature returns the MinHash of the content words, computed the
// first time a pair gets that far.
func (d *dupDoc) bodySignature() *[dupBins]uint32 {
	if !d.hasBodySig {
		d.bodySig = dupSignature(d.body)
		d.hasBodySig = true
	}
	return &d.bodySig
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
	return jaccardSorted(f.shingleSet(a), f.shingleSet(b))
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
// a few words, the body sets need sorting the first time. meta is
// metaSim(a, b) when the caller has it, else negative.
func (f *dupFinder) similar(a, b *dupDoc, meta float64) (dupEdge, bool) {
	if len(a.body) < dupMinBodyTokens || len(b.body) < dupMinBodyTokens || dupDistinct(a, b) {
		return dupEdge{}, false
	}
	pct := func(x float64) int { return int(100*x + 0.5) }
	// The MinHash signatures estimate both body similarities in 32
	// comparisons, within about ±0.09 (one standard deviation at 0.5); the
	// exact ones, which sort both sets the first time, run only when the
	// estimate is within reach of a threshold. Most candidates (memories
	// that merely share a subject) stop here.
	if a.hasSig && b.hasSig && dupSigSim(&a.sig, &b.sig) >= dupCopyShingle-dupEstSlack {
		if sh := f.shingleSim(a, b); sh >= dupCopyShingle && min(len(f.shingleSet(a)), len(f.shingleSet(b))) >= dupCopyMinShingles {
			return dupEdge{sh, fmt.Sprintf("bodies %d%% alike", pct(sh)), 1}, true
		}
	}
	if meta < 0 {
		meta = f.metaSim(a, b)
	}
	if meta < min(dupSameBodyMeta, dupRewriteMeta) {
		return dupEdge{}, false
	}
	// Below dupRewriteMeta only the same-vocabulary rule can still apply.
	need := dupSameBody
	if meta >= dupRewriteMeta {
		need = min(dupSameBody, dupRewriteBody)
	}
	if dupSigSim(a.bodySignature(), b.bodySignature()) < need-dupEstSlack {
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

// groups turns the union-find forest into sorted groups (members in
// document order until the final sort). A set the forest joined is only
// a candidate: pairs chain (A like B, B like C, C nothing like A), so
// each group is the oldest member and those linked to it directly, and
// the rest form groups of their own the same way. A set larger than
// MaxGroup is a family, not a memory said again: only its identical
// copies are grouped.
func (f *dupFinder) groups() []Group {
	n := len(f.docs)
	root, size, at := f.sc.i32.alloc(n), f.sc.i32.alloc(n), f.sc.i32.alloc(n)
	clear(size)
	for i := range f.docs {
		root[i] = f.find(int32(i))
		size[root[i]]++
		at[i] = -1
	}
	var members [][]int32 // by set, numbered (at[root]) at its first member
	for i, r := range root {
		if size[r] < 2 {
			continue
		}
		if at[r] < 0 {
			at[r] = int32(len(members))
			members = append(members, make([]int32, 0, size[r]))
		}
		members[at[r]] = append(members[at[r]], int32(i))
	}
	var out []Group
	for _, ms := range members {
		if len(ms) > MaxGroup {
			out = append(out, f.copyGroups(ms)...)
			continue
		}
		for len(ms) >= 2 {
			keep := f.oldest(ms)
			g := Group{Paths: []string{f.docs[keep].path}}
			var weakest dupEdge
			rest := ms[:0:0]
			for _, m := range ms {
				if m == keep {
					continue
				}
				e, ok := f.link(keep, m)
				if !ok {
					rest = append(rest, m)
					continue
				}
				g.Paths = append(g.Paths, f.docs[m].path)
				if weakest.rank == 0 || e.weaker(weakest) {
					weakest = e
				}
			}
			if len(g.Paths) > 1 {
				g.Reason, g.Score = weakest.reason, weakest.score
				slices.Sort(g.Paths[1:])
				out = append(out, g)
			}
			ms = rest
		}
	}
	slices.SortFunc(out, func(a, b Group) int { return strings.Compare(a.Paths[0], b.Paths[0]) })
	return out
}

// oldest is the member to keep: the oldest by modified date (it has the
// history), ties broken by path.
func (f *dupFinder) oldest(ms []int32) int32 {
	keep := ms[0]
	for _, m := range ms[1:] {
		a, b := &f.docs[m], &f.docs[keep]
		if a.modified.Before(b.modified) || a.modified.Equal(b.modified) && a.path < b.path {
			keep = m
		}
	}
	return keep
}

// link is the strongest link between two documents, judged on the pair
// alone: identical bodies, a dated series, the same name and description,
// or similar() (the last three never across different facts).
func (f *dupFinder) link(a, b int32) (dupEdge, bool) {
	x, y := &f.docs[a], &f.docs[b]
	switch {
	case x.bodyHash != 0 && x.bodyHash == y.bodyHash:
		return dupEdge{1, "identical bodies", 4}, true
	case dupDistinct(x, y):
		return dupEdge{}, false
	case x.series != "" && x.series == y.series && (x.typ == "" || y.typ == "" || x.typ == y.typ):
		return dupEdge{1, "dated series", 3}, true
	case x.nameDesc != 0 && x.nameDesc == y.nameDesc:
		return dupEdge{1, "same name and description", 2}, true
	}
	return f.similar(x, y, -1)
}

// copyGroups groups the identical copies among a set too large to be one
// memory: each set of equal bodies, oldest first, MaxGroup at a time
// (a last copy alone waits for the next run).
func (f *dupFinder) copyGroups(ms []int32) []Group {
	// Sorted by body, then oldest first: each run of one body is a set
	// of copies (sorting in place: ms is not used again).
	slices.SortFunc(ms, func(a, b int32) int {
		x, y := &f.docs[a], &f.docs[b]
		switch {
		case x.bodyHash != y.bodyHash:
			if x.bodyHash < y.bodyHash {
				return -1
			}
			return 1
		case !x.modified.Equal(y.modified):
			return x.modified.Compare(y.modified)
		}
		return strings.Compare(x.path, y.path)
	})
	var out []Group
	for lo := 0; lo < len(ms); {
		h := f.docs[ms[lo]].bodyHash
		hi := lo + 1
		for hi < len(ms) && f.docs[ms[hi]].bodyHash == h {
			hi++
		}
		copies := ms[lo:hi]
		lo = hi
		for h != 0 && len(copies) >= 2 {
			chunk := copies[:min(len(copies), MaxGroup)]
			copies = copies[len(chunk):]
			g := Group{Reason: "identical bodies", Score: 1, Paths: make([]string, len(chunk))}
			for k, m := range chunk {
				g.Paths[k] = f.docs[m].path
			}
			slices.Sort(g.Paths[1:])
			out = append(out, g)
		}
	}
	return out
}

// --- Text normalisation ------------------------------------------------------

// newDoc tokenises an item once: body words (stop words and memory
// boilerplate dropped, light stemming), the MinHash signature of the
// body's word pairs, and the meta words of its stem, name and description.
// The document's sets are carved from the scratch arena.
func (sc *dupScratch) newDoc(d *dupDoc, it Item) {
	*d = dupDoc{path: it.Path, text: it.Body, modified: it.Modified, typ: strings.ToLower(strings.TrimSpace(it.Type))}
	dir, file := path.Split(it.Path)
	stem := strings.TrimSuffix(file, path.Ext(file))
	if residual, ok := dupStripDate(stem); ok && residual != "" {
		d.series = dir + "\x00" + residual
	} else {
		d.numbered, d.stemNums = dupNumberedStem(dir, stem)
	}

	toks, truncated := sc.tok.tokens(it.Body, sc.toks[:0], false, dupMaxTokens)
	sc.toks = toks
	// One pass over the words for the hash of their sequence (the
	// normalised body: edits to whitespace, case, punctuation and filler
	// words do not change it) and for the MinHash of their pairs. The hash
	// is a chain of dependent multiplies; the pairs' hashes depend on
	// neither it nor each other, and the processor overlaps the two.
	h := uint64(14695981039346656037)
	sig := dupEmptySig
	for i := 0; i+1 < len(toks); i++ {
		h = dupMix(h ^ toks[i])
		dupSigAdd(&sig, dupShingle(toks[i], toks[i+1]))
	}
	if len(toks) > 0 {
		h = dupMix(h ^ toks[len(toks)-1])
	}
	numSeq := sc.numbers(d, it.Body)
	if len(toks) >= dupMinBodyTokens {
		h = dupMix(h ^ numSeq)
		if truncated {
			// Past the word limit, the rest must match byte for byte.
			h ^= maphash.String(dupSeed, it.Body)
		}
		d.bodyHash = h | 1
	}
	// The signature needs at least two shingles (three words). The
	// shingles themselves are rebuilt on demand (shingleSet).
	if len(toks) >= 3 {
		dupDensify(&sig)
		d.sig = sig
		d.hasSig = true
	}
	// The distinct words, in first-seen order, counted into the body
	// document frequencies as they come. Both only index arrays by word
	// number: no hashing, and no branch on whether a word repeats or is
	// new to this call. (No word hashes to 0: that would be a stop word,
	// see dupWordSet.has.)
	tids := sc.tok.tids
	for len(sc.stamp) < len(sc.tok.vocab.count) {
		sc.stamp = append(sc.stamp, 0)
		sc.bodyDF = append(sc.bodyDF, 0)
	}
	sc.docNo++
	n := 0
	for i, t := range toks {
		id := tids[i]
		fresh := int32(0)
		if sc.stamp[id] != sc.docNo {
			fresh = 1
		}
		df := sc.bodyDF[id]
		if sc.stamp[id] < sc.firstDoc {
			df = 0 // a count left from an earlier call
		}
		sc.stamp[id] = sc.docNo
		sc.bodyDF[id] = df + fresh
		toks[n] = t // n <= i
		n += int(fresh)
	}
	d.body = sc.u64.alloc(n)
	copy(d.body, toks)

	if name, desc := dupFoldHash(it.Name), dupFoldHash(it.Description); name != 0 && desc != 0 {
		d.nameDesc = dupMix(name^dupMix(desc)) | 1
	}
	// The stem's separators and its date fall away in tokenising (a date
	// is all digits).
	meta, _ := sc.tok.tokens(stem, sc.meta[:0], true, dupMaxTokens)
	meta, _ = sc.tok.tokens(it.Name, meta, true, dupMaxTokens)
	d.title = sc.u64.alloc(len(meta))
	copy(d.title, meta)
	d.title = dupSet(d.title)
	meta, _ = sc.tok.tokens(it.Description, meta, true, dupMaxTokens)
	sc.meta = meta
	d.meta = sc.u64.alloc(len(meta))
	copy(d.meta, meta)
	d.meta = dupSet(d.meta)
}

// numbers sets d.nums from body and returns a hash of the sequence of its
// numbers (0 for none), which identical bodies must share.
func (sc *dupScratch) numbers(d *dupDoc, body string) uint64 {
	seq := uint64(0)
	nums := sc.nums[:0]
	for i := 0; i < len(body); {
		// Most of a body is not digits: skip it eight bytes at a time.
		if i+8 <= len(body) {
			if m := dupDigitBits(dupLoad(body, i)); m == 0 {
				i += 8
				continue
			} else {
				i += bits.TrailingZeros64(m) / 8
			}
		} else if body[i] < '0' || body[i] > '9' {
			i++
			continue
		}
		for i < len(body)-1 && body[i] == '0' && body[i+1] >= '0' && body[i+1] <= '9' {
			i++ // 0042 is 42
		}
		h := uint64(14695981039346656037)
		for ; i < len(body) && body[i] >= '0' && body[i] <= '9'; i++ {
			h = (h ^ uint64(body[i])) * 1099511628211
		}
		h = dupMix(h) | 1
		seq = dupMix(seq ^ h)
		nums = append(nums, h)
	}
	sc.nums = nums
	if len(nums) == 0 {
		return 0
	}
	nums = dupSet(nums)
	if len(nums) > dupMaxNums {
		return seq
	}
	d.nums = sc.u64.alloc(len(nums))
	copy(d.nums, nums)
	return seq
}

// dupDigitBits returns the top bit of each byte of x that is an ASCII
// digit (see dupWordBits).
func dupDigitBits(x uint64) uint64 {
	a := x &^ dupHigh
	return (a + (0x80-'0')*dupOnes) &^ (a + (0x80-'9'-1)*dupOnes) &^ x & dupHigh
}

// dupDistinct reports whether two memories are distinct whatever their
// similarity: their bodies state different facts, or they are entries of
// a numbered collection (note_0001 and note_0002, ticket-17 and
// ticket-18: one directory, stems equal but for their numbers, no date).
func dupDistinct(a, b *dupDoc) bool {
	return a.numbered != 0 && a.numbered == b.numbered && a.stemNums != b.stemNums || dupDifferentFacts(a, b)
}

// dupDifferentFacts reports whether two bodies state different facts: both
// hold numbers, and not one of them is in both.
func dupDifferentFacts(a, b *dupDoc) bool {
	if len(a.nums) == 0 || len(b.nums) == 0 {
		return false
	}
	i, j := 0, 0
	for i < len(a.nums) && j < len(b.nums) {
		switch {
		case a.nums[i] < b.nums[j]:
			i++
		case b.nums[j] < a.nums[i]:
			j++
		default:
			return false
		}
	}
	return true
}

// dupSet sorts and dedupes in place.
func dupSet(s []uint64) []uint64 {
	slices.Sort(s)
	return slices.Compact(s)
}

// dupShingle hashes a pair of adjacent content words.
func dupShingle(a, b uint64) uint64 { return dupMix(a*31 + b) }

// dupSignature is a one-permutation MinHash: each word pair's hash picks a
// bin with its top bits and competes for the bin's minimum with the rest;
// empty bins borrow from the next non-empty one ("rotation"
// densification), which keeps the collision probability of a bin equal to
// the Jaccard similarity. One hash per pair instead of one per pair and bin.
func dupSignature(sh []uint64) (sig [dupBins]uint32) {
	sig = dupEmptySig
	for _, h := range sh {
		dupSigAdd(&sig, h)
	}
	dupDensify(&sig)
	return sig
}

// dupEmptySig is a signature with every bin empty.
var dupEmptySig = func() (sig [dupBins]uint32) {
	for i := range sig {
		sig[i] = math.MaxUint32
	}
	return sig
}()

// dupSigAdd lets h compete for the minimum of its bin (log2(dupBins) top
// bits pick it). The minimum is taken without a branch: early in a text
// most pairs lower their bin's minimum, later few do.
func dupSigAdd(sig *[dupBins]uint32, h uint64) {
	b := h >> (64 - 5) & (dupBins - 1)
	sig[b] = min(sig[b], uint32(h))
}

// dupDensify fills the empty bins of a signature (see dupSignature).
func dupDensify(sig *[dupBins]uint32) {
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

// dupNumberedStem splits a stem into its numbers and the rest (lower-cased,
// separators unified), each hashed with the directory; both are 0 when the
// stem holds no digit.
func dupNumberedStem(dir, stem string) (rest, nums uint64) {
	if !dupHasDigitRun(stem, 1) {
		return 0, 0
	}
	var r, n maphash.Hash
	r.SetSeed(dupSeed)
	n.SetSeed(dupSeed)
	r.WriteString(dir)
	r.WriteByte(0)
	for i := 0; i < len(stem); i++ {
		switch c := stem[i]; {
		case c >= '0' && c <= '9':
			n.WriteByte(c)
			if i+1 == len(stem) || stem[i+1] < '0' || stem[i+1] > '9' {
				n.WriteByte('.')
				r.WriteByte('#')
			}
		case c == '-' || c == '_' || c == '.' || c == ' ':
			r.WriteByte('-')
		default:
			r.WriteByte(dupFold[c])
		}
	}
	return r.Sum64() | 1, n.Sum64()
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

// dupTokenizer turns text into content words (see tokens). It keeps a
// zero-padded copy of the text, a bitmap of its word bytes, and a cache of
// the words it has seen. It also numbers the distinct words it meets
// (vocab): tids holds the numbers of the words the last call to tokens
// returned, so that callers can index arrays by word instead of hashing
// the word's hash again. The numbers last as long as the tokenizer (it is
// pooled with dupScratch), so that a cached word keeps its number.
type dupTokenizer struct {
	pad   []byte
	bm    []uint64
	tids  []int32
	vocab dupCounter // word hash -> number
	cache [1 << dupCacheBits]dupCachedWord
}

// dupCachedWord is a word of fewer than 16 bytes (c0, c1: its bytes,
// lower-cased, zero past its end; a word's bytes are never 0, so c0 is
// not 0 and an empty entry matches nothing), its hash, and in info its
// number (bits 32-63) and whether it counts (bit 0 in a body, bit 1 in
// meta text).
type dupCachedWord struct{ c0, c1, h, info uint64 }

// dupCacheBits sizes the word cache (4096 words, 128 KB): on the
// 20,000-memory benchmark corpus it answers 94% of the words.
const dupCacheBits = 12

// dupMaxVocab bounds the words a tokenizer numbers before it starts
// afresh (see reset).
const dupMaxVocab = 1 << 16

// reset forgets every word: numbers start again from 0.
func (z *dupTokenizer) reset() {
	clear(z.cache[:])
	z.vocab.reset(1 << 12)
}

// dupTokens is dupTokenizer.tokens with a tokenizer of its own.
func dupTokens(s string, out []uint64, meta bool, limit int) (_ []uint64, truncated bool) {
	return new(dupTokenizer).tokens(s, out, meta, limit)
}

// SWAR constants: a byte of ones, and the top bit of every byte.
const (
	dupOnes = 0x0101010101010101
	dupHigh = 0x8080808080808080
)

// dupWordBits returns the top bit of each byte of x that belongs in a
// word (an ASCII letter or digit, or any byte of a multi-byte UTF-8
// character: dupFold's non-zero bytes), eight bytes at once. On the 7-bit
// part a of each byte, a+0x80-lo sets the top bit exactly when a >= lo,
// and no byte carries into the next.
func dupWordBits(x uint64) uint64 {
	a := x &^ dupHigh
	l := a | 0x20*dupOnes // folds upper-case letters onto lower-case ones
	letter := (l + (0x80-'a')*dupOnes) &^ (l + (0x80-'z'-1)*dupOnes)
	digit := (a + (0x80-'0')*dupOnes) &^ (a + (0x80-'9'-1)*dupOnes)
	return (x | letter | digit) & dupHigh
}

// dupLower lower-cases the ASCII capitals among the bytes of x (as dupFold
// does), leaving every other byte alone.
func dupLower(x uint64) uint64 {
	a := x &^ dupHigh
	upper := (a + (0x80-'A')*dupOnes) &^ (a + (0x80-'Z'-1)*dupOnes) &^ x & dupHigh
	return x | upper>>2 // 0x80>>2 is the case bit, 0x20
}

// dupLoad reads the eight bytes of s at i, little-endian (the compiler
// makes it one load).
func dupLoad[T string | []byte](s T, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// dupBlockBits returns the word bits of the 64 bytes of s at i (bit k
// for byte i+k).
func dupBlockBits[T string | []byte](s T, i int) uint64 {
	s = s[i : i+64]
	return dupByteBits(dupLoad(s, 0)) | dupByteBits(dupLoad(s, 8))<<8 |
		dupByteBits(dupLoad(s, 16))<<16 | dupByteBits(dupLoad(s, 24))<<24 |
		dupByteBits(dupLoad(s, 32))<<32 | dupByteBits(dupLoad(s, 40))<<40 |
		dupByteBits(dupLoad(s, 48))<<48 | dupByteBits(dupLoad(s, 56))<<56
}

// dupByteBits gathers the word bits of the eight bytes of x into a byte
// (bit k for byte k): the multiply moves the top bit of byte k to bit
// 56+k, and no two of its partial products overlap.
func dupByteBits(x uint64) uint64 {
	return dupWordBits(x) >> 7 * 0x0102040810204080 >> 56
}

// dupByteMask[n] keeps the low n bytes of a word.
var dupByteMask = [9]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff, 0xffffffffffffffff}

// tokens appends the hashes of the content words of s: ASCII letters and
// digits (and any non-ASCII byte) lower-cased, words split at everything
// else, one-letter words, numbers and stop words dropped, light suffix
// stemming (tests/testing -> test, deployment -> deploy). With meta set,
// type words that file names and descriptions carry (feedback, project,
// memory) are dropped too. It stops after limit words (truncated is then
// true).
//
// It runs on every word of every memory, so it works in two tight passes
// rather than byte by byte: the first marks the word bytes of s in a
// bitmap, eight bytes at a time (dupWordBits); the second walks the words
// through the bitmap, loads each one's bytes at once, and looks the word
// up in the word cache. Only a word missing from the cache is stemmed,
// hashed and checked against the stop words (dupWord). The hash is
// written whether or not the word counts, and the output advanced only
// when it does, which spares a branch that goes either way at random.
func (z *dupTokenizer) tokens(s string, out []uint64, meta bool, limit int) (_ []uint64, truncated bool) {
	if len(z.vocab.slots) == 0 {
		z.reset()
	}
	// The last 64 bytes of s (or all of it) and 64 zero bytes
	// (separators): reads of whole 64-byte blocks, and of the 16 bytes
	// at a word start, that would run past the end of s read this copy
	// instead.
	ts := max(0, len(s)-64)
	z.pad = append(append(z.pad[:0], s[ts:]...), make([]byte, 64)...)
	tail := z.pad
	// Bit i of bm[i/64] is set when byte i is a word byte. One more word,
	// always 0, ends any run of word bits.
	nw := (len(s) + 63) / 64
	if cap(z.bm) < nw+1 {
		z.bm = make([]uint64, nw+1)
	}
	bm := z.bm[:nw+1]
	nfull := len(s) / 64
	for j := range bm[:nfull] {
		bm[j] = dupBlockBits(s, j*64)
	}
	if nfull < nw {
		bm[nfull] = dupBlockBits(tail, nfull*64-ts)
	}
	bm[nw] = 0

	// Room for every word of s (a word and its separator take two bytes)
	// or for limit words, and one more: a hash is written before it is
	// known to count.
	base := len(out)
	out = slices.Grow(out, min(limit, len(s)/2+1)+1)
	dst := out[base:cap(out)]
	if cap(z.tids) < len(dst) {
		z.tids = make([]int32, len(dst))
	}
	tids := z.tids[:len(dst)]
	keepBit := uint(0)
	if meta {
		keepBit = 1
	}
	k := 0 // words kept
	for j, w := range bm[:nw] {
		// The words starting in this block: word bits whose previous
		// byte is not a word byte. Walking them one by one only clears
		// a bit; each word's length depends on its start alone, so the
		// processor can work on several words at once.
		prev := uint64(0)
		if j > 0 {
			prev = bm[j-1] >> 63
		}
		for starts := w &^ (w<<1 | prev); starts != 0; starts &= starts - 1 {
			t := bits.TrailingZeros64(starts) & 63 // starts is not 0
			start := j*64 + t
			n := bits.TrailingZeros64(^(w >> t))
			if t+n == 64 { // the word runs on into the next blocks
				for jj := j + 1; ; jj++ {
					r := bits.TrailingZeros64(^bm[jj])
					n += r
					if r < 64 {
						break
					}
				}
			}

			var h, keep uint64
			var tid int32
			if n < 16 {
				// The word's bytes, lower-cased, zero past its end.
				var x0, x1 uint64
				if start+16 <= len(s) {
					x0, x1 = dupLoad(s, start), dupLoad(s, start+8)
				} else {
					x0, x1 = dupLoad(tail, start-ts), dupLoad(tail, start-ts+8)
				}
				c0, c1 := dupLower(x0), uint64(0)
				if n <= 8 {
					c0 &= dupByteMask[n]
				} else {
					c1 = dupLower(x1) & dupByteMask[n-8]
				}
				e := &z.cache[((c0^c1*0xbf58476d1ce4e5b9)*0x9e3779b97f4a7c15)>>(64-dupCacheBits)]
				if e.c0 != c0 || e.c1 != c1 {
					h, keep := dupWord(c0, c1, n)
					*e = dupCachedWord{c0, c1, h, keep | uint64(z.vocab.add(h))<<32}
				}
				h, keep, tid = e.h, e.info>>(keepBit&63)&1, int32(e.info>>32)
			} else {
				h, keep = dupLongWord(s[start:start+n], meta)
				tid = z.vocab.add(h)
			}
			dst[k], tids[k] = h, tid
			k += int(keep)
			if k > limit {
				z.tids = tids[:limit]
				return out[:base+limit], true
			}
		}
	}
	z.tids = tids[:k]
	return out[:base+k], false
}

// dupWord hashes a word of n < 16 bytes held in c0 and c1, and tells
// whether it counts (see dupCachedWord).
func dupWord(c0, c1 uint64, n int) (h, keep uint64) {
	if n < 2 {
		return 0, 0
	}
	var buf [32]byte
	binary.LittleEndian.PutUint64(buf[0:], c0)
	binary.LittleEndian.PutUint64(buf[8:], c1)
	return dupHashKeep(&buf, n)
}

// dupHashKeep hashes the word in buf[:n] (n >= 2), stemmed, and tells
// whether it counts: bit 0 in a body (not all digits, not a stop word),
// bit 1 in meta text (not a meta stop word either).
func dupHashKeep(buf *[32]byte, n int) (h, keep uint64) {
	h = dupHashWord(buf, len(dupStem(buf[:n])))
	// Digits alone stay below 0x40; any letter or non-ASCII byte lifts a
	// byte above (numbers are dropped).
	var or byte
	for _, c := range buf[:n] {
		or |= c
	}
	switch {
	case or < 0x40 || dupStop.has(h):
		return h, 0
	case dupMetaStop.has(h):
		return h, 1
	}
	return h, 3
}

// dupLongWord hashes a word w of 16 bytes or more; keep is 1 when it
// counts (in meta text when meta is set). Words longer than 32 bytes
// (hashes, paths) never count.
func dupLongWord(w string, meta bool) (h, keep uint64) {
	var buf [32]byte
	if len(w) > len(buf) {
		return 0, 0
	}
	for i := 0; i < len(w); i++ {
		buf[i] = dupFold[w[i]]
	}
	h, keep = dupHashKeep(&buf, len(w))
	if meta {
		return h, keep >> 1
	}
	return h, keep & 1
}

// dupSeed seeds the hash of long bodies (equal within a process, which is
// all Find needs).
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

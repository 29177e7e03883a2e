// Package pool is memtui's one bounded worker pool: every fan-out over
// directories, files or transcripts runs through Run, so how many
// goroutines work at once is decided in one place and a cancelled context
// stops handing out work everywhere the same way.
package pool

import (
	"context"
	"sync"
	"sync/atomic"
)

// Run calls fn(0) … fn(n-1) on at most workers goroutines (at least one),
// handing out indices in order with an atomic counter (cheaper than a
// channel per item), and returns when every call has returned. Once ctx is
// done no further index is handed out; calls already running finish. With
// one worker, or one item, it runs on the caller's goroutine.
func Run(ctx context.Context, n, workers int, fn func(i int)) {
	if n <= 0 {
		return
	}
	workers = min(max(workers, 1), n)
	if workers == 1 {
		for i := 0; i < n && ctx.Err() == nil; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// Queue is Run in the background, with a way to move an item up: it
// calls fn(0) … fn(n-1) on at most workers goroutines, in index order,
// except that an index asked for with Prefer (the project the user just
// selected) is taken next. Once ctx is done no further index is taken.
type Queue struct {
	mu      sync.Mutex
	claimed []bool
	pos     int
	want    []int
	wg      sync.WaitGroup
}

// maxWant bounds the Prefer requests kept.
const maxWant = 64

// Start starts a Queue over n items.
func Start(ctx context.Context, n, workers int, fn func(i int)) *Queue {
	q := &Queue{claimed: make([]bool, max(n, 0))}
	for w := 0; w < min(max(workers, 1), max(n, 1)) && n > 0; w++ {
		q.wg.Add(1)
		go func() {
			defer q.wg.Done()
			for ctx.Err() == nil {
				i, ok := q.take()
				if !ok {
					return
				}
				fn(i)
			}
		}()
	}
	return q
}

// Prefer asks for item i to be taken next; an item taken already, or out
// of range, is ignored. The newest request goes first.
func (q *Queue) Prefer(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if i >= 0 && i < len(q.claimed) && !q.claimed[i] {
		// Bounded: a user holding a key down asks for hundreds; only
		// the newest few matter.
		if len(q.want) == maxWant {
			q.want = append(q.want[:0], q.want[1:]...)
		}
		q.want = append(q.want, i)
	}
}

// Wait returns once every worker has stopped: every item done, or ctx done
// and the calls then running returned.
func (q *Queue) Wait() { q.wg.Wait() }

// take claims the next item: the newest preferred one not yet taken, else
// the next in order. ok is false when none is left.
func (q *Queue) take() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.want) > 0 {
		i := q.want[len(q.want)-1]
		q.want = q.want[:len(q.want)-1]
		if !q.claimed[i] {
			q.claimed[i] = true
			return i, true
		}
	}
	for q.pos < len(q.claimed) && q.claimed[q.pos] {
		q.pos++
	}
	if q.pos == len(q.claimed) {
		return 0, false
	}
	q.claimed[q.pos] = true
	return q.pos, true
}

// Limit bounds how many of a kind of work run at once when the work comes
// one item at a time rather than as a list (the TUI reads a project's
// transcripts as each project loads, each read in its own Cmd): Do waits
// for a slot. The zero Limit is not usable; make one with NewLimit.
type Limit struct{ slots chan struct{} }

// NewLimit allows n at once (at least one).
func NewLimit(n int) *Limit { return &Limit{slots: make(chan struct{}, max(n, 1))} }

// Do runs fn once a slot is free and reports true, or gives up when ctx
// is done first and reports false without running it.
func (l *Limit) Do(ctx context.Context, fn func()) bool {
	select {
	case l.slots <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	defer func() { <-l.slots }()
	fn()
	return true
}

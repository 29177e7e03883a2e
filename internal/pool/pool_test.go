package pool

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunCallsEachOnceWithinTheBound: every index is called exactly once,
// and never more than workers at a time.
func TestRunCallsEachOnceWithinTheBound(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 4}, {1, 4}, {5, 1}, {100, 3}, {3, 100}, {10, 0}} {
		var mu sync.Mutex
		seen := map[int]int{}
		var running, peak atomic.Int64
		Run(context.Background(), c.n, c.workers, func(i int) {
			r := running.Add(1)
			for {
				p := peak.Load()
				if r <= p || peak.CompareAndSwap(p, r) {
					break
				}
			}
			mu.Lock()
			seen[i]++
			mu.Unlock()
			running.Add(-1)
		})
		if len(seen) != c.n {
			t.Errorf("n=%d workers=%d: %d indices called", c.n, c.workers, len(seen))
		}
		for i, k := range seen {
			if k != 1 || i < 0 || i >= c.n {
				t.Errorf("n=%d: index %d called %d times", c.n, i, k)
			}
		}
		if bound := int64(max(c.workers, 1)); peak.Load() > bound {
			t.Errorf("n=%d workers=%d: %d ran at once", c.n, c.workers, peak.Load())
		}
	}
}

// TestRunStopsWhenCancelled: once the context is done, no new index is
// handed out.
func TestRunStopsWhenCancelled(t *testing.T) {
	for _, workers := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		var calls atomic.Int64
		Run(ctx, 1000, workers, func(i int) {
			if calls.Add(1) == 10 {
				cancel()
			}
		})
		if n := calls.Load(); n < 10 || n > 10+int64(workers) {
			t.Errorf("workers=%d: %d calls after a cancel at the 10th", workers, n)
		}
		cancel()
	}
}

// TestQueueTakesAPreferredItemNext: with one worker blocked on item 0,
// items preferred meanwhile are taken next, newest first, then the rest in
// order; each exactly once.
func TestQueueTakesAPreferredItemNext(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var order []int
	q := Start(context.Background(), 6, 1, func(i int) {
		if i == 0 {
			<-release
		}
		mu.Lock()
		order = append(order, i)
		mu.Unlock()
	})
	q.Prefer(4)
	q.Prefer(2)
	q.Prefer(0)  // taken already: ignored
	q.Prefer(99) // out of range: ignored
	close(release)
	q.Wait()
	want := []int{0, 2, 4, 1, 3, 5}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("order %v, want %v", order, want)
	}
}

// TestQueueStopsWhenCancelled: a cancelled queue takes no new item, and
// Wait returns.
func TestQueueStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	q := Start(ctx, 1000, 2, func(i int) {
		if calls.Add(1) == 5 {
			cancel()
		}
	})
	q.Wait()
	if n := calls.Load(); n > 7 {
		t.Errorf("%d calls after a cancel at the 5th", n)
	}
	cancel()
	Start(context.Background(), 0, 3, func(int) { t.Error("called on no item") }).Wait()
}

func TestLimitRunsAtMostNAtOnce(t *testing.T) {
	l := NewLimit(2)
	var running, most atomic.Int32
	var wg sync.WaitGroup
	for range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Do(context.Background(), func() {
				n := running.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(2 * time.Millisecond)
				running.Add(-1)
			})
		}()
	}
	wg.Wait()
	if got := most.Load(); got != 2 {
		t.Fatalf("at most %d ran at once, want 2 (the limit, reached with 12 waiting)", got)
	}
}

func TestLimitGivesUpWhenCancelled(t *testing.T) {
	l := NewLimit(1)
	hold := make(chan struct{})
	go l.Do(context.Background(), func() { <-hold })
	// Wait until the one slot is taken.
	for len(l.slots) == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	if l.Do(ctx, func() { ran = true }) || ran {
		t.Fatal("Do ran its work with the context done and no slot free")
	}
	close(hold)
	if !l.Do(context.Background(), func() { ran = true }) || !ran {
		t.Fatal("Do did not run once the slot was free again")
	}
}

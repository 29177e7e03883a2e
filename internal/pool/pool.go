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

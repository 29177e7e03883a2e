package model

import (
	"strings"
	"testing"
	"time"
)

func TestScanExclusion(t *testing.T) {
	mounted := ParseMemoryStores(`["/srv/acme"]`)
	for _, c := range []struct {
		rel     string
		stores  MemoryStores
		exclude bool
		why     string // a part of the reason, when excluded
	}{
		{"a.md", MemoryStores{}, false, ""},
		{"sub/deep/a.md", MemoryStores{}, false, ""},
		{".hidden/x.md", MemoryStores{}, true, "dot (.hidden)"},
		{".x.md", MemoryStores{}, true, "dot"},
		{"sub/.cache/x.md", MemoryStores{}, true, "dot (.cache)"},
		{"logs/2026/01/x.md", MemoryStores{}, true, "under logs/"},
		{"Logs/x.md", MemoryStores{}, true, "under Logs/"},
		{"Sessions./x.md", MemoryStores{}, true, "under Sessions./"},
		{"sessions /x.md", MemoryStores{}, true, "under sessions /"},
		{"proposals/x.md", MemoryStores{}, true, "under proposals/"},
		{"sub/logs/x.md", MemoryStores{}, false, ""}, // only the first segment
		{"logs.md", MemoryStores{}, false, ""},
		{"logsx/x.md", MemoryStores{}, false, ""},
		{"team/x.md", MemoryStores{}, false, ""},
		{"team/.x.md", MemoryStores{}, false, ""}, // kept, even dot-named
		{"team/sub/x.md", MemoryStores{}, true, "not set in memtui's environment"},
		{"team/sub/x.md", mounted, true, "team/sub/ is not the mount"},
		{"team/acme/x.md", mounted, false, ""},
		{"team/acme/logs/x.md", mounted, false, ""},
		{"team/acme/.git/x.md", mounted, true, "dot (.git)"},
	} {
		why := ScanExclusion(c.rel, c.stores)
		if (why != "") != c.exclude || !strings.Contains(why, c.why) {
			t.Errorf("ScanExclusion(%q, %+v) = %q, want excluded=%v with %q", c.rel, c.stores, why, c.exclude, c.why)
		}
	}
}

func rankTimes(ts []time.Time) []ScanReason {
	cands := make([]*ScanCandidate, len(ts))
	for i, t := range ts {
		cands[i] = &ScanCandidate{ModTime: t}
	}
	RankScan(cands)
	out := make([]ScanReason, len(ts))
	for i, c := range cands {
		out[i] = c.Reason
	}
	return out
}

func TestRankScan(t *testing.T) {
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	// 201 distinct mtimes, in shuffled order: only the oldest is out.
	ts := make([]time.Time, 201)
	for i := range ts {
		ts[(i*37)%201] = base.Add(time.Duration(i) * time.Minute)
	}
	got := rankTimes(ts)
	for i, r := range got {
		want := ScanIn
		if ts[i].Equal(base) {
			want = ScanPastCap
		}
		if r != want {
			t.Errorf("file at %s: %q, want %q", ts[i].Format(time.TimeOnly), r, want)
		}
	}
	// Exactly 200: all in.
	for _, r := range rankTimes(ts[:200]) {
		if r != ScanIn {
			t.Fatalf("200 files: %q", r)
		}
	}
	// 202 files; the 199th to the 201st newest share one mtime: the 198
	// newer are in, the three tied are unknown, the oldest is out.
	ts = make([]time.Time, 0, 202)
	for i := 0; i < 198; i++ {
		ts = append(ts, base.Add(time.Duration(1000+i)*time.Second))
	}
	tied := base.Add(500 * time.Second)
	ts = append(ts, tied, tied.Add(300*time.Nanosecond), tied, base)
	got = rankTimes(ts)
	for i, r := range got {
		want := ScanIn
		switch {
		case i >= 198 && i <= 200:
			want = ScanTie
		case i == 201:
			want = ScanPastCap
		}
		if r != want {
			t.Errorf("file %d: %q, want %q", i, r, want)
		}
		in, known := r.InScan()
		if (r == ScanTie) == known || (r == ScanIn) != in {
			t.Errorf("%q.InScan() = %v, %v", r, in, known)
		}
	}
	// A tie entirely inside the 200 is no tie.
	ts = ts[:0]
	for i := 0; i < 201; i++ {
		ts = append(ts, base.Add(time.Duration(i/2)*time.Second+time.Hour))
	}
	ts[0] = base // the oldest alone, so the 200th and 201st differ
	got = rankTimes(ts)
	for i, r := range got {
		if (i == 0) != (r == ScanPastCap) || r == ScanTie {
			t.Errorf("file %d: %q", i, r)
		}
	}
}

package memfs

// Codex's session rollouts on disk (codex facts §6.1), read for what
// they say about the memory store: which sessions read, cited and wrote
// it (model/codex parses each rollout; this file finds them and streams
// them through the safe reader).
//
// Where: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl,
// and archived_sessions/ (flat, or in the same dated folders). A
// rollout-*.jsonl.zst (feature local_thread_store_compression) is not
// read: a problem says so. Nothing is written, nothing cached.
//
// Bounds, whatever the home holds: the newest MaxFiles rollouts (by the
// time in their names), MaxFileBytes of each, MaxTotalBytes in all (the
// newest first), lines up to MaxLine bytes (a longer line is skipped with
// a problem, never held whole), and the listing itself. No symlink is
// followed (sessions/ itself included: Codex writes plain folders, so a
// link was put by someone else), a FIFO or device is refused without
// blocking, and ctx stops the read between chunks.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/memtui/memtui/internal/pool"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/codex"
)

// The folders of a Codex home that hold rollouts.
const (
	CodexSessionsDir = "sessions"
	CodexArchivedDir = "archived_sessions"
)

// CodexRolloutLimits bound a read of a home's rollouts; a zero field
// takes its default.
type CodexRolloutLimits struct {
	// MaxFiles is how many rollouts are read, the newest first (10,000).
	MaxFiles int
	// MaxFileBytes is how much of one rollout is read (256 MiB).
	MaxFileBytes int64
	// MaxTotalBytes is how much is read in all (1 GiB).
	MaxTotalBytes int64
	// MaxLine is the longest line decoded (16 MiB): longer lines (an
	// image, a huge tool output) are skipped.
	MaxLine int
	// Workers bounds the rollouts read at once (2).
	Workers int
}

func (l CodexRolloutLimits) withDefaults() CodexRolloutLimits {
	if l.MaxFiles <= 0 {
		l.MaxFiles = 10000
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = 256 << 20
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = 1 << 30
	}
	if l.MaxLine <= 0 {
		l.MaxLine = 16 << 20
	}
	if l.Workers <= 0 {
		l.Workers = 2
	}
	return l
}

const (
	// maxRolloutListing bounds the entries listed under sessions/ and
	// archived_sessions/ (a few a day for years is some thousands).
	maxRolloutListing = 200000
	// rolloutChunk is the read buffer's size.
	rolloutChunk = 256 << 10
	// longHead is how much of a line too long to decode is kept, for
	// what the parser can say of it.
	longHead = 64 << 10
	// maxRolloutDepth: sessions/YYYY/MM/DD.
	maxRolloutDepth = 3
)

// CodexRollouts is what a home's rollouts say, as read.
type CodexRollouts struct {
	// Rollouts are the rollouts read, newest first.
	Rollouts []*codex.Rollout
	// Found counts the rollout files found; Bytes what was read of them.
	Found int
	Bytes int64
	// Problems are what was not read, and why.
	Problems []model.TranscriptProblem
}

// ReadCodexRollouts finds and reads the rollouts of the Codex home home
// (absolute): every memory read, note and citation they record. The
// error is non-nil only when ctx is cancelled.
func ReadCodexRollouts(ctx context.Context, home string, lim CodexRolloutLimits) (*CodexRollouts, error) {
	lim = lim.withDefaults()
	out := &CodexRollouts{}
	l := &rolloutLister{out: out}
	for _, sub := range []string{CodexSessionsDir, CodexArchivedDir} {
		l.root(filepath.Join(home, sub))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	files := l.files
	out.Found = len(files)
	// Newest first: a rollout's name starts with its time.
	sort.Slice(files, func(i, j int) bool {
		a, b := filepath.Base(files[i]), filepath.Base(files[j])
		if a != b {
			return a > b
		}
		return files[i] < files[j]
	})
	if len(files) > lim.MaxFiles {
		out.Problems = append(out.Problems, model.TranscriptProblem{Transcript: home,
			Message: fmt.Sprintf("%d older rollouts not read (memtui reads the newest %d)", len(files)-lim.MaxFiles, lim.MaxFiles)})
		files = files[:lim.MaxFiles]
	}
	results := make([]rolloutResult, len(files))
	var budget atomic.Int64
	pool.Run(ctx, len(files), lim.Workers, func(i int) {
		results[i] = readRollout(ctx, files[i], home, lim, &budget)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	over := 0
	for i, r := range results {
		out.Bytes += r.read
		if r.overBudget {
			over++
			continue
		}
		if r.problem != "" {
			out.Problems = append(out.Problems, model.TranscriptProblem{Transcript: files[i], Message: r.problem})
		}
		if r.rollout != nil {
			out.Rollouts = append(out.Rollouts, r.rollout)
		}
	}
	if over > 0 {
		out.Problems = append(out.Problems, model.TranscriptProblem{Transcript: home,
			Message: fmt.Sprintf("%d older rollouts not read: the newer ones reach the %s memtui reads in all", over, sizeText(lim.MaxTotalBytes))})
	}
	return out, nil
}

// rolloutLister lists the rollout files under a home's folders.
type rolloutLister struct {
	out     *CodexRollouts
	files   []string
	entries int
	full    bool
}

func (l *rolloutLister) problem(path, msg string) {
	l.out.Problems = append(l.out.Problems, model.TranscriptProblem{Transcript: path, Message: msg})
}

// root lists one of the home's rollout folders: it must be a real
// directory (absent is no problem: no session archived yet).
func (l *rolloutLister) root(dir string) {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
		return
	case err != nil:
		l.problem(dir, "not listed: "+errText(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		l.problem(dir, "a symlink; not followed (Codex writes its sessions in plain folders), so its rollouts are not read")
	case !fi.IsDir():
		l.problem(dir, "a "+model.FileKind(fi.Mode())+", not a folder; not read")
	default:
		l.walk(dir, 0)
	}
}

func (l *rolloutLister) walk(dir string, depth int) {
	if l.full {
		return
	}
	f, err := openDirNoFollow(dir)
	if err != nil {
		l.problem(dir, "not listed: "+errText(err))
		return
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil {
		l.problem(dir, "listed in part: "+errText(err))
	}
	for _, e := range entries {
		if l.entries++; l.entries > maxRolloutListing {
			l.full = true
			l.problem(dir, fmt.Sprintf("more than %d files and folders hold sessions; memtui stopped listing them here", maxRolloutListing))
			return
		}
		name, p := e.Name(), filepath.Join(dir, e.Name())
		t := e.Type()
		rollout := strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
		switch {
		case t&fs.ModeSymlink != 0:
			if strings.HasPrefix(name, "rollout-") || depth < maxRolloutDepth {
				l.problem(p, "a symlink; not followed")
			}
		case t.IsDir():
			if depth < maxRolloutDepth {
				l.walk(p, depth+1)
			}
		case strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl.zst"):
			l.problem(p, "compressed (zstd, Codex's local_thread_store_compression), not read")
		case !rollout:
		case !t.IsRegular():
			l.problem(p, "a "+model.FileKind(t)+", not a regular file; not read")
		default:
			l.files = append(l.files, p)
		}
	}
}

// rolloutResult is one rollout's read.
type rolloutResult struct {
	rollout    *codex.Rollout
	read       int64
	problem    string
	overBudget bool
}

var rolloutBufs = sync.Pool{New: func() any { b := make([]byte, rolloutChunk); return &b }}

// readRollout streams one rollout through the parser, a line at a time,
// within the limits; budget counts the bytes all reads reserved.
func readRollout(ctx context.Context, path, home string, lim CodexRolloutLimits, budget *atomic.Int64) rolloutResult {
	f, fi, err := openRead(path, noFollow)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return rolloutResult{} // gone since the listing: Codex archived or deleted it
		}
		return rolloutResult{problem: "not read: " + errText(err)}
	}
	defer f.Close()
	size := fi.Size()
	want := min(size, lim.MaxFileBytes)
	if budget.Add(want) > lim.MaxTotalBytes && want > 0 {
		budget.Add(-want)
		return rolloutResult{overBudget: true}
	}
	bp := rolloutBufs.Get().(*[]byte)
	defer rolloutBufs.Put(bp)
	buf := *bp
	p := codex.NewRolloutParser(path, []string{home})
	var (
		carry    []byte
		head     []byte
		longSize int64
		inLong   bool
		total    int64
		capped   bool
	)
	startLong := func(seg []byte) {
		inLong = true
		head = append(head[:0], carry[:min(len(carry), longHead)]...)
		if room := longHead - len(head); room > 0 {
			head = append(head, seg[:min(len(seg), room)]...)
		}
		longSize = int64(len(carry) + len(seg))
		carry = carry[:0]
	}
	var res rolloutResult
	for !capped {
		if ctx.Err() != nil {
			return rolloutResult{read: total}
		}
		n, err := f.Read(buf)
		chunk := buf[:n]
		if total+int64(n) > lim.MaxFileBytes {
			chunk, capped = chunk[:lim.MaxFileBytes-total], true
		}
		total += int64(len(chunk))
		for len(chunk) > 0 {
			seg, eol := chunk, false
			if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
				seg, chunk, eol = chunk[:i], chunk[i+1:], true
			} else {
				chunk = nil
			}
			switch {
			case inLong:
				longSize += int64(len(seg))
			case len(carry)+len(seg) > lim.MaxLine:
				startLong(seg)
			case !eol:
				carry = append(carry, seg...)
				continue
			case len(carry) > 0:
				carry = append(carry, seg...)
				p.Line(carry)
				carry = carry[:0]
				continue
			default:
				p.Line(seg)
				continue
			}
			if eol {
				p.LongLine(head, longSize)
				inLong = false
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			res.problem = fmt.Sprintf("read in part (the first %s): %s", sizeText(total), errText(err))
			break
		}
	}
	switch {
	case inLong:
		p.LongLine(head, longSize)
	case len(carry) > 0:
		p.Tail(carry)
	}
	if capped && size > total && res.problem == "" {
		res.problem = fmt.Sprintf("%s; memtui read its first %s (what it records after that is not seen)", sizeText(size), sizeText(total))
	}
	res.rollout, res.read = p.Finish(), total
	return res
}

// Package corpus writes realistic Claude Code config trees of any size, for
// benchmarks and tests: <config>/projects/<slug>/memory/ with a MEMORY.md
// index and topic files whose shapes, sizes and defects follow what real
// memory directories look like (DESIGN.md §8), plus, on request, one small
// session transcript per project so the project's real path can be
// confirmed.
//
// Output is a pure function of Config: the same seed writes the same bytes and
// the same mtimes, whatever the machine or the number of CPUs. Projects are
// generated in parallel, each from its own random stream.
package corpus

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"
)

// Config says how big a tree to write.
type Config struct {
	// Projects is the number of project directories under projects/.
	Projects int
	// Files is the total number of topic files (every *.md but MEMORY.md)
	// across all memory directories.
	Files int
	// Seed selects the tree; the same seed gives the same bytes.
	Seed int64
	// Now anchors every date: modified stamps and mtimes fall in the months
	// before it. Zero means DefaultNow, so output stays deterministic.
	Now time.Time
	// Transcripts writes one small <uuid>.jsonl per project whose lines carry
	// the project's cwd.
	Transcripts bool
}

// DefaultNow is the "today" used when Config.Now is zero.
var DefaultNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// Stats describes what Generate wrote.
type Stats struct {
	Projects int
	// Files counts topic files (MEMORY-archive.md, README.md and team/ files
	// included; MEMORY.md excluded). It equals Config.Files.
	Files int
	// Indexes counts MEMORY.md files (team/MEMORY.md included).
	Indexes int
	// Bytes is the size of everything written into memory directories
	// (topic files and indexes), the bytes a lint has to read.
	Bytes int64
	// TranscriptFiles and TranscriptBytes count the .jsonl files.
	TranscriptFiles int
	TranscriptBytes int64

	// Frontmatter shapes of the topic files that are memories (archive
	// indexes and READMEs excluded): Legacy has a top-level type, Current a
	// metadata: block, None no frontmatter at all. InvalidYAML counts files
	// whose frontmatter strict YAML rejects (a subset of Legacy+Current).
	Legacy, Current, None, InvalidYAML int
}

func (s *Stats) add(o Stats) {
	s.Files += o.Files
	s.Indexes += o.Indexes
	s.Bytes += o.Bytes
	s.TranscriptFiles += o.TranscriptFiles
	s.TranscriptBytes += o.TranscriptBytes
	s.Legacy += o.Legacy
	s.Current += o.Current
	s.None += o.None
	s.InvalidYAML += o.InvalidYAML
}

// Generate writes a tree under configDir (created if missing; existing files
// with the same names are overwritten) and reports what it wrote.
func Generate(configDir string, cfg Config) (Stats, error) {
	if cfg.Projects <= 0 {
		return Stats{}, errors.New("corpus: Projects must be positive")
	}
	if cfg.Files < 0 {
		return Stats{}, errors.New("corpus: Files must not be negative")
	}
	if cfg.Now.IsZero() {
		cfg.Now = DefaultNow
	}
	plans := planProjects(cfg)

	stats := Stats{Projects: len(plans)}
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan *projectPlan)
	workers := min(2*runtime.GOMAXPROCS(0), 32)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				st, err := writeProject(configDir, cfg, p)
				mu.Lock()
				stats.add(st)
				if err != nil && firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range plans {
		next <- p
	}
	close(next)
	wg.Wait()
	return stats, firstErr
}

// projectPlan is what the master random stream decides for one project
// before any project is generated, so that generation can run in parallel.
type projectPlan struct {
	index int
	cwd   string // /home/dev/<name>
	slug  string
	files int
	// others are slugs of a few other projects, for links outside the dir.
	others []string
}

func planProjects(cfg Config) []*projectPlan {
	r := rand.New(rand.NewPCG(uint64(cfg.Seed), 0x6d656d747569)) // "memtui"
	plans := make([]*projectPlan, cfg.Projects)
	seen := map[string]bool{}
	for i := range plans {
		var cwd, slug string
		for attempt := 0; ; attempt++ {
			cwd = projectPath(r)
			if attempt > 3 {
				cwd += fmt.Sprintf("-%d", attempt)
			}
			slug = SanitizePath(cwd)
			if !seen[slug] {
				break
			}
		}
		seen[slug] = true
		plans[i] = &projectPlan{index: i, cwd: cwd, slug: slug}
	}

	// Sizes are heavy-tailed: most projects hold a few dozen memories, a
	// few hold hundreds. Largest-remainder rounding keeps the total exact.
	weights := make([]float64, len(plans))
	total := 0.0
	for i := range weights {
		weights[i] = math.Exp(r.NormFloat64() * 0.9)
		if r.Float64() < 0.02 {
			weights[i] = 0 // an empty memory dir
		}
		total += weights[i]
	}
	if total == 0 {
		weights[0], total = 1, 1
	}
	type rem struct {
		i int
		f float64
	}
	rems := make([]rem, len(plans))
	assigned := 0
	for i, w := range weights {
		exact := float64(cfg.Files) * w / total
		plans[i].files = int(exact)
		assigned += plans[i].files
		rems[i] = rem{i, exact - float64(plans[i].files)}
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].f > rems[b].f })
	for k := 0; assigned < cfg.Files; k++ {
		plans[rems[k%len(rems)].i].files++
		assigned++
	}

	for _, p := range plans {
		for k := 0; k < 3 && len(plans) > 1; k++ {
			o := plans[r.IntN(len(plans))]
			if o != p {
				p.others = append(p.others, o.slug)
			}
		}
	}
	return plans
}

func projectPath(r *rand.Rand) string {
	stem := projectStems[r.IntN(len(projectStems))]
	suffix := projectSuffixes[r.IntN(len(projectSuffixes))]
	var name string
	switch x := r.Float64(); {
	case x < 0.65:
		name = stem + "-" + suffix
	case x < 0.85:
		name = stem
	case x < 0.93:
		name = stem + "_" + suffix
	default:
		name = stem + "." + suffix
	}
	switch x := r.Float64(); {
	case x < 0.85:
		return "/home/dev/" + name
	case x < 0.95:
		return "/home/dev/work/" + name
	default:
		return "/home/dev/src/" + name
	}
}

// writeProject generates one project and writes it to disk.
func writeProject(configDir string, cfg Config, p *projectPlan) (Stats, error) {
	pr := generateProject(cfg, p)
	var st Stats
	projDir := filepath.Join(configDir, "projects", p.slug)
	memDir := filepath.Join(projDir, "memory")
	if err := os.MkdirAll(memDir, 0o755); err != nil {
		return st, err
	}
	made := map[string]bool{memDir: true}
	for _, f := range pr.files {
		path := filepath.Join(memDir, filepath.FromSlash(f.rel))
		if d := filepath.Dir(path); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return st, err
			}
			made[d] = true
		}
		if err := writeFile(path, f.content, f.mtime); err != nil {
			return st, err
		}
		st.Bytes += int64(len(f.content))
		if f.index {
			st.Indexes++
			continue
		}
		st.Files++
		switch f.shape {
		case fmLegacy:
			st.Legacy++
		case fmCurrent:
			st.Current++
		case fmNone:
			st.None++
		}
		if f.invalidYAML {
			st.InvalidYAML++
		}
	}
	for _, t := range pr.transcripts {
		path := filepath.Join(projDir, t.rel)
		if err := writeFile(path, t.content, t.mtime); err != nil {
			return st, err
		}
		st.TranscriptFiles++
		st.TranscriptBytes += int64(len(t.content))
	}
	return st, nil
}

// writeFile writes content to path (whose directory exists) and sets its
// mtime.
func writeFile(path string, content []byte, mtime time.Time) error {
	if err := os.WriteFile(path, content, 0o644); err != nil {
		return err
	}
	return os.Chtimes(path, mtime, mtime)
}

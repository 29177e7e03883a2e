// Command gencorpus writes a synthetic Claude Code config tree for
// benchmarks and manual testing:
//
//	go run ./internal/corpus/cmd/gencorpus -out /tmp/corpus -projects 500 -files 20000 -seed 1
//
// Point memtui at it with --config-dir /tmp/corpus.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/memtui/memtui/internal/corpus"
)

func main() {
	out := flag.String("out", "", "config dir to write (required; created if missing)")
	projects := flag.Int("projects", 500, "number of projects")
	files := flag.Int("files", 20000, "number of topic files across all projects")
	seed := flag.Int64("seed", 1, "random seed; the same seed writes the same tree")
	now := flag.String("now", "", "RFC3339 \"today\" that dates count back from (default "+corpus.DefaultNow.Format(time.RFC3339)+")")
	transcripts := flag.Bool("transcripts", true, "write one small session transcript per project")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gencorpus: -out is required")
		flag.Usage()
		os.Exit(2)
	}
	cfg := corpus.Config{Projects: *projects, Files: *files, Seed: *seed, Transcripts: *transcripts}
	if *now != "" {
		t, err := time.Parse(time.RFC3339, *now)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gencorpus: -now:", err)
			os.Exit(2)
		}
		cfg.Now = t
	}
	start := time.Now()
	st, err := corpus.Generate(*out, cfg)
	elapsed := time.Since(start)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s in %.2fs\n", *out, elapsed.Seconds())
	fmt.Printf("projects:    %d\n", st.Projects)
	fmt.Printf("topic files: %d (%d legacy, %d metadata, %d without frontmatter, %d invalid YAML)\n",
		st.Files, st.Legacy, st.Current, st.None, st.InvalidYAML)
	fmt.Printf("indexes:     %d\n", st.Indexes)
	fmt.Printf("bytes:       %d (%.1f MB, %.2f KB per topic file)\n", st.Bytes, float64(st.Bytes)/1e6, float64(st.Bytes)/float64(max(st.Files, 1))/1024)
	if st.TranscriptFiles > 0 {
		fmt.Printf("transcripts: %d (%d bytes)\n", st.TranscriptFiles, st.TranscriptBytes)
	}
}

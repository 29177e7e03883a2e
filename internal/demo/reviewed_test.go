package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestReviewedIndexIsWhatTheRaceRead ties the demo's review to its
// transcripts: the MEMORY.md the user reviewed on the evening before the
// race is the text both racing sessions read the next morning, and the
// memory missing from the review is the one the race created. A sample
// whose story and review drift apart fails here.
func TestReviewedIndexIsWhatTheRaceRead(t *testing.T) {
	rs, err := Reviewed()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 {
		t.Fatalf("%d reviewed dirs, want ml-pipeline's alone", len(rs))
	}
	r := rs[0]
	const slug = "projects/-home-dev-ml-pipeline"
	if r.Dir != slug+"/memory" {
		t.Fatalf("reviewed %s", r.Dir)
	}
	reviewed, ok := r.Texts["MEMORY.md"]
	if !ok {
		t.Fatal("no reviewed MEMORY.md")
	}
	now, err := fs.ReadFile(FS(), slug+"/memory/MEMORY.md")
	if err != nil {
		t.Fatal(err)
	}
	if reviewed == string(now) {
		t.Fatal("the reviewed MEMORY.md is the one on disk: the race changed nothing")
	}
	for _, sess := range []string{"e7a9c1d3-3f4b-4c8e-a0d2-5b7f9c1e3a46", "f8b0d2e4-4a5c-4d9f-b1e3-6c8a0d2f4b57"} {
		read, at := indexRead(t, slug+"/"+sess+".jsonl")
		if read != reviewed {
			t.Errorf("session %s read a MEMORY.md other than the reviewed one:\n%s", sess[:8], read)
		}
		if !at.After(r.Time) {
			t.Errorf("session %s read the index at %s, before the review at %s", sess[:8], at, r.Time)
		}
	}
	if len(r.Absent) != 1 || r.Absent[0] != "project_eval_metrics.md" {
		t.Errorf("absent at the review: %v, want the memory e7a9c1d3 created", r.Absent)
	}
}

// lineNumber is the prefix the Read tool gives each line it returns.
var lineNumber = regexp.MustCompile(`(?m)^ *\d+\t`)

// indexRead is the MEMORY.md a session's first Read returned, its line
// numbers taken off, and when.
func indexRead(t *testing.T, name string) (string, time.Time) {
	t.Helper()
	data, err := fs.ReadFile(FS(), name)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]bool{} // tool_use ids of Reads of MEMORY.md
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Timestamp time.Time `json:"timestamp"`
			Message   struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			ToolUseID string          `json:"tool_use_id"`
			Input     json.RawMessage `json:"input"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(line.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			switch b.Type {
			case "tool_use":
				var in struct {
					FilePath string `json:"file_path"`
				}
				if b.Name == "Read" && json.Unmarshal(b.Input, &in) == nil && path.Base(in.FilePath) == "MEMORY.md" {
					calls[b.ID] = true
				}
			case "tool_result":
				if !calls[b.ToolUseID] {
					continue
				}
				var text string
				if json.Unmarshal(b.Content, &text) != nil {
					var parts []struct {
						Text string `json:"text"`
					}
					if json.Unmarshal(b.Content, &parts) != nil || len(parts) == 0 {
						t.Fatalf("%s: a Read result of an unknown shape", name)
					}
					text = parts[0].Text
				}
				return lineNumber.ReplaceAllString(text, ""), line.Timestamp
			}
		}
	}
	t.Fatalf("%s: no Read of MEMORY.md", name)
	return "", time.Time{}
}

// TestReviewedNamesSampleFiles: Reviewed refuses a review naming a file
// the sample lacks, so a renamed sample file cannot leave the demo's
// review silently recording nothing.
func TestReviewedNamesSampleFiles(t *testing.T) {
	saved := reviews
	t.Cleanup(func() { reviews = saved })
	reviews = []Review{{Dir: saved[0].Dir, Time: saved[0].Time, Absent: []string{"no_such_memory.md"}}}
	if _, err := Reviewed(); err == nil || !strings.Contains(err.Error(), "no_such_memory.md") {
		t.Fatalf("a review naming a missing file: err %v", err)
	}
}

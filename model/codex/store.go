package codex

import (
	"path"
	"sort"
	"strings"
)

// RolloutSummary is a rollout_summaries/<stem>.md file's header (facts
// §1.3.4): the thread it summarises and where that ran.
type RolloutSummary struct {
	ThreadID, UpdatedAt, RolloutPath, Cwd, GitBranch string
	// Title is the summary's "# " line.
	Title string
	// Missing are the header keys Codex always writes that the file lacks.
	Missing []string
}

// ParseRolloutSummary reads a rollout summary's header lines (up to the
// first blank line) and its title.
func ParseRolloutSummary(content []byte) RolloutSummary {
	var r RolloutSummary
	header := true
	for _, l := range splitLines(string(content)) {
		text := strings.TrimSuffix(l.text, "\r")
		if header {
			if strings.TrimSpace(text) == "" {
				header = false
				continue
			}
			k, v, ok := strings.Cut(text, ":")
			if !ok {
				header = false
			} else {
				v = strings.TrimSpace(v)
				switch strings.TrimSpace(k) {
				case "thread_id":
					r.ThreadID = v
				case "updated_at":
					r.UpdatedAt = v
				case "rollout_path":
					r.RolloutPath = v
				case "cwd":
					r.Cwd = v
				case "git_branch":
					r.GitBranch = v
				}
				continue
			}
		}
		if t, ok := strings.CutPrefix(text, "# "); ok && r.Title == "" {
			r.Title = strings.TrimSpace(t)
			break
		}
	}
	for k, v := range map[string]string{"thread_id": r.ThreadID, "updated_at": r.UpdatedAt, "rollout_path": r.RolloutPath, "cwd": r.Cwd} {
		if v == "" {
			r.Missing = append(r.Missing, k)
		}
	}
	sort.Strings(r.Missing)
	return r
}

// Links are the handbook's references checked against the store's files
// (the analogue of Claude Code's index and topic files, facts §9 item 4).
type Links struct {
	// Dangling are rollout summaries or resource files a task cites that
	// are not in the store; MissingSkills skill pointers that lead nowhere.
	Dangling, MissingSkills []Ref
	// Orphans are rollout summaries (named as Codex names them) no task
	// cites.
	Orphans []string
}

// CheckLinks checks h's references against the store's files (paths
// relative to memories/, slash-separated).
func CheckLinks(h Handbook, files map[string]bool) Links {
	var out Links
	cited := map[string]bool{}
	for _, g := range h.Groups {
		for _, t := range g.Tasks {
			for _, r := range t.Rollouts {
				p := path.Clean(r.Path)
				cited[p] = true
				if !files[p] {
					out.Dangling = append(out.Dangling, r)
				}
			}
		}
	}
	for _, s := range h.Skills {
		if !files[path.Clean(s.Path)] {
			out.MissingSkills = append(out.MissingSkills, s)
		}
	}
	for f := range files {
		// A file not named as Codex names them is not one of its summaries
		// (its next consolidation deletes it): no orphan.
		if strings.HasPrefix(f, RolloutDir) && IsRolloutSummaryName(strings.TrimPrefix(f, RolloutDir)) && !cited[f] {
			out.Orphans = append(out.Orphans, f)
		}
	}
	sort.Strings(out.Orphans)
	return out
}

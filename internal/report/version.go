package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/lipgloss/v2"
	goversion "github.com/hashicorp/go-version"

	"github.com/memtui/memtui/internal/paint"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

var (
	followedVersion = goversion.Must(goversion.NewVersion(claude.Version))
	comparedVersion = goversion.Must(goversion.NewVersion(claude.ComparedWith))
)

// VersionNotice is what the transcripts say about the Claude Code versions
// that ran, against the one memtui follows (claude.Version).
type VersionNotice struct {
	// Newer is the newest version any session ran, when it is newer than
	// the one memtui follows; "" otherwise.
	Newer string
	// Older are the projects whose newest session ran an older version,
	// oldest version first.
	Older []OlderProject
}

// OlderProject is a project whose newest session ran an older Claude Code.
type OlderProject struct {
	Project string // its name (real path or slug), as the transcripts hold it
	Version string
	// Compared is true at or before claude.ComparedWith: every
	// change of claude.Changes is missing there. Past it, which of
	// them the version has is not known.
	Compared bool
	v        *goversion.Version
}

// ClaudeCodeVersions reads the versions of the projects' sessions
// (model.Session.Version; unparsable ones are skipped). The newest session
// of a project, by its last timestamp, decides whether it runs an older
// Claude Code; any session of a newer one makes Newer.
func ClaudeCodeVersions(ps []*model.Project) VersionNotice {
	var n VersionNotice
	var newest *goversion.Version
	for _, p := range ps {
		if p == nil || p.Log == nil {
			continue
		}
		var last *goversion.Version
		var lastAt time.Time
		for _, s := range p.Log.Sessions {
			if s == nil || s.Version == "" {
				continue
			}
			v, err := parseVersion(s.Version)
			if err != nil {
				continue
			}
			if v.GreaterThan(followedVersion) && (newest == nil || v.GreaterThan(newest)) {
				newest = v
			}
			at := s.End
			if at.IsZero() {
				at = s.Start
			}
			if last == nil || at.After(lastAt) || at.Equal(lastAt) && v.GreaterThan(last) {
				last, lastAt = v, at
			}
		}
		if last != nil && last.LessThan(followedVersion) {
			n.Older = append(n.Older, OlderProject{Project: p.Name(), Version: last.Original(), Compared: !last.GreaterThan(comparedVersion), v: last})
		}
	}
	if newest != nil {
		n.Newer = newest.Original()
	}
	slices.SortStableFunc(n.Older, func(a, b OlderProject) int {
		if c := a.v.Compare(b.v); c != 0 {
			return c
		}
		return strings.Compare(a.Project, b.Project)
	})
	return n
}

// VersionJSON is the notice as lint --json's "claude_code": the version
// memtui follows, the one its changes were checked against, the newest
// version any session ran when it is newer than the followed one ("" when
// none), and the projects whose newest session ran an older one. It is
// there even when the transcripts show nothing (or were not read), so a
// script need not test for it; arrays are [], never null.
type VersionJSON struct {
	Followed     string      `json:"followed"`
	ComparedWith string      `json:"compared_with"`
	Newer        string      `json:"newer"`
	Older        []OlderJSON `json:"older"`
}

// OlderJSON is one project on an older Claude Code. Differs and MayDiffer
// hold IDs of claude.Changes (the ids of `memtui version --json`):
// at or before ComparedWith (Compared) every change is missing there, so
// all are in Differs; past it which ones the version has is not known, so
// all are in MayDiffer. Two lists rather than one with the flag, so a
// script that reads Differs alone never takes a guess for a fact.
type OlderJSON struct {
	Project   string   `json:"project"`
	Version   string   `json:"version"`
	Compared  bool     `json:"compared"`
	Differs   []string `json:"differs"`
	MayDiffer []string `json:"may_differ"`
}

// JSON is the notice for lint --json. Project names and versions come
// from transcripts, so they are masked as every other text field is (a
// version's pre-release part can hold any word).
func (n VersionNotice) JSON() VersionJSON {
	ids := make([]string, len(claude.Changes))
	for i, c := range claude.Changes {
		ids[i] = c.ID
	}
	out := VersionJSON{Followed: claude.Version, ComparedWith: claude.ComparedWith,
		Newer: safe.Mask(nil, n.Newer), Older: make([]OlderJSON, 0, len(n.Older))}
	for _, o := range n.Older {
		j := OlderJSON{Project: safe.Mask(nil, o.Project), Version: safe.Mask(nil, o.Version), Compared: o.Compared,
			Differs: []string{}, MayDiffer: []string{}}
		if o.Compared {
			j.Differs = ids
		} else {
			j.MayDiffer = ids
		}
		out.Older = append(out.Older, j)
	}
	return out
}

// mostOlderNamed bounds the projects the line names.
const mostOlderNamed = 3

// Line is the notice on one line for lint's summary: a newer Claude Code
// once, then the projects on an older one and what differs there. "" when
// the transcripts show neither. Every part is made safe for one line.
func (n VersionNotice) Line(home string) string {
	var parts []string
	if n.Newer != "" {
		parts = append(parts, fmt.Sprintf("sessions of %s ran, newer than the %s memtui follows: memory behaviour may have moved since",
			n.Newer, claude.Version))
	}
	var compared, between []OlderProject
	for _, o := range n.Older {
		if o.Compared {
			compared = append(compared, o)
		} else {
			between = append(between, o)
		}
	}
	if len(compared) > 0 {
		var before []string
		for _, c := range claude.Changes {
			before = append(before, c.Before)
		}
		parts = append(parts, fmt.Sprintf("%s last ran %s or older, where, unlike in %s, %s",
			olderNames(compared, home), claude.ComparedWith, claude.Version, andList(before)))
	}
	if len(between) > 0 {
		parts = append(parts, fmt.Sprintf("%s last ran a version between %s and %s, which may lack some of the %d changes memtui version lists",
			olderNames(between, home), claude.ComparedWith, claude.Version, len(claude.Changes)))
	}
	if len(parts) == 0 {
		return ""
	}
	return safe.ShowLine("claude code: " + strings.Join(parts, "; "))
}

// olderNames names up to mostOlderNamed projects with their versions.
func olderNames(ps []OlderProject, home string) string {
	var names []string
	for i, o := range ps {
		if i == mostOlderNamed {
			names = append(names, fmt.Sprintf("%d more %s", len(ps)-i, Plural(len(ps)-i, "project", "projects")))
			break
		}
		names = append(names, fmt.Sprintf("%s (%s)", Tilde(o.Project, home), o.Version))
	}
	return andList(names)
}

// andList joins "a", "a and b", "a, b and c".
func andList(ss []string) string {
	if len(ss) <= 1 {
		return strings.Join(ss, "")
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " and " + ss[len(ss)-1]
}

// Short is the notice for the TUI's title bar, "" when the transcripts
// show nothing to say; Compact is the same in fewer words, for a title bar
// with less room.
func (n VersionNotice) Short() string {
	var parts []string
	if n.Newer != "" {
		parts = append(parts, fmt.Sprintf("Claude Code %s is newer than %s", n.Newer, claude.Version))
	}
	if k := len(n.Older); k > 0 {
		differ := "some behaviours may differ"
		if n.Older[0].Compared {
			differ = fmt.Sprintf("%d behaviours differ", len(claude.Changes))
		}
		vs := n.Older[0].Version
		if last := n.Older[k-1].Version; last != vs {
			vs += " to " + last
		}
		parts = append(parts, fmt.Sprintf("%d %s on Claude Code %s: %s", k, Plural(k, "project", "projects"), vs, differ))
	}
	return safe.ShowLine(strings.Join(parts, " · "))
}

// Compact is Short in fewer words.
func (n VersionNotice) Compact() string {
	var parts []string
	if n.Newer != "" {
		parts = append(parts, fmt.Sprintf("Claude Code %s is newer", n.Newer))
	}
	if k := len(n.Older); k > 0 {
		parts = append(parts, fmt.Sprintf("older Claude Code in %d %s", k, Plural(k, "project", "projects")))
	}
	return safe.ShowLine(strings.Join(parts, " · "))
}

// Version writes the notice's line after a report's summary; nothing when
// it is "".
func Version(w io.Writer, n VersionNotice, st lipgloss.Style, home string) error {
	line := n.Line(home)
	if line == "" {
		return nil
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(paint.New(st).Paint(line) + "\n")
	return bw.Flush()
}

// parsed holds the versions parsed so far: a TUI recounts the notice each
// time a project's log arrives, over every session of every project, and
// the strings are a few dozen distinct ones (parsing is a regex match).
var (
	parsed  sync.Map // string -> *goversion.Version (nil: not a version)
	nParsed atomic.Int32
)

// remember keeps v for s, up to a bound: a hostile tree's distinct
// strings must not grow the memo without end.
func remember(s string, v *goversion.Version) {
	if len(s) <= 64 && nParsed.Add(1) <= 4096 {
		parsed.Store(s, v)
	}
}

// parseVersion is goversion.NewVersion, once per distinct string.
func parseVersion(s string) (*goversion.Version, error) {
	if v, ok := parsed.Load(s); ok {
		if v.(*goversion.Version) == nil {
			return nil, errNotVersion
		}
		return v.(*goversion.Version), nil
	}
	v, err := goversion.NewVersion(s)
	if err != nil {
		remember(s, nil)
		return nil, err
	}
	remember(s, v)
	return v, nil
}

var errNotVersion = errors.New("not a version")

// VersionRelation places a Claude Code version a session ran against the
// one memtui follows: "older", "followed", "newer", or "unparsable";
// lacks is true at or before claude.ComparedWith, where every change of
// claude.Changes is missing (the rule ClaudeCodeVersions applies).
func VersionRelation(s string) (relation string, lacks bool) {
	v, err := parseVersion(s)
	switch {
	case err != nil:
		return "unparsable", false
	case v.LessThan(followedVersion):
		return "older", !v.GreaterThan(comparedVersion)
	case v.GreaterThan(followedVersion):
		return "newer", false
	}
	return "followed", false
}

package codex

import (
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"time"
)

// base62 is the alphabet of a rollout summary's hash (facts §1.3.4).
const base62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// RolloutStem is the name Codex gives a thread's rollout summary file,
// without ".md" (facts §1.3.4): <YYYY-MM-DDTHH-MM-SS>-<hash4>[-<slug>].
// The time is the UUIDv7 thread id's, in UTC to the second (updated when
// the id carries none); the hash is the id's low 32 bits modulo 62⁴ in
// four base-62 digits; the slug is lowercased, every character that is
// not an ASCII letter or digit made "_", cut to 60 characters and its
// trailing "_" removed, and left out when empty.
func RolloutStem(threadID string, updated time.Time, slug string) (string, error) {
	raw, err := hex.DecodeString(strings.ReplaceAll(threadID, "-", ""))
	if err != nil || len(raw) != 16 {
		return "", errors.New("not a UUID: " + threadID)
	}
	at := updated
	if raw[6]>>4 == 7 { // version 7: the first 48 bits are Unix milliseconds
		var ms int64
		for _, b := range raw[:6] {
			ms = ms<<8 | int64(b)
		}
		at = time.UnixMilli(ms)
	}
	low := uint64(raw[12])<<24 | uint64(raw[13])<<16 | uint64(raw[14])<<8 | uint64(raw[15])
	v := low % (62 * 62 * 62 * 62)
	var h [4]byte
	for i := 3; i >= 0; i-- {
		h[i] = base62[v%62]
		v /= 62
	}
	stem := at.UTC().Format("2006-01-02T15-04-05") + "-" + string(h[:])
	if s := stemSlug(slug); s != "" {
		stem += "-" + s
	}
	return stem, nil
}

func stemSlug(slug string) string {
	b := []byte(strings.ToLower(slug))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) > 60 {
		b = b[:60]
	}
	return strings.TrimRight(string(b), "_")
}

// rolloutStem is the shape of a rollout summary's file name: anything
// else in rollout_summaries/ that ends in .md is deleted by Codex's next
// consolidation.
var rolloutStem = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9a-zA-Z]{4}(-[a-z0-9_]*[a-z0-9])?\.md$`)

// IsRolloutSummaryName reports whether name could be a rollout summary
// Codex wrote.
func IsRolloutSummaryName(name string) bool { return rolloutStem.MatchString(name) }

// noteName is the add_ad_hoc_note tool's file name rule (facts §1.3.6).
var noteName = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[a-z0-9][a-z0-9-]{0,79}\.md$`)

// ValidNoteName reports whether name is a note file name Codex's
// add_ad_hoc_note tool accepts: the pattern, at most 128 bytes, and a
// real date and time in it.
func ValidNoteName(name string) bool {
	if len(name) > 128 || !noteName.MatchString(name) {
		return false
	}
	_, err := time.Parse("2006-01-02T15-04-05", name[:19])
	return err == nil
}

// NoteName is the file name of a new ad-hoc note written at t about slug
// (made of [a-z0-9-], at most 80 bytes): the one channel through which a
// new fact reaches Codex's consolidation without being overwritten.
func NoteName(t time.Time, slug string) (string, error) {
	s := strings.Trim(strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, slug), "-")
	if len(s) > 80 {
		s = strings.TrimRight(s[:80], "-")
	}
	name := t.UTC().Format("2006-01-02T15-04-05") + "-" + s + ".md"
	if !ValidNoteName(name) {
		return "", errors.New("no note name can be made of " + slug)
	}
	return name, nil
}

package model

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"time"
)

// Decision is what a person decided about one proposal, kept in memtui's
// state so that quitting does not lose it: accepted (whole, or some of
// its blocks) or rejected. A rejected proposal stays dismissed while it is
// proposed again the same: its ID covers the files it changes (with their
// base hashes), Reads the files it only read.
type Decision struct {
	Accepted bool `json:"accepted"`
	// Keep is, per change, which of its blocks are kept (a proposal
	// accepted in part); nil when it is accepted or rejected whole.
	Keep [][]bool `json:"keep,omitempty"`
	// Reads fingerprints the files the proposal read without changing
	// them (ReadsPrint): the decision lapses when one of them changes.
	Reads string `json:"reads,omitempty"`
	// Kind and Title say what was decided, for a list of dismissed ones.
	Kind  ProposalKind `json:"kind"`
	Title string       `json:"title"`
	Time  time.Time    `json:"time"`
}

// ReadsPrint is a fingerprint of the files a proposal read without
// changing them ("" when none).
func ReadsPrint(p Proposal) string {
	if len(p.Reads) == 0 {
		return ""
	}
	rs := append([]FileRead(nil), p.Reads...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Path < rs[j].Path })
	h := sha256.New()
	for _, r := range rs {
		h.Write([]byte(r.Path + "\x00" + r.SHA256 + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Holds reports whether d still applies to p: the same reads.
func (d Decision) Holds(p Proposal) bool { return d.Reads == ReadsPrint(p) }

package memfs

// The two git objects the baseline reader decodes itself: a commit's
// headers and a tree's entries. go-git reads refs and objects from disk
// (through gitFS); decoding these here rather than with go-git's object
// package keeps that package's OpenPGP and elliptic-curve dependencies
// (for signed commits, which Codex never makes) out of memtui. Both
// formats are git's, and both parsers are bounded by the object's size,
// which gitFS caps.

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// gitSig is a commit's author or committer: "Name <email>" and when.
type gitSig struct {
	ident string
	when  time.Time
}

// gitCommit is what the baseline needs of a commit.
type gitCommit struct {
	tree              plumbing.Hash
	parents           []plumbing.Hash
	author, committer gitSig
	message           string
}

// parseCommit decodes a commit object's body: its header lines (a line
// starting with a space continues the one before, as a signature does)
// up to a blank line, then the message.
func parseCommit(raw []byte) (gitCommit, error) {
	var c gitCommit
	head, msg, _ := bytes.Cut(raw, []byte("\n\n"))
	c.message = string(msg)
	trees := 0
	for _, line := range strings.Split(string(head), "\n") {
		key, val, _ := strings.Cut(line, " ")
		switch key {
		case "tree":
			h, ok := parseHash(val)
			if !ok {
				return c, errors.New("a commit whose tree is not a hash")
			}
			c.tree = h
			trees++
		case "parent":
			h, ok := parseHash(val)
			if !ok {
				return c, errors.New("a commit whose parent is not a hash")
			}
			c.parents = append(c.parents, h)
		case "author":
			c.author = parseSig(val)
		case "committer":
			c.committer = parseSig(val)
		}
	}
	if trees != 1 {
		return c, errors.New("a commit with " + strconv.Itoa(trees) + " trees")
	}
	return c, nil
}

// parseHash reads 40 lowercase hex digits.
func parseHash(s string) (plumbing.Hash, bool) {
	if len(s) != 40 || strings.Trim(s, "0123456789abcdef") != "" {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(s), true
}

// parseSig reads "Name <email> <seconds> <+hhmm>"; a malformed time is
// the zero time, a malformed identity the text as it is.
func parseSig(s string) gitSig {
	open, end := strings.IndexByte(s, '<'), strings.LastIndexByte(s, '>')
	if open < 0 || end < open {
		return gitSig{ident: strings.TrimSpace(s)}
	}
	sig := gitSig{ident: strings.TrimSpace(s[:open]) + " <" + s[open+1:end] + ">"}
	f := strings.Fields(s[end+1:])
	if len(f) != 2 || len(f[1]) != 5 || (f[1][0] != '+' && f[1][0] != '-') {
		return sig
	}
	secs, err1 := strconv.ParseInt(f[0], 10, 64)
	hh, err2 := strconv.Atoi(f[1][1:3])
	mm, err3 := strconv.Atoi(f[1][3:])
	if err1 != nil || err2 != nil || err3 != nil {
		return sig
	}
	off := hh*3600 + mm*60
	if f[1][0] == '-' {
		off = -off
	}
	sig.when = time.Unix(secs, 0).In(time.FixedZone(f[1], off))
	return sig
}

// gitEntry is one entry of a tree.
type gitEntry struct {
	name string
	mode uint32
	hash plumbing.Hash
}

// modeDir is a tree entry's mode for a folder.
const modeDir = 0o40000

// parseTree decodes a tree object's body: entries of "<octal mode>
// <name>\x00<20-byte hash>", one after the other.
func parseTree(raw []byte) ([]gitEntry, error) {
	var out []gitEntry
	for len(raw) > 0 {
		sp := bytes.IndexByte(raw, ' ')
		if sp < 1 || sp > 7 {
			return nil, errors.New("a tree entry with no mode")
		}
		mode, err := strconv.ParseUint(string(raw[:sp]), 8, 32)
		if err != nil {
			return nil, errors.New("a tree entry whose mode is not octal")
		}
		raw = raw[sp+1:]
		nul := bytes.IndexByte(raw, 0)
		if nul < 0 || len(raw) < nul+1+20 {
			return nil, errors.New("a tree entry cut short")
		}
		var h plumbing.Hash
		copy(h[:], raw[nul+1:nul+21])
		out = append(out, gitEntry{name: string(raw[:nul]), mode: uint32(mode), hash: h})
		raw = raw[nul+21:]
	}
	return out, nil
}

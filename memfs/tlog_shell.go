package memfs

import (
	"path"
	"strings"
)

// shellWrites returns the memory files a Bash command may have written
// (§2: sed -i, redirections, tee, mv, rm, python ...). Content is never
// known, so it only has to be right about which files: a file counts when
// it is the target of a > or >> redirection, or is named in a simple
// command whose program writes (its arguments, or a heredoc script fed to
// it). Reading a memory file (cat, grep) is not a write. resolve maps a
// word to a memory path, or false.
func shellWrites(cmd string, resolve func(string) (string, bool)) []string {
	if !strings.Contains(cmd, ".md") {
		return nil
	}
	var out []string
	seen := make(map[string]bool)
	for _, seg := range shellSegments(cmd) {
		writes := writingProgram(seg)
		for _, tok := range mdTokens(seg) {
			if !writes && !tok.redirected {
				continue
			}
			if p, ok := resolve(tok.word); ok && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// shellSegments splits a command into simple commands at ; && || | and
// newlines. Everything after a heredoc start belongs to that command: the
// heredoc body is its script.
func shellSegments(cmd string) []string {
	var segs []string
	start := 0
	var quote byte
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '<' && strings.HasPrefix(cmd[i:], "<<"):
			return append(segs, cmd[start:])
		case c == ';' || c == '\n' || c == '|' || c == '&' && strings.HasPrefix(cmd[i:], "&&"):
			segs = append(segs, cmd[start:i])
			start = i + 1
		}
	}
	return append(segs, cmd[start:])
}

// writeVerbs are programs that change the files they are given.
var writeVerbs = map[string]bool{
	"tee": true, "mv": true, "rm": true, "cp": true, "truncate": true, "touch": true, "dd": true,
	"install": true, "ln": true, "rsync": true, "unlink": true, "ed": true, "ex": true,
	"python": true, "python3": true, "node": true, "ruby": true, "bash": true, "sh": true, "zsh": true,
}

// writingProgram reports whether the simple command writes its file
// arguments: a write verb, or sed/perl/gawk with an in-place flag.
func writingProgram(seg string) bool {
	words := strings.Fields(seg)
	i := 0
	for i < len(words) && (strings.Contains(words[i], "=") && !strings.HasPrefix(words[i], "-") ||
		words[i] == "sudo" || words[i] == "env" || words[i] == "command" || words[i] == "nohup" || words[i] == "time") {
		i++
	}
	if i == len(words) {
		return false
	}
	verb := path.Base(strings.Trim(words[i], `'"`))
	if writeVerbs[verb] || strings.HasPrefix(verb, "python") {
		return true
	}
	if verb != "sed" && verb != "gsed" && verb != "perl" && verb != "gawk" {
		return false
	}
	for _, w := range words[i+1:] {
		if w == "--in-place" || strings.HasPrefix(w, "--in-place=") || w == "inplace" ||
			strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "i") {
			return true
		}
	}
	return false
}

type mdToken struct {
	word       string
	redirected bool // the target of > or >>
}

// mdTokens finds the words ending in .md in a command, wherever they sit
// (arguments, redirections, a script's string literals).
func mdTokens(seg string) []mdToken {
	var out []mdToken
	for i := 0; ; {
		j := strings.Index(seg[i:], ".md")
		if j < 0 {
			return out
		}
		end := i + j + len(".md")
		i = end
		if end < len(seg) && !isWordEnd(seg[end]) {
			continue
		}
		start := end - len(".md")
		for start > 0 && !isWordEnd(seg[start-1]) {
			start--
		}
		word := seg[start:end]
		if word == ".md" || strings.ContainsAny(word, "*?[$") {
			continue // a glob or variable names no one file
		}
		k := start
		for k > 0 && seg[k-1] == ' ' {
			k--
		}
		out = append(out, mdToken{word: word, redirected: k > 0 && seg[k-1] == '>'})
	}
}

func isWordEnd(c byte) bool {
	return strings.IndexByte(" \t\n'\"`()<>|;&,=", c) >= 0
}

package transcript

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
	add := func(word string) {
		if p, ok := resolve(word); ok && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, seg := range shellSegments(cmd) {
		writes := writingProgram(seg)
		for _, tok := range mdTokens(seg) {
			if writes || tok.redirected {
				add(tok.word)
			}
		}
		for _, w := range copiedInto(seg) {
			add(w)
		}
	}
	return out
}

// copiedInto names the files an mv, cp or git mv puts into a directory
// (mv a.md b.md topics/, mv -t topics a.md): <dir>/<name> for each .md
// source. The destination is a directory when -t names it, or when it
// ends in a separator or its last component has no extension: a word
// such as notes.txt is taken for a file, and names nothing here.
func copiedInto(seg string) []string {
	verb, args := commandWords(seg)
	if verb == "git" {
		if gitSubcommand(args) != "mv" {
			return nil
		}
		for len(args) > 0 && args[0] != "mv" {
			args = args[1:]
		}
		verb, args = "mv", args[1:]
	}
	if verb != "mv" && verb != "cp" {
		return nil
	}
	ops, dir := mvOperands(args)
	if dir == "" {
		if len(ops) < 2 {
			return nil
		}
		dir, ops = ops[len(ops)-1], ops[:len(ops)-1]
		last := path.Base(toSlash(strings.TrimRight(dir, `/\`)))
		if !strings.HasSuffix(dir, "/") && !strings.HasSuffix(dir, `\`) && strings.Contains(last, ".") {
			return nil // a file (a.md, notes.txt): mdTokens has it if it is one
		}
	}
	var out []string
	for _, src := range ops {
		if strings.HasSuffix(src, ".md") && !strings.ContainsAny(src, "*?[$") {
			out = append(out, strings.TrimRight(dir, `/\`)+"/"+path.Base(toSlash(src)))
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
		case c == '&' && strings.HasPrefix(cmd[i:], "&&"):
			// Both characters go: a segment starting "& rm x.md" would
			// hide its program behind the second one.
			segs = append(segs, cmd[start:i])
			start = i + 2
			i++
		case c == ';' || c == '\n' || c == '|':
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
	if verb == "git" {
		// git rm and git mv remove or move the files they name.
		sub := gitSubcommand(words[i+1:])
		return sub == "rm" || sub == "mv"
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

// gitSubcommand is the subcommand of a git command line's words after
// "git", past git's own options (-C dir, -c k=v and the like).
func gitSubcommand(words []string) string {
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-C" || w == "-c" || w == "--git-dir" || w == "--work-tree":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			return w
		}
	}
	return ""
}

// ShellDeletes reports whether the Bash command cmd removes a file that one
// of its words names (names decides which words do): rm, unlink, git rm,
// or the source of an mv or git mv. A file a command writes but leaves in
// place (a redirection, sed -i, the target of mv or cp) is not deleted;
// neither is one a script might remove (python, a heredoc): only a
// command that plainly says so counts.
func ShellDeletes(cmd string, names func(word string) bool) bool {
	if !strings.Contains(cmd, ".md") {
		return false
	}
	for _, seg := range shellSegments(cmd) {
		if strings.Contains(seg, "<<") {
			return false // a heredoc's script, not a plain command
		}
		verb, args := commandWords(seg)
		if verb == "git" {
			if sub := gitSubcommand(args); sub == "rm" || sub == "mv" {
				verb = sub
				for len(args) > 0 && args[0] != sub {
					args = args[1:]
				}
				args = args[1:]
			}
		}
		var removed []string
		switch verb {
		case "rm", "unlink":
			removed = args
		case "mv":
			// Every operand but the last is moved away (mv -t DIR moves
			// them all).
			ops, dir := mvOperands(args)
			removed = ops
			if dir == "" && len(ops) > 0 {
				removed = ops[:len(ops)-1]
			}
		}
		for _, a := range removed {
			if strings.HasSuffix(a, ".md") && names(a) {
				return true
			}
		}
	}
	return false
}

// commandWords splits a simple command into its program's base name and
// its argument words (quotes trimmed), past variable assignments and
// wrappers such as sudo; redirections and their targets are left out.
func commandWords(seg string) (string, []string) {
	words := strings.Fields(seg)
	i := 0
	for i < len(words) && (strings.Contains(words[i], "=") && !strings.HasPrefix(words[i], "-") ||
		words[i] == "sudo" || words[i] == "env" || words[i] == "command" || words[i] == "nohup" || words[i] == "time") {
		i++
	}
	if i == len(words) {
		return "", nil
	}
	verb := path.Base(strings.Trim(words[i], `'"`))
	var args []string
	for j := i + 1; j < len(words); j++ {
		w := words[j]
		if strings.ContainsAny(w[:1], "<>") || strings.HasPrefix(w, "2>") || strings.HasPrefix(w, "&>") {
			if strings.TrimLeft(w, "0123456789&<>") == "" {
				j++ // the target is the next word
			}
			continue
		}
		args = append(args, strings.Trim(w, `'"`))
	}
	return verb, args
}

// mvOperands are mv's (or cp's) operands, options left out; dir is the
// directory -t (--target-directory) names, when it does: every operand
// then moves into it.
func mvOperands(args []string) (ops []string, dir string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(ops, args[i+1:]...), dir
		case a == "-t" || a == "--target-directory":
			if i+1 < len(args) {
				dir = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--target-directory="):
			dir = strings.TrimPrefix(a, "--target-directory=")
		case strings.HasPrefix(a, "-t") && len(a) > 2:
			dir = a[2:]
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	return ops, dir
}

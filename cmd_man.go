package main

import (
	"io"
	"strings"

	mcobra "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
)

// newManCmd prints memtui's man page (section 1, roff), built from the
// command tree so it lists every command and flag the binary has. fang
// offers one too, but hidden and written to the process's stdout whatever
// the command's writer; this one is listed and testable. The release
// archives carry its output as manpages/memtui.1.gz.
func newManCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "Print memtui's man page (roff: memtui man > memtui.1; man ./memtui.1)",
		Long: `Print memtui's man page in roff, the format man reads:

  memtui man > memtui.1 && man ./memtui.1

Release archives carry it as manpages/memtui.1.gz; to install it by hand,
put it in a man1 directory on your MANPATH, such as
/usr/local/share/man/man1.`,
		Args:                  cobra.NoArgs,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root := cmd.Root()
			page, err := mcobra.NewManPage(1, root)
			if err != nil {
				return err
			}
			page = page.WithLongDescription(reflow(root.Long)).
				WithSection("Exit status", "0 when all went well; 1 when the command ran but left something to act on: lint (or the bare command, piped) found something at error severity, index found an index cut off or not loaded, a proposal or an undo was not written, or a question was answered no; 2 on a usage or I/O error.").
				WithSection("See also", "memtui COMMAND --help says more of each command; the README of https://github.com/memtui/memtui says the rest.")
			_, err = io.WriteString(stdout, page.Build(roff.NewDocument()))
			return err
		},
	}
}

// reflow joins the lines of each paragraph of s (paragraphs end at a blank
// line) into one: the man page's builder makes every newline a new
// paragraph, which cut help text written for an 80-column terminal into
// one-line paragraphs. An indented line (an example command) stays a
// paragraph of its own.
func reflow(s string) string {
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.TrimSpace(l) == "":
			flush()
		case strings.HasPrefix(l, " "):
			flush()
			paras = append(paras, strings.TrimSpace(l))
		default:
			cur = append(cur, strings.TrimSpace(l))
		}
	}
	flush()
	return strings.Join(paras, "\n")
}

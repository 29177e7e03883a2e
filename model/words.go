package model

import "bytes"

// Plural picks the word for n of something: one when n is 1, else many.
// Every package's messages use this one (they had a copy each).
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// The recall cap (facts 3.3, 4.2): recall shows a memory's first 4,096
// UTF-8 bytes or 200 lines.
const (
	RecallMaxBytes = 4096
	RecallMaxLines = 200
)

// EOL is the line ending a file uses: CRLF when its first line ends so,
// else LF. What memtui writes into a file follows it.
func EOL(content []byte) string {
	if i := bytes.IndexByte(content, '\n'); i > 0 && content[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

package model

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

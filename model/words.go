package model

// Plural picks the word for n of something: one when n is 1, else many.
// Every package's messages use this one (they had a copy each).
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

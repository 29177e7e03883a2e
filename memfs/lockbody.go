package memfs

import "strings"

// ParseLockPID reads the PID in the body of Claude Code's
// .consolidate-lock the way Claude Code's parseInt(body.trim(), 10) does
// (facts §6.2): leading white space, an optional sign, digits; whatever
// follows is ignored, so "123\n…", "123abc", " 123 " and the storage-v5
// body "<pid>\n<ms>" are all 123. No digits is no PID. It lives here, by
// LockFileName, for memfs/txn, which takes the lock, and for
// memfs/snapshot, which records who held it: both must read it as Claude
// Code does (strconv.Atoi of the trimmed body would not).
func ParseLockPID(body string) (int, bool) {
	s := strings.TrimLeft(body, " \t\n\r\v\f")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n, digits := 0, 0
	for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		if n > (1<<31)/10 { // far beyond any PID: none
			return 0, false
		}
		n = n*10 + int(s[digits]-'0')
		digits++
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

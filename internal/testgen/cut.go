package testgen

import "strings"

// CutToken is a (fake) GitHub token for the tests of the helpers that
// shorten text for a message or an index: they must cut after masking, so
// that what is left of a cut token no longer looks like one.
const CutToken = "ghp_" + "Zq8Vt3Lm9Xw2Rb7Kc4Np6Hs1Jd5Fg0Ay3Ue8"

// CutLeads are where CutText puts the token: a cut at 60 characters falls
// after it, inside it and before it.
var CutLeads = []int{0, 10, 30, 45, 55}

// CutText is a long title with CutToken lead characters in.
func CutText(lead int) string {
	return strings.Repeat("x", lead) + " " + CutToken + " and the rest of a long title"
}

// TokenShown reports the first piece of token, n bytes long, that out
// shows; "" when none.
func TokenShown(out, token string, n int) string {
	for i := 0; i+n <= len(token); i++ {
		if frag := token[i : i+n]; strings.Contains(out, frag) {
			return frag
		}
	}
	return ""
}

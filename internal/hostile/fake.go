package hostile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A fake GitHub token and a fake (multi-line) RSA private key, fixed
// rather than derived like a Tree's, for tests that build their own tree
// by hand (the root and ui inject tests). No output may show any
// fragment of either: FakeLeaks.
const (
	FakeToken = "ghp_" + "Zq8Vt3Lm9Xw2Rb7Kc4Np6Hs1Jd5Fg0Ay3Ue8"
	FakePEM   = "-----BEGIN RSA PRIVATE KEY-----\n" +
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n" +
		"VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n" +
		"LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo\n" +
		"9z+40RQzuVaE8AkAFmxZzow3x+VJYKdjykkJ0iT9wCS0DRTXu269V264Vf/3jvre\n" +
		"-----END RSA PRIVATE KEY-----\n"
)

// PwnCwd is a project's working directory, as a transcript records it,
// holding a title escape and an open bidi override; PwnSlug is the
// directory Claude Code names after it (every character but [a-zA-Z0-9]
// becomes "-").
const (
	PwnCwd  = "/work/pwn" + OSC0Short + RLO
	PwnSlug = "-work-pwn--0-owned--"
)

// fakeFragments are the pieces of FakeToken and FakePEM no output may
// hold: the token and a part of it, and of each line of the key's body
// the whole line, its head and its tail (a line cut short at either end,
// as a narrow cell or a wrapped line cuts it, is still a leak).
func fakeFragments() []string {
	s := []string{FakeToken, FakeToken[4:24]}
	for _, l := range strings.Split(FakePEM, "\n") {
		if len(l) > 40 && !strings.HasPrefix(l, "-----") {
			s = append(s, l, l[:24], l[40:])
		}
	}
	return s
}

// FakeLeaks lists the fragments of FakeToken and FakePEM that out shows,
// once memtui's own SGR styling is removed (a colour code must not hide
// a fragment from the check).
func FakeLeaks(out string) []string {
	out = sgr.ReplaceAllString(out, "")
	var probs []string
	for _, f := range fakeFragments() {
		if strings.Contains(out, f) {
			probs = append(probs, fmt.Sprintf("the secret fragment %q", f))
		}
	}
	return probs
}

// PwnTranscript writes, in config dir cfg, the transcript of a session
// of the PwnCwd project that wrote content to path at about at: its
// branch holds a clipboard escape and FakeToken, its prompt and title
// a title escape (the title FakeToken too, behind the long OSC0, so a
// message that shortens the title to 60 characters cuts inside the token:
// masking must come before the cut).
func PwnTranscript(cfg, path, content string, at time.Time) error {
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	ts := func(ms int) string {
		return at.UTC().Add(time.Duration(ms) * time.Millisecond).Format("2006-01-02T15:04:05.000Z")
	}
	session := "5f0c2a9e-1b7d-4c3e-9a8f-2d6b4e8c1a07"
	common := `"userType":"external","entrypoint":"cli","cwd":` + js(PwnCwd) + `,"sessionId":"` + session +
		`","version":"2.1.226","gitBranch":` + js("feature/"+OSC52+FakeToken)
	var b strings.Builder
	fmt.Fprintf(&b, `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":%s},"uuid":"a1a1a1a1-0000-4000-8000-000000000001","timestamp":%q,%s}`+"\n",
		js("remember "+OSC0Short), ts(0), common)
	fmt.Fprintf(&b, `{"parentUuid":"a1a1a1a1-0000-4000-8000-000000000001","isSidechain":false,"message":{"model":"claude-opus-4-8","id":"msg_01x","type":"message","role":"assistant","content":[{"type":"tool_use","id":"toolu_01abc","name":"Write","input":{"file_path":%s,"content":%s}}],"stop_reason":"tool_use"},"type":"assistant","uuid":"a1a1a1a1-0000-4000-8000-000000000002","timestamp":%q,%s}`+"\n",
		js(path), js(content), ts(100), common)
	fmt.Fprintf(&b, `{"parentUuid":"a1a1a1a1-0000-4000-8000-000000000002","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01abc","type":"tool_result","content":%s}]},"uuid":"a1a1a1a1-0000-4000-8000-000000000003","timestamp":%q,"toolUseResult":{"type":"create","filePath":%s,"content":%s},%s}`+"\n",
		js("File created successfully at: "+path), ts(200), js(path), js(content), common)
	fmt.Fprintf(&b, `{"type":"summary","summary":%s,"leafUuid":"a1a1a1a1-0000-4000-8000-000000000003"}`+"\n", js("Title "+OSC0+FakeToken))
	dir := filepath.Join(cfg, "projects", PwnSlug)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, session+".jsonl"), []byte(b.String()), 0o644)
}

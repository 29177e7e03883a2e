package transcript

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// genTree writes a realistic transcript tree of about mb megabytes under
// <config>/projects/<slug>/ (transcripts §1.1): main session files of
// log-normal sizes, some with subagent files, a compaction agent file that
// must be skipped, and a mix of lines shaped like Claude Code's (§1.3, §6):
// prose, thinking, Bash and Read results of source files, Edit results with
// a whole originalFile (some over a megabyte), base64 images, bookkeeping
// lines, and a small fraction of memory writes, reads and recalls. The
// text comes from this repository's own sources, so the bytes the prefilter
// scans look like a real coding session's (including prose that mentions
// memory dirs).
type genTree struct {
	config, slug, tdir, memdir string
	files                      []string // the transcripts the reader reads (not compaction agents)
	bytes                      int64    // their size
	// What Read must find (compaction agents' copies excluded).
	writes, reads, recalls int
}

type generator struct {
	r      *rand.Rand
	code   string // source text to slice from
	prose  string
	cwd    string
	memdir string
	ts     time.Time
	sess   string
	agent  string
	seq    int
	tree   *genTree
}

// corpusText concatenates the repository's .go and .md files (found from
// the package dir, two levels down), or falls back to generated text when
// run elsewhere.
func corpusText() (code, prose string) {
	var c, p strings.Builder
	filepath.WalkDir(filepath.Join("..", ".."), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go":
			if b, err := os.ReadFile(path); err == nil {
				c.Write(b)
			}
		case ".md":
			if b, err := os.ReadFile(path); err == nil {
				p.Write(b)
			}
		}
		return nil
	})
	if c.Len() < 1<<16 {
		for i := 0; c.Len() < 1<<20; i++ {
			fmt.Fprintf(&c, "func f%d(x int) int {\n\treturn x * %d // step %d\n}\n\n", i, i, i)
		}
	}
	if p.Len() < 1<<16 {
		for i := 0; p.Len() < 1<<20; i++ {
			fmt.Fprintf(&p, "The session looked at step %d of the plan and wrote a note about it. ", i)
		}
	}
	return c.String(), p.String()
}

// The generated project. Its slug must not occur in the text the lines are
// cut from: this repository's tests use -home-dev-acme-api, and a slug
// quoted throughout the code would make every line a candidate.
const (
	genCwd  = "/home/dev/orbit-svc"
	genSlug = "-home-dev-orbit-svc"
)

// genTranscriptTree writes the tree into config. It is deterministic for a
// given seed and size.
func genTranscriptTree(config string, mb int, seed uint64) (*genTree, error) {
	t := &genTree{config: config, slug: genSlug, tdir: filepath.Join(config, "projects", genSlug)}
	t.memdir = filepath.Join(t.tdir, "memory")
	if err := os.MkdirAll(t.memdir, 0o755); err != nil {
		return nil, err
	}
	code, prose := corpusText()
	g := &generator{r: rand.New(rand.NewPCG(seed, 7)), code: code, prose: prose, cwd: genCwd, memdir: t.memdir,
		ts: time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC), tree: t}
	target := int64(mb) << 20
	for t.bytes < target {
		// Log-normal session sizes: median ~4 MB, a few of 100 MB and more.
		size := int64(math.Exp(g.r.NormFloat64()*1.3+math.Log(4<<20))) + 64<<10
		if size > target-t.bytes+64<<10 {
			size = target - t.bytes + 64<<10
		}
		g.sess = g.uuid()
		g.agent = ""
		main := filepath.Join(t.tdir, g.sess+".jsonl")
		if err := g.file(main, size*9/10, true); err != nil {
			return nil, err
		}
		// A third of the sessions ran subagents; one in ten compacted.
		if g.r.IntN(3) == 0 {
			for range 1 + g.r.IntN(3) {
				g.agent = fmt.Sprintf("a%016x", g.r.Uint64())
				p := filepath.Join(t.tdir, g.sess, "subagents", "agent-"+g.agent+".jsonl")
				if err := g.file(p, size/30+4<<10, false); err != nil {
					return nil, err
				}
			}
		}
		if g.r.IntN(10) == 0 {
			g.agent = fmt.Sprintf("acompact-%016x", g.r.Uint64())
			p := filepath.Join(t.tdir, g.sess, "subagents", "agent-"+g.agent+".jsonl")
			if err := g.file(p, size/20+4<<10, false); err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

func (g *generator) uuid() string {
	a, b := g.r.Uint64(), g.r.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, a>>16&0xffff, a&0xfff, b>>48&0x3fff|0x8000, b&0xffffffffffff)
}

func (g *generator) toolID() string {
	const alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	var b [24]byte
	for i := range b {
		b[i] = alpha[g.r.IntN(len(alpha))]
	}
	return "toolu_01" + string(b[:])
}

func (g *generator) slice(src string, min, max int) string {
	n := min + g.r.IntN(max-min+1)
	if n >= len(src) {
		return src
	}
	i := g.r.IntN(len(src) - n)
	return src[i : i+n]
}

// js is s as a JSON string the way JSON.stringify writes it (no HTML
// escaping of <, >, &).
func js(s string) string { return jsonOf(s) }

// env is the message-line envelope tail (transcripts §1.3).
func (g *generator) env() string {
	g.ts = g.ts.Add(time.Duration(200+g.r.IntN(5000)) * time.Millisecond)
	agent, side := "", "false"
	if g.agent != "" {
		agent, side = `"agentId":"`+g.agent+`",`, "true"
	}
	return fmt.Sprintf(`"isSidechain":%s,%s"uuid":"%s","timestamp":"%s","userType":"external","entrypoint":"cli","cwd":%s,"sessionId":"%s","version":"2.1.226","gitBranch":"main"}`,
		side, agent, g.uuid(), g.ts.Format("2006-01-02T15:04:05.000Z"), js(g.cwd), g.sess)
}

func (g *generator) assistant(content string) string {
	return `{"parentUuid":"` + g.uuid() + `","message":{"model":"claude-opus-4-8","id":"msg_01` + g.toolID()[8:] +
		`","type":"message","role":"assistant","content":[` + content + `],"stop_reason":"tool_use","usage":{"input_tokens":2,"output_tokens":61}},"requestId":"req_011C","type":"assistant",` + g.env()
}

func (g *generator) user(content, result string) string {
	s := `{"parentUuid":"` + g.uuid() + `","promptId":"` + g.uuid() + `","type":"user","message":{"role":"user","content":` + content + `}`
	if result != "" {
		s += `,"toolUseResult":` + result
	}
	return s + "," + g.env()
}

func (g *generator) toolUse(id, name, input string) string {
	return g.assistant(`{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `,"caller":{"type":"direct"}}`)
}

func (g *generator) toolResult(id, text string, isErr bool, result string) string {
	e := ""
	if isErr {
		e = `,"is_error":true`
	}
	return g.user(`[{"tool_use_id":"`+id+`","type":"tool_result","content":`+js(text)+e+`}]`, result)
}

func numbered(s string) string {
	var b strings.Builder
	for i, l := range strings.Split(s, "\n") {
		fmt.Fprintf(&b, "%d\t%s\n", i+1, l)
	}
	return b.String()
}

// lines returns the next few lines of a session (one event: a prompt, a
// tool call and its result, ...).
func (g *generator) lines() []string {
	srcPath := g.cwd + "/internal/" + fmt.Sprintf("pkg%d/file%d.go", g.r.IntN(20), g.r.IntN(50))
	switch k := g.r.IntN(1000); {
	case k < 100:
		return []string{g.user(js(g.slice(g.prose, 50, 600)), "")}
	case k < 300:
		return []string{g.assistant(`{"type":"text","text":` + js(g.slice(g.prose, 300, 6000)) + `}`)}
	case k < 380:
		return []string{g.assistant(`{"type":"thinking","thinking":` + js(g.slice(g.prose, 500, 4000)) + `,"signature":"` + base64.StdEncoding.EncodeToString([]byte(g.slice(g.code, 200, 400))) + `"}`)}
	case k < 530:
		id, out := g.toolID(), g.slice(g.code, 100, 20000)
		return []string{g.toolUse(id, "Bash", `{"command":"go test ./... 2>&1 | tail -50","description":"Run tests"}`),
			g.toolResult(id, out, false, `{"stdout":`+js(out)+`,"stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`)}
	case k < 650:
		id, src := g.toolID(), g.slice(g.code, 2000, 40000)
		return []string{g.toolUse(id, "Read", `{"file_path":`+js(srcPath)+`}`),
			g.toolResult(id, numbered(src), false, `{"type":"text","file":{"filePath":`+js(srcPath)+`,"content":`+js(src)+`,"numLines":100,"startLine":1,"totalLines":100}}`)}
	case k < 710:
		id := g.toolID()
		orig := g.slice(g.code, 5000, 100000)
		if g.r.IntN(60) == 0 {
			orig = g.slice(g.code, 1<<20, 1<<20+len(g.code)/2) // the MB-long Edit lines of §5.1
		}
		old := g.slice(orig, 20, 200)
		in := `{"file_path":` + js(srcPath) + `,"old_string":` + js(old) + `,"new_string":` + js(old+"\n// edited") + `,"replace_all":false}`
		return []string{g.toolUse(id, "Edit", in),
			g.toolResult(id, "The file "+srcPath+" has been updated successfully.", false,
				`{"filePath":`+js(srcPath)+`,"oldString":`+js(old)+`,"newString":`+js(old+"\n// edited")+`,"originalFile":`+js(orig)+
					`,"structuredPatch":[{"oldStart":1,"oldLines":3,"newStart":1,"newLines":4,"lines":[" a","+b"]}],"userModified":false,"replaceAll":false}`)}
	case k < 715:
		id, img := g.toolID(), make([]byte, 100<<10+g.r.IntN(600<<10))
		for i := range img {
			img[i] = byte(g.r.Uint32())
		}
		b64 := base64.StdEncoding.EncodeToString(img)
		return []string{g.toolUse(id, "Read", `{"file_path":"/home/dev/orbit-svc/screenshot.png"}`),
			g.user(`[{"tool_use_id":"`+id+`","type":"tool_result","content":[{"type":"image","source":{"type":"base64","data":"`+b64+`","media_type":"image/png"}}]}]`,
				`{"type":"image","file":{"base64":"`+b64+`","type":"image/png","originalSize":1}}`)}
	case k < 780:
		return []string{`{"parentUuid":"` + g.uuid() + `","attachment":{"type":"hook_additional_context","content":` + js(g.slice(g.prose, 50, 800)) + `},"type":"attachment",` + g.env()}
	case k < 880:
		switch g.r.IntN(4) {
		case 0:
			return []string{fmt.Sprintf(`{"type":"queue-operation","operation":"enqueue","timestamp":"%s","sessionId":"%s","content":%s}`, g.ts.Format(time.RFC3339Nano), g.sess, js(g.slice(g.prose, 20, 200)))}
		case 1:
			return []string{fmt.Sprintf(`{"type":"last-prompt","lastPrompt":%s,"sessionId":"%s","leafUuid":"%s"}`, js(g.slice(g.prose, 20, 200)), g.sess, g.uuid())}
		case 2:
			return []string{fmt.Sprintf(`{"type":"file-history-snapshot","messageId":"%s","snapshot":{"messageId":"%s","trackedFileBackups":{%s:{"backupFileName":"abc@v2","version":2,"backupTime":"%s"}},"timestamp":"%s"},"isSnapshotUpdate":true}`,
				g.uuid(), g.uuid(), js(srcPath), g.ts.Format(time.RFC3339Nano), g.ts.Format(time.RFC3339Nano))}
		default:
			return []string{`{"type":"permission-mode","permissionMode":"default","sessionId":"` + g.sess + `"}`}
		}
	case k < 990:
		return []string{`{"parentUuid":"` + g.uuid() + `","type":"system","subtype":"turn_duration","durationMs":12345,"isMeta":false,` + g.env()}
	default:
		return g.memoryLines()
	}
}

// memoryLines is one memory event: a write, an edit, a read, a recall or a
// fork's memory_saved (transcripts §6).
func (g *generator) memoryLines() []string {
	count := func(n *int) {
		if !strings.HasPrefix(g.agent, "acompact-") {
			*n++
		}
	}
	name := fmt.Sprintf("topic_%d.md", g.r.IntN(40))
	p := filepath.Join(g.memdir, name)
	body := "---\nname: " + name + "\ndescription: a note\n---\n\n" + g.slice(g.prose, 100, 1500)
	id := g.toolID()
	switch g.r.IntN(5) {
	case 0:
		count(&g.tree.writes)
		return []string{g.toolUse(id, "Write", `{"file_path":`+js(p)+`,"content":`+js(body)+`}`),
			g.toolResult(id, "File created successfully at: "+p, false, `{"type":"create","filePath":`+js(p)+`,"content":`+js(body)+`,"structuredPatch":[],"originalFile":null}`)}
	case 1:
		count(&g.tree.writes)
		idx := filepath.Join(g.memdir, "MEMORY.md")
		line := "- [" + name + "](" + name + ") — a note"
		return []string{g.toolUse(id, "Edit", `{"file_path":`+js(idx)+`,"old_string":"# Memory\n","new_string":`+js("# Memory\n"+line+"\n")+`}`),
			g.toolResult(id, "The file "+idx+" has been updated successfully.", false,
				`{"filePath":`+js(idx)+`,"oldString":"# Memory\n","newString":`+js("# Memory\n"+line+"\n")+`,"originalFile":"# Memory\n","structuredPatch":[],"userModified":false,"replaceAll":false}`)}
	case 2:
		count(&g.tree.reads)
		return []string{g.toolUse(id, "Read", `{"file_path":`+js(p)+`}`),
			g.toolResult(id, numbered(body), false, `{"type":"text","file":{"filePath":`+js(p)+`,"content":`+js(body)+`,"numLines":9,"startLine":1,"totalLines":9}}`)}
	case 3:
		count(&g.tree.recalls)
		return []string{`{"parentUuid":"` + g.uuid() + `","attachment":{"type":"relevant_memories","memories":[{"path":` + js(p) + `,"content":` + js(body) + `,"mtimeMs":1785748449552.4}]},"type":"attachment",` + g.env()}
	default:
		count(&g.tree.writes)
		return []string{`{"parentUuid":"` + g.uuid() + `","type":"system","subtype":"memory_saved","writtenPaths":[` + js(p) + `],` + g.env()}
	}
}

// file writes one transcript of about size bytes.
func (g *generator) file(path string, size int64, main bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	put := func(s string) {
		w.WriteString(s)
		w.WriteByte('\n')
		n += int64(len(s)) + 1
	}
	if main {
		put(`{"type":"permission-mode","permissionMode":"default","sessionId":"` + g.sess + `"}`)
	}
	put(g.user(js(g.slice(g.prose, 50, 400)), ""))
	for n < size {
		for _, l := range g.lines() {
			put(l)
		}
		if main && g.r.IntN(400) == 0 {
			put(`{"type":"ai-title","aiTitle":` + js(g.slice(g.prose, 10, 40)) + `,"sessionId":"` + g.sess + `"}`)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if !strings.HasPrefix(g.agent, "acompact-") { // the reader skips these
		g.tree.files = append(g.tree.files, path)
		g.tree.bytes += n
	}
	return f.Close()
}

// genDenseTree writes a write-dense transcript tree of about mb megabytes:
// sessions of log-normal sizes (median sessKB kilobytes) in which every event is a Write of unique
// content to one of 40 memory files (with the successful result Claude
// Code records: the content again and the file it replaced), now and then
// an Edit of MEMORY.md, a Read or a recall of a memory. It is the worst
// case for what the reader keeps: every line is a memory event, and no
// two texts are the same.
func genDenseTree(config string, mb, sessKB int, seed uint64) (*genTree, error) {
	t := &genTree{config: config, slug: genSlug, tdir: filepath.Join(config, "projects", genSlug)}
	t.memdir = filepath.Join(t.tdir, "memory")
	if err := os.MkdirAll(t.memdir, 0o755); err != nil {
		return nil, err
	}
	_, prose := corpusText()
	g := &generator{r: rand.New(rand.NewPCG(seed, 11)), prose: prose, cwd: genCwd, memdir: t.memdir,
		ts: time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC), tree: t}
	last := map[string]string{} // each file's content as the last write left it
	target := int64(mb) << 20
	for t.bytes < target {
		size := int64(math.Exp(g.r.NormFloat64()*1.0+math.Log(float64(sessKB)*1024))) + 64<<10
		size = min(size, target-t.bytes+64<<10)
		g.sess, g.agent = g.uuid(), ""
		path := filepath.Join(t.tdir, g.sess+".jsonl")
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		w := bufio.NewWriterSize(f, 1<<20)
		var n int64
		put := func(s string) {
			w.WriteString(s)
			w.WriteByte('\n')
			n += int64(len(s)) + 1
		}
		put(g.user(js(g.slice(g.prose, 50, 400)), ""))
		for n < size {
			g.seq++
			name := fmt.Sprintf("topic_%d.md", g.r.IntN(40))
			p := filepath.Join(t.memdir, name)
			id := g.toolID()
			switch k := g.r.IntN(20); {
			case k == 0:
				t.reads++
				body := last[p]
				put(g.toolUse(id, "Read", `{"file_path":`+js(p)+`}`))
				put(g.toolResult(id, numbered(body), false, `{"type":"text","file":{"filePath":`+js(p)+`,"content":`+js(body)+`,"numLines":9,"startLine":1,"totalLines":9}}`))
			case k == 1:
				t.recalls++
				put(`{"parentUuid":"` + g.uuid() + `","attachment":{"type":"relevant_memories","memories":[{"path":` + js(p) + `,"content":` + js(last[p]) + `,"mtimeMs":1785748449552.4}]},"type":"attachment",` + g.env())
			case k == 2:
				t.writes++
				idx := filepath.Join(t.memdir, "MEMORY.md")
				line := fmt.Sprintf("- [%s](%s) — note %d", name, name, g.seq)
				put(g.toolUse(id, "Edit", `{"file_path":`+js(idx)+`,"old_string":"# Memory\n","new_string":`+js("# Memory\n"+line+"\n")+`}`))
				put(g.toolResult(id, "The file "+idx+" has been updated successfully.", false,
					`{"filePath":`+js(idx)+`,"oldString":"# Memory\n","newString":`+js("# Memory\n"+line+"\n")+`,"originalFile":`+js(last[idx])+`,"structuredPatch":[],"userModified":false,"replaceAll":false}`))
				last[idx] = strings.Replace(last[idx], "# Memory\n", "# Memory\n"+line+"\n", 1)
				if !strings.HasPrefix(last[idx], "# Memory\n") {
					last[idx] = "# Memory\n" + line + "\n"
				}
			default:
				t.writes++
				body := fmt.Sprintf("---\nname: %s\ndescription: note %d\n---\n\nNote %d of session %s.\n%s\n", name, g.seq, g.seq, g.sess, g.slice(g.prose, 200, 3000))
				orig, typ := "null", "create"
				if old, ok := last[p]; ok {
					orig, typ = js(old), "update"
				}
				put(g.toolUse(id, "Write", `{"file_path":`+js(p)+`,"content":`+js(body)+`}`))
				put(g.toolResult(id, "File created successfully at: "+p, false, `{"type":"`+typ+`","filePath":`+js(p)+`,"content":`+js(body)+`,"structuredPatch":[],"originalFile":`+orig+`}`))
				last[p] = body
			}
		}
		if err := w.Flush(); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		t.files = append(t.files, path)
		t.bytes += n
	}
	return t, nil
}

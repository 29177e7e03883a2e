package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/internal/report"
	"github.com/memtui/memtui/internal/safe"
	"github.com/memtui/memtui/keymap"
	"github.com/memtui/memtui/model"
	"github.com/memtui/memtui/model/claude"
)

// previewPane shows one memory: a header drawn from its frontmatter and
// findings, then its body, rendered by glamour (or its source, numbered).
// The body arrives from a render Cmd; until then the header stands alone.
type previewPane struct {
	c       *shared
	vp      viewport.Model
	header  string
	body    string
	pending bool
	// key is the rendering being shown or awaited; gotoLine, when set, is
	// the file line to scroll to once a source rendering arrives.
	key      renderKey
	gotoLine int
	// mark is the file line a jump went to, drawn highlighted while the
	// same file's source shows (markHash is its content's hash).
	mark     int
	markHash uint64
	headerH  int
	width    int
	focused  bool
	empty    string
}

func newPreviewPane(c *shared) *previewPane {
	vp := viewport.New()
	vp.SoftWrap = false
	vp.MouseWheelEnabled = false // the root routes the wheel
	return &previewPane{c: c, vp: vp, empty: "Select a memory to read it."}
}

// show sets what the pane displays. body is "" while a render is pending.
func (p *previewPane) show(header, body string, key renderKey, pending bool) {
	samePlace := key == p.key
	p.header, p.body, p.key, p.pending = header, body, key, pending
	off := p.vp.YOffset()
	p.refresh()
	if samePlace {
		p.vp.SetYOffset(off)
	} else {
		p.vp.GotoTop()
	}
}

// clear empties the pane with a message.
func (p *previewPane) clear(msg string) {
	p.header, p.body, p.key, p.pending, p.empty = "", "", renderKey{}, false, msg
	p.refresh()
}

// rendered fills in the body when the awaited rendering arrives.
func (p *previewPane) rendered(key renderKey, out string) bool {
	if key != p.key {
		return false // stale: the selection or width moved on
	}
	p.body, p.pending = out, false
	off := p.vp.YOffset()
	p.refresh()
	p.vp.SetYOffset(off)
	if p.gotoLine > 0 && key.source {
		// Source lines are one per row until one wraps; find the row
		// whose number is the line, and mark it.
		p.mark, p.markHash = p.gotoLine, key.hash
		p.gotoLine = 0
		p.refresh()
		if i := p.sourceRow(p.vp.GetContent(), p.mark); i >= 0 {
			p.vp.SetYOffset(max(i-3, 0))
		}
	}
	return true
}

// sourceRow is the content row numbered n in a source rendering; -1 for
// none.
func (p *previewPane) sourceRow(content string, n int) int {
	want := itoa(n)
	for i, ln := range strings.Split(content, "\n") {
		if i >= p.headerH && strings.TrimSpace(firstField(ln)) == want {
			return i
		}
	}
	return -1
}

func firstField(s string) string {
	s = ansi.Strip(s)
	s = strings.TrimLeft(s, " ")
	if i := strings.IndexAny(s, " ✗▲•"); i >= 0 {
		return s[:i]
	}
	return s
}

func (p *previewPane) refresh() {
	var content string
	switch {
	case p.header == "" && p.body == "":
		// Wrapped, never clipped at the border: a project's summary and
		// the notes about its transcripts are sentences, paths included.
		content = p.c.st.Faint.Render(ansi.Wrap(p.empty, max(p.width-2, 1), " /"))
	case p.pending:
		content = p.header + "\n" + p.c.st.Faint.Render("Rendering…")
	default:
		content = p.header + "\n" + p.body
	}
	p.headerH = strings.Count(p.header, "\n") + 1
	if p.mark > 0 && p.key.source && p.key.hash == p.markHash && !p.pending {
		// The jump's line, highlighted as a selection is: its text plain,
		// so the highlight reads whatever the line's own colours.
		if i := p.sourceRow(content, p.mark); i >= 0 {
			rows := strings.Split(content, "\n")
			plain := ansi.Strip(rows[i])
			rows[i] = p.c.st.Selected.Render(plain + strings.Repeat(" ", max(p.width-ansi.StringWidth(plain), 0)))
			content = strings.Join(rows, "\n")
		}
	}
	p.vp.SetContent(content)
}

func (p *previewPane) SetSize(w, h int) {
	resized := w != p.width
	p.width = w
	p.vp.SetWidth(w)
	p.vp.SetHeight(h)
	if resized && p.header == "" && p.body == "" {
		p.refresh() // the message wraps to the new width
	}
}

func (p *previewPane) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		scrollKeys(&p.vp, p.c, k)
	}
	return nil
}

// scrollKeys scrolls a viewport for the movement keys; it reports whether
// the key was one of them.
func scrollKeys(vp *viewport.Model, c *shared, k tea.KeyPressMsg) bool {
	keys := c.keys.Move
	switch {
	case key.Matches(k, keys.Up):
		vp.ScrollUp(1)
	case key.Matches(k, keys.Down):
		vp.ScrollDown(1)
	case key.Matches(k, keys.PageUp):
		vp.PageUp()
	case key.Matches(k, keys.PageDown):
		vp.PageDown()
	case key.Matches(k, keys.Top):
		vp.GotoTop()
	case key.Matches(k, keys.Bottom):
		vp.GotoBottom()
	default:
		return false
	}
	return true
}

// scroll moves the text by n lines (the wheel, J and K from other panes).
func (p *previewPane) scroll(n int) {
	if n < 0 {
		p.vp.ScrollUp(-n)
	} else {
		p.vp.ScrollDown(n)
	}
}

func (p *previewPane) View() string {
	return fit(p.vp.View(), p.vp.Width(), p.vp.Height())
}

func (p *previewPane) scope() keymap.Scope { return keymap.ScopeBrowse }

func (p *previewPane) ShortHelp() []key.Binding {
	k := p.c.keys
	return []key.Binding{k.Move.Up, k.Move.Down, k.Preview.Source, k.Browse.Edit}
}

// memoryHeader draws a memory's frontmatter as a tidy table, then its
// findings, then a rule: the top of the preview.
func memoryHeader(c *shared, dd *dirData, f *model.File, width int) string {
	st := c.st
	doc := dd.docs[f.Path]
	fm := doc.FM
	var lines []string
	// kv draws a value that came from the file or a transcript: masked and
	// made safe here; kvStyled one whose read parts are made safe already.
	var kvStyled func(k, v string)
	kv := func(k, v string) {
		if v != "" {
			kvStyled(k, safe.ShowLine(v))
		}
	}
	kvStyled = func(k, v string) {
		if v == "" {
			return
		}
		label := st.FMKey.Render(padRight(k, 12))
		if k == "" {
			label = strings.Repeat(" ", 12)
		}
		for i, ln := range strings.Split(ansi.Wrap(v, max(width-12, 10), " "), "\n") {
			if i > 0 {
				label = strings.Repeat(" ", 12)
			}
			lines = append(lines, label+st.FMValue.Render(ln))
		}
	}
	title := safe.ShowLine(memName(f.Path, doc))
	lines = append(lines, st.Title.Render(ansi.Truncate(title, width, "…")))
	kv("name", orDash(fm.Name, fm.HasName))
	kv("description", orDash(fm.Description, fm.HasDesc))
	typ := safe.ShowLine(fm.Type)
	if fm.TypeKey != "" {
		typ += st.Faint.Render(" (" + safe.ShowLine(fm.TypeKey) + ")")
	} else {
		typ = st.Faint.Render("none")
	}
	kvStyled("type", typ)
	switch {
	case !fm.ModifiedTime.IsZero():
		kvStyled("modified", fm.ModifiedTime.Local().Format("2006-01-02 15:04")+st.Faint.Render(" (metadata.modified · "+ago(c.now, fm.ModifiedTime)+")"))
	default:
		kvStyled("modified", f.ModTime.Local().Format("2006-01-02 15:04")+st.Faint.Render(" (file mtime · "+ago(c.now, f.ModTime)+")"))
	}
	size := " · " + claude.FormatFileSize(int(f.Size))
	kvStyled("file", truncLeft(safe.ShowLine(report.Tilde(dd.d.Path, c.home)+"/"+f.Path), max(width-12-len(size), 10))+st.Faint.Render(size))
	if doc.Status != model.FMOK && doc.Status != model.FMNone {
		sev, status := model.Warning, doc.Status.String()
		if doc.ClaudeSeesNone {
			// memtui reads the fields above; Claude Code reads none.
			sev, status = model.Error, "unreadable to Claude Code"
		}
		kvStyled("frontmatter", st.Sev[sev].Render(status)+" "+safe.ShowLine(doc.Problem))
	}
	if line := itemLine(fm.Item); line != "" {
		lines = append(lines, st.Faint.Render(ansi.Truncate(line, max(width, 1), "…")))
	}
	if note := scanNote(dd, f); note != "" {
		kvStyled("recall", st.Faint.Render(scanMark(f)+" "+safe.ShowLine(note)))
	}
	if f.Link != "" {
		kvStyled("link", st.Faint.Render("read through the symlink "+safe.ShowLine(f.Link)+", as Claude Code's scan does; memtui never writes through it"))
	}
	if written, cwd, origin := provenanceLines(c, dd, f.Path, fm.OriginSessionID); len(written) > 0 {
		for i, w := range written {
			if i == 0 {
				kv("written by", w)
			} else {
				kv("", w)
			}
		}
		kv("from", cwd)
		kv("origin", origin)
		kv("used", heatSummary(c, dd, f.Path))
	}
	lines = append(lines, findingLines(c, dd.byFile[f.Path], width)...)
	lines = append(lines, st.Faint.Render(strings.Repeat("─", max(width, 1))))
	return strings.Join(lines, "\n")
}

// itemLine folds Claude Code's metadata.claudeCodeItem (its record of the
// memory: ids, consent, state, promotions; recall strips it) to one line,
// so that it reads as bookkeeping, not as noise. The source view (v)
// shows it whole. "" when the file has none.
func itemLine(it model.ClaudeCodeItem) string {
	if !it.Present {
		return ""
	}
	line := "claudeCodeItem: " + safe.ShowLine(it.Summary()) + " (folded)"
	if !it.Valid() {
		line = "claudeCodeItem: " + safe.ShowLine(it.Summary()) + " (folded; ignored by Claude Code, as its schema rejects it: " + safe.ShowLine(it.Problem) + ")"
	}
	return line
}

// findingLines lists findings under a header, wrapped to width.
func findingLines(c *shared, fs []model.Finding, width int) []string {
	if len(fs) == 0 {
		return nil
	}
	st := c.st
	var lines []string
	for _, f := range fs {
		loc := ""
		if f.Line > 0 {
			loc = "L" + itoa(f.Line) + " "
		}
		text := loc + safe.ShowLine(f.Message) + " [" + safe.Line(f.Rule) + "]"
		wrapped := strings.Split(ansi.Wrap(text, max(width-2, 10), " "), "\n")
		for i, w := range wrapped {
			lead := st.Sev[f.Severity].Render(sevSymbol(f.Severity)) + " "
			if i > 0 {
				lead = "  "
			}
			lines = append(lines, lead+w)
		}
	}
	return lines
}

func orDash(v string, present bool) string {
	if !present {
		return "—"
	}
	if strings.TrimSpace(v) == "" {
		return "(empty)"
	}
	return v
}

func padRight(s string, w int) string {
	return s + strings.Repeat(" ", max(w-lipgloss.Width(s), 0))
}

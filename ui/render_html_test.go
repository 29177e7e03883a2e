package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/memtui/memtui/consolidate/secrets"
	"github.com/memtui/memtui/internal/hostile"
	"github.com/memtui/memtui/model/claude"
	"github.com/memtui/memtui/themes"
)

// renderBody renders content as the preview does, at width 80, without
// colour, and strips what styling is left.
func renderBody(t *testing.T, content string) string {
	t.Helper()
	return renderIn(t, content, themes.For(true, true))
}

func renderIn(t *testing.T, content string, th themes.Theme) string {
	t.Helper()
	c := []byte(content)
	out, err := render(renderInput{key: renderKey{width: 80, theme: th.Name}, content: c, doc: claude.ParseDoc(c),
		theme: th, scanner: secrets.Default(), st: themes.NewStyles(th)})
	if err != nil {
		t.Fatal(err)
	}
	return ansi.Strip(out)
}

// TestRenderShowsRawHTMLAsText: tags in a memory's text (inline, a block
// of its own, an HTML comment) are shown as the agent reads them, not
// dropped as HTML; "a < b" stays; code, links and secret masking are as
// before.
func TestRenderShowsRawHTMLAsText(t *testing.T) {
	body := "---\nname: tags\ndescription: d\ntype: feedback\n---\n\n" +
		"Answer in a <list> or a <tree>, never prose.\n\n" +
		"<system-reminder>\nKeep **this** in mind.\n</system-reminder>\n\n" +
		"Since a < b and c > d, <!-- a note --> holds.\n\n" +
		"Inline `x <span>` code, a [link](https://example.com/docs) and <https://example.org/auto>.\n\n" +
		"```html\n<div class=\"a\">x</div>\n```\n\n" +
		"Token " + hostile.FakeToken + " <b>bold?</b>\n"
	out := renderBody(t, body)
	for _, want := range []string{
		"Answer in a <list> or a <tree>, never prose.",
		"<system-reminder>", "</system-reminder>", "Keep **this** in mind.", // the no-colour style marks bold with **
		"Since a < b and c > d, <!-- a note --> holds.",
		"x <span>",
		`<div class="a">x</div>`,
		"https://example.com/docs",
		"<https://example.org/auto>",
		"<b>bold?</b>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendered preview lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `\<`) || strings.ContainsRune(out, markLT) {
		t.Errorf("an escape or a stand-in shows:\n%s", out)
	}
	if leaks := hostile.FakeLeaks(out); len(leaks) > 0 {
		t.Errorf("the secret leaks: %v\n%s", leaks, out)
	}
	// In colour too, the fenced code highlighted as HTML.
	dark := renderIn(t, body, themes.For(true, false))
	for _, want := range []string{"Answer in a <list> or a <tree>, never prose.", "<system-reminder>", `<div class="a">x</div>`} {
		if !strings.Contains(dark, want) {
			t.Errorf("rendered in colour, the preview lacks %q:\n%s", want, dark)
		}
	}
}

// TestRenderFileStandInIsNoTag: a file's own stand-in runes are dropped,
// so none turns into a '<' or a highlight.
func TestRenderFileStandInIsNoTag(t *testing.T) {
	out := renderBody(t, "plain \uE003b\uE003 text and \uE000here\uE002\n")
	if !strings.Contains(out, "plain b text and here") {
		t.Errorf("got:\n%s", out)
	}
}

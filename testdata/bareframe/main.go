// Command bareframe is the smallest Bubble Tea program that draws a frame
// in the alternate screen: the floor under any Bubble Tea app's first
// frame (the Go runtime, the terminal libraries' tables, the terminal's
// setup). BenchmarkBareFirstFrame measures it beside memtui's.
package main

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
)

type model struct{}

func (model) Init() tea.Cmd                         { return nil }
func (m model) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (model) View() tea.View {
	v := tea.NewView("Projects (0)")
	v.AltScreen = true
	return v
}

func main() {
	if _, err := tea.NewProgram(model{}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

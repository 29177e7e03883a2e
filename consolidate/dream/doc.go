// Package dream is memtui's Dream: the proposals that fix what the checks
// find. ProposeDir checks one directory with consolidate, gathers it, and hands it to one proposer per kind, in the
// order of model.ProposalKinds (dream.go lists them; they live in the
// propose_*.go files). Every proposal is a self-contained transaction over
// one directory, with base hashes, that Apply replays in memory; the
// backstops in dream.go keep any proposal from rewriting opaque files,
// claudeCodeItem blocks or secrets. The external proposer protocol
// (external.go: ProposerInput, CheckExternal) and partial acceptance
// (partial.go: Partial, which re-validates what a person kept of a
// proposal) belong here too, as both re-check proposals with the same
// rules the proposers follow. A Codex store has its own entry points
// (codex*.go: ProposeCodex, CodexNote, PartialCodex, PlanCodexTrim), with
// the same kinds where the meaning is the same and Codex's own rules of
// what an editor may write (codex facts §4.4). It is its own package because proposing is
// a step after checking: it imports consolidate (findings, rules, the
// index view) and consolidate/forensics (the lost updates it restores),
// and neither imports it. It may also import model and its sub-packages
// and the consolidate/ leaves (diff, secrets, similar). Pure and
// sequential: no disk, no Bubble Tea, no goroutines; a run over a whole
// scan, on the one pool, is app's (app.Workspace.Propose), as is the TUI's
// per directory.
package dream

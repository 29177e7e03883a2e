// Package claude is Claude Code's reading of its memory files, as memtui
// reproduces it: the frontmatter parser (ParseDoc: the 30-line, 64 KiB
// head, strict YAML, Claude Code's one requoting retry, and memtui's
// tolerant reading beside it; metadata.claudeCodeItem and its spans), the
// MEMORY.md load pipeline (SimulateLoad, SimulateLoadMode, LoadIndex: size
// check, BOM and frontmatter strip, HTML comment stripping, trim, the
// 200-line and 25,000-unit cuts, the truncation warning, the sanitiser)
// and what the memory scan reads of a file (ScanFields). It follows the
// Claude Code release named in Version; Changes lists what differs from
// the older one it was compared with.
//
// Fidelity is the product: the comment stripping runs a port of the block
// lexer of marked 17, the markdown library Claude Code strips comments with,
// and its tests compare it, document by document, with the real marked
// (TestSimulateLoadMatchesMarked, with MEMTUI_MARKED_DIR set); lines and
// sizes are counted as JavaScript counts them (UTF-16 units, its
// whitespace, its decoding of invalid bytes).
//
// The shared types it fills (model.Doc, model.Frontmatter, model.File,
// model.IndexTail) and the caps other packages state as facts
// (model.IndexMaxLines and the rest) stay in model; Load, the loader's
// result, lives here with the pipeline that sets its private fields. It is
// its own package because it is one agent's reading: another agent's
// reading of its own files gets a package beside it, and model stays the
// types they share. Pure: no disk.
package claude

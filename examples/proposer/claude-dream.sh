#!/usr/bin/env bash
# An external proposer for `memtui dream --proposer`: it puts Claude Code
# (any agent CLI that can print JSON would do) behind memtui's protocol.
#
#   memtui dream --proposer examples/proposer/claude-dream.sh
#
# memtui writes one memory directory to stdin as JSON:
#   {"version":1,"project":...,"memory_dir":...,"now":...,
#    "index":{"path":"MEMORY.md","sha256":...,"content":...} or null,
#    "files":[{"path","sha256","modified","content"}...],
#    "findings":[lint findings], "kinds":[the proposal kinds memtui accepts]}
# Secrets in the contents are already replaced with [REDACTED].
#
# The script must print {"version":1,"proposals":[...]} on stdout, each
# proposal {"kind","title","rationale","changes":[{"path","op","base_sha256",
# "after"}]} with op create/update/delete, base_sha256 the sha256 given for
# the file it changes ("" for a create), after the file's whole new content;
# or op move with "from" (the file moved, whose sha256 base_sha256 is) and
# "path" its new place, after empty (an archive moves files to .archive/).
#
# The agent never writes anything: it only answers. memtui checks every
# proposal (paths inside the directory, hashes, frontmatter, an index that
# loads whole), shows it as a diff, and only a person's review applies it.
set -euo pipefail

command -v claude >/dev/null || { echo "claude-dream.sh: the claude CLI is not installed" >&2; exit 1; }
command -v jq >/dev/null || { echo "claude-dream.sh: jq is not installed" >&2; exit 1; }

input=$(cat)

prompt=$(cat <<'PROMPT'
# Dream: memory consolidation, as proposals

You consolidate a Claude Code memory directory. You cannot write files:
you answer with proposals that a person reviews as diffs.

The directory follows, as JSON: MEMORY.md (the index loaded into every
session, cut at 200 lines or 25,000 UTF-16 units), the topic files (YAML
frontmatter: name, description, metadata.type: user, feedback, project or
reference) and memtui's findings about them.

Work in four phases, as Claude Code's own Dream does:
1. Orient: read the index and the topic files; note what the findings say.
2. Gather: note memories that contradict each other, duplicate each other,
   or drifted (relative dates, facts superseded by newer files).
3. Consolidate: merge near-duplicates into the older file (keep its
   metadata.originSessionId; lose no fact), convert relative dates to
   absolute ones counted from the file's modified date, delete facts that a
   newer memory contradicts.
4. Prune and index: keep MEMORY.md under 140 lines and 17,500 characters,
   one line per entry under ~150 characters: "- [Title](file.md) — hook".
   Remove pointers to deleted files, add pointers to orphans.

Answer with JSON only, no prose, in exactly this shape:
{"version":1,"proposals":[{"kind":"merge|prune|archive|reindex|absolutize-dates|add-year|fix-frontmatter",
  "title":"one line","rationale":"why, naming the findings fixed",
  "changes":[{"path":"file.md","op":"create|update|delete|move",
              "from":"for move only: the file moved to path",
              "base_sha256":"the sha256 given for that file (for move, of from), or empty for create",
              "after":"the whole new file content (empty for delete and move)"}]}]}
Each proposal is one transaction: group the changes that belong together
(a merge updates the kept file, deletes the others and updates MEMORY.md).
Keep files in their current frontmatter shape and line endings. Propose
nothing when nothing needs doing: {"version":1,"proposals":[]}.
PROMPT
)

# -p prints one answer; --output-format json wraps it, .result is the text.
answer=$(printf '%s\n\n%s\n' "$prompt" "$input" | claude -p --output-format json | jq -r '.result')
# The model may fence its JSON in ``` lines: drop them.
printf '%s\n' "$answer" | sed '/^```/d' | jq -c '{version: 1, proposals: (.proposals // [])}'

#!/bin/sh
# Writes the shell completion scripts the release archives carry
# (completions/memtui.{bash,zsh,fish,ps1}) by running memtui built from
# this checkout: the scripts are cobra's, and ask the installed binary
# for the words at each TAB, so they never go stale. GoReleaser runs this
# as a before hook (.goreleaser.yaml); completions/ is .gitignored.
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/memtui" .
rm -rf completions
mkdir completions
for sh in bash zsh fish; do
	"$bin/memtui" completion "$sh" >"completions/memtui.$sh"
done
"$bin/memtui" completion powershell >completions/memtui.ps1

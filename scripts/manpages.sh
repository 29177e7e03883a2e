#!/bin/sh
# Writes the man page the release archives carry (manpages/memtui.1.gz) by
# running memtui built from this checkout, so it lists the commands and
# flags the release has. GoReleaser runs this as a before hook
# (.goreleaser.yaml); manpages/ is .gitignored.
set -eu
cd "$(dirname "$0")/.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/memtui" .
rm -rf manpages
mkdir manpages
# -n: no name or time stamp in the gzip header.
"$bin/memtui" man | gzip -n -9 >manpages/memtui.1.gz

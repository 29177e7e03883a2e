#!/usr/bin/env bash
# The full check of the release configuration: GoReleaser itself (pinned,
# from the module proxy), its defaults and deprecations included. Slow the
# first time (it builds goreleaser: 10-20 minutes on two cores); .ci/run
# runs the quicker schema check of scripts/releasecheck instead.
set -euo pipefail
cd "$(dirname "$0")/.."
go run github.com/goreleaser/goreleaser/v2@v2.16.0 check

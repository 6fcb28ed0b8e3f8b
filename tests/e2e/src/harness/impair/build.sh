#!/bin/sh
# Builds the impairment program (main.go: delay, jitter and Gilbert–Elliott loss on an NFQUEUE) into bin/impair
# (gitignored). Go from PATH or /usr/local/go/bin; the standard library only, so nothing is downloaded.
set -eu
cd "$(dirname "$0")"
GO="${GO:-$(command -v go || echo /usr/local/go/bin/go)}"
mkdir -p bin
tmp="bin/.impair.$$"
"$GO" build -o "$tmp" .
mv -f "$tmp" bin/impair

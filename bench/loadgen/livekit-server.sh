#!/bin/sh
# Builds LiveKit server v1.13.5 (the load bench's reference peer) from the Go module proxy into
# bench/loadgen/bin/livekit-server (gitignored), once: its module is downloaded, copied out of the read-only
# module cache and its ./cmd/server built there. Takes minutes on a fresh machine.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
cd "$dir"
VERSION=v1.13.5
GO="${GO:-$(command -v go || echo /usr/local/go/bin/go)}"
out="bin/livekit-server-$VERSION"
[ -x "$out" ] && exit 0
mkdir -p bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$(cd "$work" && "$GO" mod download -json "github.com/livekit/livekit-server@$VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
cp -r "$src" "$work/src"
chmod -R u+w "$work/src"
(cd "$work/src" && nice -n 10 "$GO" build -o "$dir/$out.tmp.$$" ./cmd/server)
mv -f "$out.tmp.$$" "$out"

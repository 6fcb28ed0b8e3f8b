#!/bin/sh
# Builds the native media worker (worker/README.md) into worker/target/release/conclave-media-worker with cargo
# (crates from crates.io, versions as Cargo.lock has them; str0m's OpenSSL backend links the system libssl, so
# libssl-dev and pkg-config must be installed). Cargo from PATH or ~/.cargo/bin.
set -eu
cd "$(dirname "$0")"
CARGO="${CARGO:-$(command -v cargo || echo "$HOME/.cargo/bin/cargo")}"
nice -n 10 "$CARGO" build --release --locked --quiet

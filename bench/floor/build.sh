#!/bin/sh
# Builds the load lab's floor forwarder (bench/README.md "Load: cost per forwarded packet") into
# bench/floor/target/release/floor with cargo (crates from crates.io, versions as Cargo.lock has them; the first
# build fetches and compiles ring, ~20 CPU-seconds). Cargo from PATH or ~/.cargo/bin.
set -eu
cd "$(dirname "$0")"
CARGO="${CARGO:-$(command -v cargo || echo "$HOME/.cargo/bin/cargo")}"
nice -n 10 "$CARGO" build --release --locked --quiet

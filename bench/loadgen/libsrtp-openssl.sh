#!/bin/sh
# Builds libsrtp2 with OpenSSL's crypto into bench/loadgen/bin/libsrtp-openssl/ (gitignored), once, and prints
# that folder. Debian's libsrtp2 (which its janus package links) does its ciphers through NSS, and NSS sets up
# a fresh context for every packet: ~8k instructions per SRTP packet, more than half of what Janus spends on
# a forwarded packet (bench/README.md "Janus: where a forwarded packet's instructions go"). The same source
# (Debian's source package of the installed version, fetched with apt through a private source list, so the
# system's apt configuration is left as it is) configured with --enable-openssl instead of --enable-nss gives a
# drop-in libsrtp2.so.1 for CONCLAVE_JANUS_LIBRARY_PATH. Needs gcc, make and libssl-dev; ~10 CPU-seconds.
set -eu
dir=$(cd "$(dirname "$0")" && pwd)
out="$dir/bin/libsrtp-openssl"
if [ -s "$out/libsrtp2.so.1" ]; then echo "$out"; exit 0; fi
version=$(dpkg-query -W -f '${source:Version}' libsrtp2-1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/parts" "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
cat > "$work/parts/src.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $(. /etc/os-release && echo "$VERSION_CODENAME")
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
apt="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$work/parts -o Dir::State::Lists=$work/lists -o Dir::Cache=$work/cache"
# shellcheck disable=SC2086
apt-get -q $apt update >&2
# shellcheck disable=SC2086
(cd "$work/src" && apt-get -q $apt source "libsrtp2=$version" >&2)
cd "$work/src"/libsrtp2-*/
# Debian's build (debian/rules) with OpenSSL in place of NSS (its other options are not in this version's configure).
nice -n 10 ./configure --enable-openssl --disable-pcap CFLAGS="-O2 -D_REENTRANT" >&2
nice -n 10 make shared_library >&2
mkdir -p "$out"
cp libsrtp2.so.1 "$out/libsrtp2.so.1.tmp.$$"
mv -f "$out/libsrtp2.so.1.tmp.$$" "$out/libsrtp2.so.1"
echo "$out"

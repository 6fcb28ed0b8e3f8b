#!/bin/sh
# Builds the load generator into bench/loadgen/bin/ and makes its pre-encoded media (once) into
# bench/loadgen/media-cache/ (both gitignored). Go from PATH or /usr/local/go/bin; the first build downloads
# the modules go.sum lists from the Go module proxy. Usage: build.sh [livekit]
set -eu
cd "$(dirname "$0")"
GO="${GO:-$(command -v go || echo /usr/local/go/bin/go)}"
mkdir -p bin media-cache
tmp="bin/.loadgen.$$"
nice -n 10 "$GO" build -o "$tmp" ./cmd/loadgen
mv -f "$tmp" bin/loadgen
if [ "${1:-}" = livekit ]; then
  (cd livekit; nice -n 10 "$GO" build -o "../bin/.loadgen-livekit.$$" .)
  mv -f "bin/.loadgen-livekit.$$" bin/loadgen-livekit
fi
# 10 s clips: H264 constrained baseline, one slice per frame, a key frame every 2 s (as WebRTC encoders
# send them rarely; a PLI gets the next one), ~800 kbit/s 360p30 and ~150 kbit/s 180p15 (the small stream);
# Opus 48 kbit/s in 20 ms packets, one per Ogg page. Noise, so that no two payloads are alike.
encode() { # name, ffmpeg arguments…
  out="media-cache/$1"; shift
  [ -s "$out" ] && return 0
  nice -n 10 ffmpeg -nostdin -loglevel error -y "$@" "$out.tmp.$$" 
  mv -f "$out.tmp.$$" "$out"
}
encode video-360p30.h264 -f lavfi -i "testsrc2=size=640x360:rate=30,noise=alls=12:allf=t" -t 10 -c:v libx264 \
  -profile:v baseline -pix_fmt yuv420p -preset veryfast -tune zerolatency -b:v 800k -maxrate 900k -bufsize 300k \
  -x264-params keyint=60:min-keyint=60:scenecut=0:slices=1 -f h264
encode video-180p15.h264 -f lavfi -i "testsrc2=size=320x180:rate=15,noise=alls=12:allf=t" -t 10 -c:v libx264 \
  -profile:v baseline -pix_fmt yuv420p -preset veryfast -tune zerolatency -b:v 150k -maxrate 180k -bufsize 60k \
  -x264-params keyint=30:min-keyint=30:scenecut=0:slices=1 -f h264
encode audio.opus.ogg -f lavfi -i "anoisesrc=color=pink:amplitude=0.3:sample_rate=48000" -t 10 -c:a libopus -b:a 48k \
  -frame_duration 20 -application voip -page_duration 20000 -f ogg

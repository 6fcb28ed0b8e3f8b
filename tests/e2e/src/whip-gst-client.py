#!/usr/bin/python3
"""A non-browser WHIP publisher: GStreamer's webrtcbin (Debian's gstreamer1.0-plugins-bad) and the RFC's HTTP exchange.

argv: <whip url> <bearer token>. Sends a live test pattern (H264, video m-line first as GStreamer orders it) and a
440 Hz tone (opus). POSTs its offer once ICE gathering is complete (no trickle), applies the 201's answer.
stdout, one JSON object a line: {"event": "answered", "status", "location"} or {"event": "refused", "status",
"body"} (then exit 3), {"event": "ice" | "connection", "state"}, {"event": "error", "message"} (exit 1). Runs until stdin closes.
"""
import json
import os
import sys
import threading
import urllib.error
import urllib.request

import gi

gi.require_version('Gst', '1.0')
gi.require_version('GstWebRTC', '1.0')
gi.require_version('GstSdp', '1.0')
from gi.repository import GLib, Gst, GstSdp, GstWebRTC  # noqa: E402

PIPELINE = (
    'webrtcbin name=w bundle-policy=max-bundle '
    'videotestsrc is-live=true pattern=ball ! video/x-raw,width=320,height=240,framerate=15/1 ! videoconvert ! '
    'x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 bitrate=300 ! video/x-h264,profile=constrained-baseline ! '
    'rtph264pay config-interval=-1 pt=96 ! application/x-rtp,media=video,encoding-name=H264,payload=96,clock-rate=90000 ! w. '
    'audiotestsrc is-live=true wave=sine freq=440 ! audioconvert ! audioresample ! opusenc ! rtpopuspay pt=111 ! '
    'application/x-rtp,media=audio,encoding-name=OPUS,payload=111,clock-rate=48000 ! w. '
)


def say(obj):
    sys.stdout.write(json.dumps(obj) + '\n')
    sys.stdout.flush()


def main():
    url, token = sys.argv[1], sys.argv[2]
    Gst.init(None)
    loop = GLib.MainLoop()
    pipeline = Gst.parse_launch(PIPELINE)
    webrtc = pipeline.get_by_name('w')

    def fail(message, code=1):
        say({'event': 'error', 'message': message})
        pipeline.set_state(Gst.State.NULL)
        sys.exit(code)

    def post_offer():
        offer = webrtc.get_property('local-description').sdp.as_text()
        if os.environ.get('WHIP_DEBUG'):
            sys.stderr.write(offer)
        request = urllib.request.Request(url, data=offer.encode(), method='POST', headers={
            'content-type': 'application/sdp', 'authorization': f'Bearer {token}'})
        try:
            with urllib.request.urlopen(request, timeout=30) as res:
                status, location, body = res.status, res.headers.get('location'), res.read().decode()
        except urllib.error.HTTPError as error:
            say({'event': 'refused', 'status': error.code, 'body': error.read().decode()})
            pipeline.set_state(Gst.State.NULL)
            sys.exit(3)
        if os.environ.get('WHIP_DEBUG'):
            sys.stderr.write(body)
        _, sdp = GstSdp.SDPMessage.new_from_text(body)
        answer = GstWebRTC.WebRTCSessionDescription.new(GstWebRTC.WebRTCSDPType.ANSWER, sdp)
        # Told before it is applied: applying starts ICE, whose state lines come from another thread.
        say({'event': 'answered', 'status': status, 'location': location})
        webrtc.emit('set-remote-description', answer, Gst.Promise.new())

    posted = {'done': False}

    def on_gathering(element, _pspec):
        if element.get_property('ice-gathering-state') == GstWebRTC.WebRTCICEGatheringState.COMPLETE and not posted['done']:
            posted['done'] = True
            threading.Thread(target=post_offer, daemon=True).start()

    def on_offer(promise, _data):
        reply = promise.get_reply()
        offer = reply.get_value('offer')
        webrtc.emit('set-local-description', offer, Gst.Promise.new())

    def on_negotiation_needed(element):
        for i in range(2):
            transceiver = element.emit('get-transceiver', i)
            if transceiver is not None:
                transceiver.set_property('direction', GstWebRTC.WebRTCRTPTransceiverDirection.SENDONLY)
        element.emit('create-offer', None, Gst.Promise.new_with_change_func(on_offer, None))

    webrtc.connect('on-negotiation-needed', on_negotiation_needed)
    webrtc.connect('notify::ice-gathering-state', on_gathering)
    webrtc.connect('notify::ice-connection-state', lambda e, _p: say({'event': 'ice', 'state': e.get_property('ice-connection-state').value_nick}))
    webrtc.connect('notify::connection-state', lambda e, _p: say({'event': 'connection', 'state': e.get_property('connection-state').value_nick}))
    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect('message::error', lambda _b, m: fail(str(m.parse_error()[0])))
    threading.Thread(target=lambda: (sys.stdin.read(), GLib.idle_add(loop.quit)), daemon=True).start()
    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    pipeline.set_state(Gst.State.NULL)


if __name__ == '__main__':
    main()

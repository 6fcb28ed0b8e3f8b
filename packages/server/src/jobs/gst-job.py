#!/usr/bin/python3
"""One media job (mix transcode, CDN relay or recording): a long-lived GStreamer pipeline driven by JSON lines.

Why a controller and not gst-launch-1.0: a layout update must move the compositor's pads live, and users
joining the mix must be added as new inputs, without tearing down the RTMP connection. gst-launch has no
way to change a running pipeline; this script keeps one pipeline for the job's whole life and changes pad
properties (xpos, ypos, width, height, zorder, alpha) and adds input branches while it runs.

The first line on stdin is the job spec (JSON; not an argument, so its RTMP stream keys are not in the command
line `ps` shows every local user): {kind: 'mix'|'relay', width, height, fps, videoBitrate (kbps), gop (s),
audioBitrate (kbps), audioSampleRate, audioChannels, background (0xRRGGBB), backgroundImage? (a PNG or JPEG file
drawn over the colour, under every input, scaled to the output size), outputs: [{type: 'rtmp', url} |
{type: 'file', path} | {type: 'rtp', videoPort, audioPort} (a mix only: H264 payload type 96 and opus payload
type 111 sent to those 127.0.0.1 UDP ports, which the server plays over WHEP)]}.
then stdin, one JSON object a line: {cmd: 'input', id, layout?: {x, y, w, h, z, fill, visible}} adds an input
(answered by {event: 'input', id, videoPort, audioPort}) or moves an existing one; {cmd: 'stop'} ends the
streams (EOS, so files are finalised) and exits 0; {cmd: 'background', color, image} changes a mix's background
colour and image (null: none) live; {cmd: 'keyframe'} makes a mix's encoder send a key frame now (a WHEP player
of the rtp output starts decoding at once rather than at the next GOP).
stdout, one JSON object a line: ready, input, started (the outputs are writing), stats {fps, frames, inputs},
warning {message} (e.g. a background image that cannot be read: the colour shows), error {message} (then exit 1),
stopped.
Inputs receive RTP on 127.0.0.1 UDP: H264 payload type 96, opus payload type 111.
"""
import json
import sys
import threading

import gi

gi.require_version('Gst', '1.0')
gi.require_version('Gio', '2.0')
gi.require_version('GstVideo', '1.0')
from gi.repository import Gio, GLib, Gst, GstVideo  # noqa: E402

from mix_background import Background  # noqa: E402 (beside this script)

Gst.init(None)
SPEC = json.loads(sys.stdin.readline())
KIND = SPEC['kind']
W, H, FPS = int(SPEC.get('width', 640)), int(SPEC.get('height', 360)), int(SPEC.get('fps', 15))
RATE, CHANNELS = int(SPEC.get('audioSampleRate', 48000)), int(SPEC.get('audioChannels', 2))
VIDEO_RTP = 'application/x-rtp,media=video,clock-rate=90000,encoding-name=H264,payload=96'
AUDIO_RTP = 'application/x-rtp,media=audio,clock-rate=48000,encoding-name=OPUS,payload=111'
# How long the mixers wait for late inputs (decode time plus arrival jitter) before producing a frame.
MIX_LATENCY_MS = 320
# Compositor layers: the colour, the image over it, then the inputs (their TRTC zOrder 1-15 plus Z_INPUTS).
Z_COLOUR, Z_IMAGE, Z_INPUTS = 0, 1, 1
# TRTC fillMode: 0 crop to fill the rectangle, 1 letterbox, 2 stretch.
FILL_CROP, FILL_FIT, FILL_STRETCH = 0, 1, 2

loop = GLib.MainLoop()
out_lock = threading.Lock()


def emit(event, **fields):
    with out_lock:
        sys.stdout.write(json.dumps({'event': event, **fields}) + '\n')
        sys.stdout.flush()


def fail(message):
    emit('error', message=message)
    sys.stdout.flush()
    # Exit at once: a dead pipeline must not linger; the supervisor decides about a restart.
    sys.exit(1)


def make(factory, **props):
    element = Gst.ElementFactory.make(factory, None)
    if element is None:
        fail(f'GStreamer element {factory} is not installed')
    for key, value in props.items():
        element.set_property(key.replace('_', '-'), value)
    return element


def chain(bin_, *elements):
    for element in elements:
        if element.get_parent() is None:
            bin_.add(element)
    for a, b in zip(elements, elements[1:]):
        if not a.link(b):
            fail(f'cannot link {a.get_factory().get_name()} to {b.get_factory().get_name()}')
    return elements


def caps(text):
    return make('capsfilter', caps=Gst.Caps.from_string(text))


def bound_socket():
    """A UDP socket on a free loopback port, so ports never collide with other jobs or servers."""
    sock = Gio.Socket.new(Gio.SocketFamily.IPV4, Gio.SocketType.DATAGRAM, Gio.SocketProtocol.UDP)
    sock.bind(Gio.InetSocketAddress.new_from_string('127.0.0.1', 0), False)
    sock.set_option(1, 8, 4 * 1024 * 1024)  # SOL_SOCKET, SO_RCVBUF: bursts of key-frame packets
    return sock, sock.get_local_address().get_port()


pipeline = Gst.Pipeline.new('job')
# No Python callbacks run on streaming threads (pad probes): a streaming thread waiting for the GIL while the
# main loop, holding it, calls into GStreamer (latency recalculation, pad properties) deadlocks the pipeline.
# Counters are read from elements' own properties in the main loop instead.
vrate = None


# --- the audio mix: always a silent live source, so the output runs before and between speakers.
amix = make('audiomixer', latency=MIX_LATENCY_MS * Gst.MSECOND)
raw_audio = f'audio/x-raw,format=S16LE,rate=48000,channels={CHANNELS},layout=interleaved'
chain(pipeline, make('audiotestsrc', is_live=True, wave='silence', samplesperbuffer=960), caps(raw_audio), amix)
aenc = make('avenc_aac', bitrate=int(SPEC.get('audioBitrate', 64)) * 1000)
atee = make('tee', allow_not_linked=True)
# The mixed sound before AAC: an rtp output encodes it to opus.
araw = make('tee', allow_not_linked=True)
chain(pipeline, amix, araw)
chain(pipeline, araw, make('queue'), make('audioconvert'), make('audioresample'),
      caps(f'audio/x-raw,rate={RATE},channels={CHANNELS}'), aenc, make('aacparse'), atee)

# --- the video: a compositor over a solid background (mix), or the source's own H264 (relay).
vtee = make('tee', allow_not_linked=True)
pipeline.add(vtee)
comp = None
bg = background = venc = None
if KIND == 'mix':
    comp = make('compositor', background='black', latency=MIX_LATENCY_MS * Gst.MSECOND)
    bg = make('videotestsrc', is_live=True, pattern='solid-color',
              foreground_color=0xFF000000 | (int(SPEC.get('background', 0)) & 0xFFFFFF))
    bg_caps = caps(f'video/x-raw,format=I420,width={W},height={H},framerate={FPS}/1')
    chain(pipeline, bg, bg_caps, comp)
    bg_caps.get_static_pad('src').get_peer().set_property('zorder', Z_COLOUR)
    background = Background(pipeline, comp, W, H, Z_IMAGE)
    gop_frames = max(1, int(SPEC.get('gop', 2)) * FPS)
    venc = make('x264enc', tune='zerolatency', speed_preset='ultrafast', bitrate=int(SPEC.get('videoBitrate', 800)),
                key_int_max=gop_frames, threads=2)
    vrate = make('videorate')
    chain(pipeline, comp, make('videoconvert'), vrate,
          caps(f'video/x-raw,format=I420,width={W},height={H},framerate={FPS}/1'), venc,
          caps('video/x-h264,profile=constrained-baseline'), make('h264parse', config_interval=-1), vtee)

# --- outputs
rtmp_sinks = []
file_outputs = []
def rtp_output(output):
    """Sends the mix as RTP to the server's loopback ports (its WHEP source): the encoded H264 and the sound in opus."""
    if KIND != 'mix':
        fail('an rtp output is for a mix only')
    vqueue = make('queue', max_size_time=Gst.SECOND, max_size_buffers=0, max_size_bytes=0, leaky='downstream')
    chain(pipeline, vqueue, make('rtph264pay', pt=96, config_interval=-1, mtu=1200),
          make('udpsink', host='127.0.0.1', port=int(output['videoPort']), sync=False, **{'async': False}))
    if vtee.link(vqueue) is False:
        fail('cannot link the video to the rtp output')
    aqueue = make('queue', max_size_time=Gst.SECOND, max_size_buffers=0, max_size_bytes=0, leaky='downstream')
    chain(pipeline, aqueue, make('audioconvert'), make('audioresample'), caps('audio/x-raw,rate=48000'),
          make('opusenc', bitrate=int(SPEC.get('audioBitrate', 64)) * 1000), make('rtpopuspay', pt=111),
          make('udpsink', host='127.0.0.1', port=int(output['audioPort']), sync=False, **{'async': False}))
    if araw.link(aqueue) is False:
        fail('cannot link the sound to the rtp output')


for i, output in enumerate(SPEC['outputs']):
    if output['type'] == 'rtp':
        rtp_output(output)
        continue
    if output['type'] == 'rtmp':
        mux = make('flvmux', streamable=True, latency=100 * Gst.MSECOND)
        sink = make('rtmp2sink', location=output['url'], sync=False, timeout=5)
        rtmp_sinks.append(sink)
        chain(pipeline, mux, sink)
    else:
        # Fragmented MP4 (moov first, a fragment a second): a job killed before its EOS finishes (a crash,
        # a stop under heavy load) still leaves a playable file up to its last fragment.
        mux = make('mp4mux', faststart=False, fragment_duration=1000)
        sink = make('filesink', location=output['path'], sync=False)
        file_outputs.append(sink)
        chain(pipeline, mux, sink)
    for tee, kind in ((vtee, 'video'), (atee, 'audio')):
        queue = make('queue', max_size_time=3 * Gst.SECOND, max_size_buffers=0, max_size_bytes=0)
        pipeline.add(queue)
        tee.link(queue)
        pad = mux.request_pad_simple('video' if kind == 'video' and output['type'] == 'rtmp' else
                                     'audio' if output['type'] == 'rtmp' else f'{kind}_%u')
        if pad is None or queue.get_static_pad('src').link(pad) != Gst.PadLinkReturn.OK:
            fail(f'cannot link the {kind} to output {i}')

inputs = {}


def set_if_changed(element, name, value):
    if element.get_property(name) != value:
        element.set_property(name, value)


def update_crop(entry):
    """Cover mode (fill 0): crop the source to the rectangle's aspect ratio (videocrop, set only on change)."""
    crop, size, layout = entry['crop'], entry.get('size'), entry.get('layout') or {}
    left = right = top = bottom = 0
    if size and int(layout.get('fill', FILL_CROP)) == FILL_CROP:
        (sw, sh), w, h = size, max(1, int(layout.get('w', W))), max(1, int(layout.get('h', H)))
        if sw * h > sh * w:  # source wider than the rectangle: crop the sides
            excess = sw - (sh * w) // h
            left, right = excess // 2, excess - excess // 2
        else:
            excess = sh - (sw * h) // w
            top, bottom = excess // 2, excess - excess // 2
    for name, value in (('left', left), ('right', right), ('top', top), ('bottom', bottom)):
        set_if_changed(crop, name, max(0, value))
    return False


def apply_layout(entry, layout):
    pad = entry['pad']
    if pad is None:
        return
    entry['layout'] = layout
    w, h = max(1, int(layout.get('w', W))), max(1, int(layout.get('h', H)))
    for name, value in (('xpos', int(layout.get('x', 0))), ('ypos', int(layout.get('y', 0))), ('width', w), ('height', h),
                        ('zorder', int(layout.get('z', 1)) + Z_INPUTS), ('alpha', 1.0 if layout.get('visible', True) else 0.0)):
        set_if_changed(pad, name, value)
    fill = int(layout.get('fill', FILL_CROP))
    pad.set_property('sizing-policy', 'keep-aspect-ratio' if fill == FILL_FIT else 'none')
    update_crop(entry)


def watch_sizes():
    """Follows each input's decoded size (for cover cropping), polled from the main loop."""
    for entry in inputs.values():
        pad = entry.get('decoded')
        caps = pad.get_current_caps() if pad else None
        if caps:
            st = caps.get_structure(0)
            size = (st.get_value('width'), st.get_value('height'))
            if size != entry.get('size'):
                entry['size'] = size
                update_crop(entry)
    return True


def pushed(depay):
    """The last video RTP sequence number a depayloader saw (it moves while media flows)."""
    stats = depay.get_property('stats')
    ok, value = stats.get_uint('seqnum') if stats else (False, 0)
    return value if ok else 0


def add_input(input_id, layout):
    vsock, vport = bound_socket()
    asock, aport = bound_socket()
    entry = {'pad': None, 'crop': None}
    vsrc = make('udpsrc', socket=vsock, caps=Gst.Caps.from_string(VIDEO_RTP))
    # No jitter buffer: on loopback, packets come in order, and frames stamped with their arrival time are
    # always near the mix's clock (RTP-timestamp-based times drift and jump with the browser's pacing, and a
    # frame stamped in the future is held back by the compositor).
    vdepay = make('rtph264depay')
    entry['depay'] = vdepay
    if KIND == 'mix':
        crop = make('videocrop')
        convert = make('videoconvert')
        elements = chain(pipeline, vsrc, vdepay, make('h264parse'), make('avdec_h264', max_threads=1, output_corrupt=False),
                         convert, crop, make('queue', max_size_buffers=3, leaky='downstream'))
        entry['crop'] = crop
        entry['decoded'] = convert.get_static_pad('src')
        pad = comp.request_pad_simple('sink_%u')
        elements[-1].get_static_pad('src').link(pad)
        entry['pad'] = pad
        apply_layout(entry, layout or {'visible': False})
    else:
        parse = make('h264parse', config_interval=-1)
        elements = chain(pipeline, vsrc, vdepay, parse, make('queue'))
        elements[-1].link(vtee)
    aelements = chain(pipeline, make('udpsrc', socket=asock, caps=Gst.Caps.from_string(AUDIO_RTP)),
                      make('rtpopusdepay'),
                      make('opusdec', plc=True), make('audioconvert'), make('audioresample'), caps(raw_audio),
                      make('queue', max_size_time=Gst.SECOND, leaky='downstream'))
    aelements[-1].get_static_pad('src').link(amix.request_pad_simple('sink_%u'))
    for element in elements + aelements:
        element.sync_state_with_parent()
    pipeline.recalculate_latency()
    entry['ports'] = {'videoPort': vport, 'audioPort': aport}
    inputs[input_id] = entry
    emit('input', id=input_id, **entry['ports'])


def on_command(line):
    try:
        message = json.loads(line)
    except ValueError:
        emit('warning', message='bad command line')
        return False
    cmd = message.get('cmd')
    if cmd == 'input':
        existing = inputs.get(message['id'])
        if existing is None and KIND == 'relay' and inputs:
            # A relay has one source: every input command gets its ports.
            existing = next(iter(inputs.values()))
        if existing is None:
            add_input(message['id'], message.get('layout'))
        else:
            if message.get('layout'):
                apply_layout(existing, message['layout'])
            emit('input', id=message['id'], **existing['ports'])
    elif cmd == 'background' and background is not None:
        set_background(int(message.get('color') or 0), message.get('image'))
    elif cmd == 'keyframe' and venc is not None:
        event = GstVideo.video_event_new_upstream_force_key_unit(Gst.CLOCK_TIME_NONE, True, 0)
        venc.get_static_pad('src').send_event(event)
    elif cmd == 'stop':
        stop()
    return False


# The image wanted before the mix runs: its branch is added once the compositor's output is negotiated
# (a new pad negotiating while the compositor's output does sometimes fails with not-negotiated).
pending_image = SPEC.get('backgroundImage')


def set_background(color, image):
    global pending_image
    bg.set_property('foreground-color', 0xFF000000 | (color & 0xFFFFFF))
    if not started:
        pending_image = image
        return
    error = background.show(image)
    if error:
        # The colour still shows: a mix without its picture beats no mix (the server checked the name).
        emit('warning', message=error)


def read_stdin():
    for line in sys.stdin:
        GLib.idle_add(on_command, line)
    # The supervisor went away: end the job.
    GLib.idle_add(stop)


stopping = False


def stop():
    global stopping
    if stopping:
        return False
    stopping = True
    if background is not None:
        background.end()
    pipeline.send_event(Gst.Event.new_eos())
    GLib.timeout_add(5000, finish)
    return False


def finish():
    pipeline.set_state(Gst.State.NULL)
    emit('stopped')
    loop.quit()
    return False


def on_message(_bus, message):
    if message.type == Gst.MessageType.ERROR:
        err, debug = message.parse_error()
        fail(f'{message.src.get_name()}: {err.message}')
    elif message.type == Gst.MessageType.EOS:
        finish()
    elif message.type == Gst.MessageType.LATENCY:
        pipeline.recalculate_latency()
    return True


started = False
last_frames = 0


def frame_count():
    """Frames encoded (mix: videorate's output count) or video RTP packets relayed (relay)."""
    if vrate is not None:
        return vrate.get_property('out')
    return sum(pushed(entry['depay']) for entry in inputs.values())


def sent_bytes(sink):
    stats = sink.get_property('stats')
    ok, value = stats.get_uint64('out-bytes-total') if stats else (False, 0)
    return value if ok else 0


def poll_started():
    global started
    if started:
        return False
    # Past the handshake and the connect / publish commands (a few hundred bytes): media is flowing.
    rtmp_ok = all(sent_bytes(s) > 1500 for s in rtmp_sinks)
    if rtmp_ok and frame_count() > 0:
        started = True
        if background is not None and pending_image:
            set_background(bg.get_property('foreground-color'), pending_image)
        emit('started')
        return False
    return True


def report_stats():
    global last_frames
    frames = frame_count()
    emit('stats', fps=round((frames - last_frames) / 2.0, 1) if vrate is not None else None, frames=frames,
         inputs={key: {'rtp': pushed(entry['depay'])} for key, entry in inputs.items()})
    last_frames = frames
    return True


bus = pipeline.get_bus()
bus.add_signal_watch()
bus.connect('message', on_message)
if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
    fail('the pipeline did not start')
emit('ready')
GLib.timeout_add(100, poll_started)
GLib.timeout_add(2000, report_stats)
GLib.timeout_add(500, watch_sizes)
threading.Thread(target=read_stdin, daemon=True).start()
loop.run()

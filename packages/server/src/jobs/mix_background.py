"""A mix's background image (gst-job.py): a picture under every input, scaled to the output, changed live.

Each image is decoded once, by a small pipeline of its own, into one frame of the output size; an appsrc hands
that frame to imagefreeze, which repeats it as a live stream into a compositor pad just above the background
colour. A new image replaces the frame (imagefreeze allow-replace) and none hides the pad (alpha 0, which the
compositor skips), so the compositor's inputs and the RTMP connection are never touched. The frame is I420,
the output's format: once the output runs without alpha the compositor takes no alpha formats on new pads (so
a PNG's transparency is not kept: transparent pixels show their own colour).
"""
import gi

gi.require_version('Gst', '1.0')
from gi.repository import GLib, Gst  # noqa: E402

# How long decoding an image may take (a 4096x4096 PNG decodes in well under this).
DECODE_TIMEOUT = 10 * Gst.SECOND


class Background:
    def __init__(self, pipeline, comp, width, height, zorder):
        self.pipeline, self.comp, self.zorder = pipeline, comp, zorder
        # Every image is decoded to these caps, so the branch never renegotiates when the image changes.
        self.caps = Gst.Caps.from_string(
            f'video/x-raw,format=I420,width={width},height={height},pixel-aspect-ratio=1/1,'
            'interlace-mode=progressive,framerate=0/1,colorimetry=bt601')
        self.src = None
        self.pad = None

    def decode(self, path):
        """One I420 frame of the output size from an image file, or None (with the reason) when it cannot be read."""
        # parse_launch links decodebin's pad when it appears in C: no Python callback on its thread, which
        # would wait for the GIL the main loop holds (see gst-job.py).
        try:
            decoder = Gst.parse_launch('filesrc name=file ! decodebin ! videoconvert ! videoscale ! appsink name=frame')
        except GLib.Error as error:
            return None, f'a GStreamer element to decode images is missing ({error.message})'
        decoder.get_by_name('file').set_property('location', path)
        sink = decoder.get_by_name('frame')
        sink.set_property('caps', self.caps)
        try:
            decoder.set_state(Gst.State.PAUSED)
            result, _state, _pending = decoder.get_state(DECODE_TIMEOUT)
            if result == Gst.StateChangeReturn.FAILURE:
                message = decoder.get_bus().pop_filtered(Gst.MessageType.ERROR)
                return None, message.parse_error()[0].message if message else 'it is not an image'
            sample = sink.emit('try-pull-preroll', 0)
            return (sample, None) if sample else (None, 'no picture decoded')
        finally:
            decoder.set_state(Gst.State.NULL)

    def show(self, path):
        """Draws the image at `path` (None: hides the image); returns an error message or None."""
        if not path:
            if self.pad is not None:
                self.pad.set_property('alpha', 0.0)
            return None
        sample, error = self.decode(path)
        if sample is None:
            if self.pad is not None:
                self.pad.set_property('alpha', 0.0)
            return f'cannot draw the background image: {error}'
        if self.src is None:
            self.add_branch()
        self.src.emit('push-buffer', sample.get_buffer())
        self.pad.set_property('alpha', 1.0)
        return None

    def add_branch(self):
        self.src = Gst.ElementFactory.make('appsrc', None)
        for key, value in (('is-live', True), ('format', Gst.Format.TIME), ('caps', self.caps)):
            self.src.set_property(key, value)
        freeze = Gst.ElementFactory.make('imagefreeze', None)
        freeze.set_property('is-live', True)
        freeze.set_property('allow-replace', True)
        self.pipeline.add(self.src)
        self.pipeline.add(freeze)
        self.src.link(freeze)
        self.pad = self.comp.request_pad_simple('sink_%u')
        self.pad.set_property('zorder', self.zorder)
        freeze.get_static_pad('src').link(self.pad)
        self.src.sync_state_with_parent()
        freeze.sync_state_with_parent()
        self.pipeline.recalculate_latency()

    def end(self):
        """Ends the image's stream (a live imagefreeze never sends EOS itself, and the mix waits for it)."""
        if self.pad is not None:
            self.pad.send_event(Gst.Event.new_eos())

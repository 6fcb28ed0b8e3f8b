#!/usr/bin/python3
"""The default recognizer of live transcription: CMU PocketSphinx (Debian's gstreamer1.0-pocketsphinx with the
pocketsphinx-en-us model), offline, behind the recognizer line protocol (see recognizer.ts):

stdin: raw audio, signed 16-bit little-endian, 16 kHz, mono, until end of file.
stdout, one JSON object a line: {type: 'ready'} once the model is loaded; {type: 'partial', text, start} while a
sentence is spoken (the best guess so far); {type: 'final', text, start, end} when its speaker pauses (and at end
of input); {type: 'error', message}. Times are seconds of audio since the start of input.

Why GStreamer's element and not a Python binding: Debian ships PocketSphinx's Python bindings no more; its
GStreamer element (with the decoder's own voice-activity detection deciding where a sentence ends) is the
packaged way in. Arguments (all optional, for an operator's own model): --hmm DIR, --lm FILE, --dict FILE,
--fsg FILE (a finite-state grammar instead of the language model), --kws FILE (key phrases).
"""
import argparse
import json
import sys

import gi

gi.require_version('Gst', '1.0')
from gi.repository import GLib, Gst  # noqa: E402

parser = argparse.ArgumentParser()
for option in ('hmm', 'lm', 'dict', 'fsg', 'kws'):
    parser.add_argument(f'--{option}')
ARGS = parser.parse_args()

Gst.init(None)
loop = GLib.MainLoop()


def emit(kind, **fields):
    sys.stdout.write(json.dumps({'type': kind, **fields}) + '\n')
    sys.stdout.flush()


pipeline = Gst.parse_launch(
    'fdsrc fd=0 blocksize=3200 ! rawaudioparse use-sink-caps=false format=pcm pcm-format=s16le sample-rate=16000 '
    'num-channels=1 ! pocketsphinx name=asr ! fakesink sync=false')
asr = pipeline.get_by_name('asr')
# Keeping up with live audio on a busy host over the last bit of accuracy: at most 3000 HMMs per frame and no
# second (flat-lexicon) pass cut the recognizer's CPU by ~35 % with the same words on the test sentences.
asr.set_property('maxhmmpf', 3000)
asr.set_property('fwdflat', False)
for option in ('hmm', 'lm', 'dict', 'fsg', 'kws'):
    value = getattr(ARGS, option)
    if value:
        asr.set_property(option, value)

# Where the current sentence began and where it was last heard (seconds of audio); the element gives the time of
# each partial guess, none for the final one.
state = {'start': None, 'last': 0.0, 'text': ''}


def on_message(_bus, message):
    kind = message.type
    if kind == Gst.MessageType.ELEMENT and message.get_structure().get_name() == 'pocketsphinx':
        s = message.get_structure()
        text = (s.get_value('hypothesis') or '').strip()
        ts = s.get_value('timestamp')
        final = s.get_value('final')
        at = ts / 1e9 if ts is not None and ts < Gst.CLOCK_TIME_NONE else state['last']
        if not final:
            if not text:
                return
            if state['start'] is None:
                state['start'] = at
            state['last'] = at
            if text != state['text']:
                state['text'] = text
                emit('partial', text=text, start=state['start'])
            return
        start = state['start'] if state['start'] is not None else state['last']
        if text:
            emit('final', text=text, start=start, end=max(state['last'], start))
        state.update(start=None, text='')
    elif kind == Gst.MessageType.EOS:
        pipeline.set_state(Gst.State.NULL)
        loop.quit()
    elif kind == Gst.MessageType.ERROR:
        error, _debug = message.parse_error()
        emit('error', message=str(error.message))
        pipeline.set_state(Gst.State.NULL)
        loop.quit()
        sys.exit(1)


bus = pipeline.get_bus()
bus.add_signal_watch()
bus.connect('message', on_message)
if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
    emit('error', message='the recognizer pipeline did not start (is gstreamer1.0-pocketsphinx installed?)')
    sys.exit(1)
emit('ready')
loop.run()

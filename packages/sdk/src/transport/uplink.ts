import { UPLINK_SLOTS, type UplinkSlot } from '@conclave/protocol';
import { log } from '../log/logger.js';
import { preferVideoCodecs } from './uplink-codec.js';

/** The uplink's slots, in the m-line order the server expects: @conclave/protocol's media facts. */
export { UPLINK_SLOTS, type UplinkSlot } from '@conclave/protocol';

/** The slots whose encoder can be chosen (useHWEncoder): the camera and the screen. */
export type HWSlot = 'video' | 'aux';

/** Sends the offer to the server and returns its answer. */
export type Negotiator = (offerSdp: string) => Promise<string>;

/** How a slot's track is encoded. */
export interface SlotEncoding {
  /** Maximum bitrate in kbit/s (set on the sender as kbit/s × 1000, docs/behaviour.md §9). */
  maxBitrateKbps?: number;
  /** Maximum frame rate. */
  maxFramerate?: number;
  /** Downscale factor of the track (the small stream is the camera scaled down). */
  scaleResolutionDownBy?: number;
  /** What the encoder gives up first under pressure (qosPreference). */
  degradationPreference?: RTCDegradationPreference;
}

/** Settings fixed when the uplink is negotiated. */
export interface UplinkMediaSettings {
  /** Video start bitrate in kbit/s (capped at START_BITRATE_CAP_KBPS). */
  startBitrateKbps?: number;
  /** Opus in stereo (standard-stereo / high-stereo profiles). */
  stereo?: boolean;
  /** Opus bitrate in kbit/s. */
  audioBitrateKbps?: number;
}

/** docs/behaviour.md §9: start bitrate cap 5000 kbit/s. */
export const START_BITRATE_CAP_KBPS = 5000;

/** Video codecs in preference order: H264 by default, VP8 as the fallback (docs/behaviour.md §3). */
const VIDEO_CODECS = ['video/h264', 'video/vp8'];

/** True when this browser can encode H264 or VP8 (else NOT_SUPPORTED_H264). */
export function canEncodeVideo(): boolean {
  const codecs = globalThis.RTCRtpSender?.getCapabilities?.('video')?.codecs;
  if (!codecs) return true; // unknown: let negotiation decide
  return codecs.some((codec) => VIDEO_CODECS.includes(codec.mimeType.toLowerCase()));
}

/**
 * Adds our start-bitrate and opus settings to the server's answer: Chromium reads
 * x-google-start-bitrate and opus stereo / maxaveragebitrate from the remote description.
 */
export function mungeAnswer(sdp: string, settings: UplinkMediaSettings): string {
  const lines = sdp.split('\r\n');
  const rtpmap = new Map<string, string>();
  for (const line of lines) {
    const match = /^a=rtpmap:(\d+) ([^/]+)/.exec(line);
    if (match) rtpmap.set(match[1], match[2].toLowerCase());
  }
  return lines.map((line) => {
    const match = /^a=fmtp:(\d+) (.*)$/.exec(line);
    if (!match) return line;
    const codec = rtpmap.get(match[1]);
    const params = match[2].split(';').filter((p) => p.trim() !== '');
    const set = (key: string, value: number) => {
      const index = params.findIndex((p) => p.trim().startsWith(`${key}=`));
      if (index >= 0) params[index] = `${key}=${value}`;
      else params.push(`${key}=${value}`);
    };
    if ((codec === 'h264' || codec === 'vp8') && settings.startBitrateKbps) {
      set('x-google-start-bitrate', Math.min(Math.round(settings.startBitrateKbps), START_BITRATE_CAP_KBPS));
    } else if (codec === 'opus') {
      if (settings.stereo) {
        set('stereo', 1);
        set('sprop-stereo', 1);
      }
      if (settings.audioBitrateKbps) set('maxaveragebitrate', settings.audioBitrateKbps * 1000);
    } else {
      return line;
    }
    return `a=fmtp:${match[1]} ${params.join(';')}`;
  }).join('\r\n');
}

/**
 * The send-only peer connection. All four transceivers exist from the start, so starting,
 * switching or stopping a track is a replaceTrack, never a renegotiation.
 */
export class Uplink {
  private readonly _pc: RTCPeerConnection;
  private readonly _senders: Record<UplinkSlot, RTCRtpSender>;
  private _connected: Promise<void> | undefined;
  /** The server's answer with our settings (mungeAnswer): the default payloads. */
  private _answer: string | undefined;
  /** A local edit of the server's answer, applied at each negotiation (the hardware encoder's payload). */
  answerEdit: ((answer: string) => string) | undefined;

  /**
   * @param encoded with it, the connection exposes encoded frames (encodedInsertableStreams) and each
   * sender is handed to `encoded` as soon as it exists, which must pipe it (SEI insertion).
   */
  constructor(iceServers: RTCIceServer[], iceTransportPolicy: RTCIceTransportPolicy = 'all', encoded?: (slot: UplinkSlot, sender: RTCRtpSender) => void) {
    this._pc = new RTCPeerConnection({ iceServers, iceTransportPolicy, bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require', ...(encoded ? { encodedInsertableStreams: true } : {}) });
    const transceivers = UPLINK_SLOTS.map((slot) => this._pc.addTransceiver(slot === 'audio' ? 'audio' : 'video', { direction: 'sendonly' }));
    for (const transceiver of transceivers.slice(1)) preferVideoCodecs(transceiver);
    const [audio, video, small, aux] = transceivers.map((t) => t.sender);
    this._senders = { audio, video, small, aux };
    if (encoded) for (const slot of UPLINK_SLOTS) encoded(slot, this._senders[slot]);
  }

  /** Negotiates once; later calls return the same promise (a failed negotiation may be tried again). */
  connect(negotiate: Negotiator, settings: UplinkMediaSettings = {}): Promise<void> {
    this._connected ??= (async () => {
      // The offer goes out at once, without waiting for ICE gathering: the server (Janus or werift,
      // answering peer-reflexive candidates) learns this side's address from its checks.
      if (this._pc.signalingState === 'stable' && !this._pc.localDescription) {
        await this._pc.setLocalDescription(await this._pc.createOffer());
      }
      const answer = await negotiate(this._pc.localDescription?.sdp ?? '');
      this._answer = mungeAnswer(answer, settings);
      await this._pc.setRemoteDescription({ type: 'answer', sdp: this._wantedAnswer(this._answer) });
    })().catch((error: unknown) => {
      this._connected = undefined;
      throw error;
    });
    return this._connected;
  }

  /** Puts a track on a slot (null stops sending) and applies its encoding settings. */
  async setTrack(slot: UplinkSlot, track: MediaStreamTrack | null, encoding: SlotEncoding = {}): Promise<void> {
    const sender = this._senders[slot];
    if (sender.track !== track) await sender.replaceTrack(track);
    // Publishing goes on with the browser's defaults when the encoding is refused; logged.
    if (track) await this.setEncoding(slot, encoding).catch((error: unknown) => log.warn(`${slot} encoding parameters refused:`, error));
  }

  /** Applies bitrate, frame rate, scale and degradation preference to a slot's sender. */
  async setEncoding(slot: UplinkSlot, encoding: SlotEncoding): Promise<void> {
    const sender = this._senders[slot];
    const params = sender.getParameters();
    if (encoding.degradationPreference && slot !== 'audio') params.degradationPreference = encoding.degradationPreference;
    const first = params.encodings?.[0];
    if (first) {
      if (encoding.maxBitrateKbps) first.maxBitrate = encoding.maxBitrateKbps * 1000;
      if (encoding.maxFramerate && slot !== 'audio') first.maxFramerate = encoding.maxFramerate;
      if (encoding.scaleResolutionDownBy && slot !== 'audio') first.scaleResolutionDownBy = Math.max(1, encoding.scaleResolutionDownBy);
    }
    await sender.setParameters(params);
  }

  /**
   * Sets the server's answer again through answerEdit, after a new local offer: a local renegotiation (no
   * server round trip) that changes what the uplink sends within what the server negotiated. Resolves to the
   * answer set, or undefined when there was nothing to change or no answer yet; rejects when the browser
   * refuses it (rolled back: a pending offer would block the uplink).
   */
  async reapplyAnswer(): Promise<string | undefined> {
    const answer = this._answer;
    if (!answer || this._pc.signalingState !== 'stable' || !this._pc.remoteDescription) return undefined;
    const sdp = this._wantedAnswer(answer);
    if (sdp === this._pc.remoteDescription.sdp) return undefined;
    try {
      await this._pc.setLocalDescription(await this._pc.createOffer());
      await this._pc.setRemoteDescription({ type: 'answer', sdp });
    } catch (error) {
      if ((this._pc.signalingState as RTCSignalingState) === 'have-local-offer') await this._pc.setLocalDescription({ type: 'rollback' }).catch(() => undefined); // the error below is the one to report
      throw error;
    }
    return sdp;
  }

  /** The answer to set: the server's, with the local edit. */
  private _wantedAnswer(answer: string): string {
    return this.answerEdit ? this.answerEdit(answer) : answer;
  }

  /** The sender of a slot (for stats and encoded transforms). */
  sender(slot: UplinkSlot): RTCRtpSender {
    return this._senders[slot];
  }

  get peerConnection(): RTCPeerConnection {
    return this._pc;
  }

  close(): void {
    this._pc.close();
  }
}

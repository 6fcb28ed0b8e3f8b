/**
 * The hardware encoder switch (preferHW, docs/behaviour.md §4 "encode health", §9): an asset the core loads on first need
 * (hw-encoder-loader.ts), as most sessions never use it. Which H264 payload a video m-line of the uplink sends:
 * the server's default (its answer as negotiated, H264 42e01f, which Chromium encodes with OpenH264) or the
 * hardware-friendly profile 42001f, for which Chromium picks a hardware encoder where one exists. The switch is
 * local, as the original's useHWEncoder: the remote description is re-applied with the profile changed (the
 * payload type stays the one the server negotiated, so both engines keep forwarding it to subscribers
 * negotiated for H264).
 */
import type { HWSlot, Uplink } from './uplink.js';

/** Profile-level-id of the hardware encoder's H264 (Baseline 3.1). */
export const HW_H264_PROFILE = '42001f';

/** Slot → m-line index in the uplink (UPLINK_SLOTS order), for the slots whose encoder can be chosen. */
const M_LINE: Record<HWSlot, number> = { video: 1, aux: 3 };

/**
 * The answer with the H264 payloads of the m-lines at `mLines` (indexes, 0 = audio) set to profile
 * `profile`; other m-lines and codecs untouched. An m-line without H264 (VP8 negotiated) is left as is.
 */
export function answerWithH264Profile(sdp: string, mLines: ReadonlySet<number>, profile: string): string {
  if (mLines.size === 0) return sdp;
  const sections = sdp.split(/\r\n(?=m=)/);
  // sections[0] is the session part; m-line i is sections[i + 1].
  return sections.map((section, index) => {
    if (index === 0 || !mLines.has(index - 1)) return section;
    const h264 = new Set<string>();
    for (const match of section.matchAll(/^a=rtpmap:(\d+) H264\//gim)) h264.add(match[1]);
    return section.split('\r\n').map((line) => {
      const fmtp = /^a=fmtp:(\d+) (.*)$/.exec(line);
      if (!fmtp || !h264.has(fmtp[1])) return line;
      return `a=fmtp:${fmtp[1]} ${fmtp[2].replace(/profile-level-id=[0-9a-f]{6}/i, `profile-level-id=${profile}`)}`;
    }).join('\r\n');
  }).join('\r\n');
}

/** The profile-level-id of the first H264 payload of m-line `mLine`, if it has one. */
export function h264ProfileOf(sdp: string, mLine: number): string | undefined {
  const section = sdp.split(/\r\n(?=m=)/)[mLine + 1];
  const pt = section && /^a=rtpmap:(\d+) H264\//im.exec(section)?.[1];
  if (!pt) return undefined;
  return new RegExp(`^a=fmtp:${pt} .*profile-level-id=([0-9a-f]{6})`, 'im').exec(section)?.[1]?.toLowerCase();
}

/** True when this browser sends H264 profile 42001f (packetization-mode 1), as the original's is42001fSupported. */
function canEncodeHWProfile(): boolean {
  const codecs = globalThis.RTCRtpSender?.getCapabilities?.('video')?.codecs ?? [];
  return codecs.some((codec) => /packetization-mode=1/.test(codec.sdpFmtpLine ?? '') && (codec.sdpFmtpLine ?? '').includes(`profile-level-id=${HW_H264_PROFILE}`));
}

/** Per uplink: slots sending 42001f, slots kept on software after bad health, the switch in progress. */
interface EncoderChoice {
  hw: Set<HWSlot>;
  swForced: Set<HWSlot>;
  switching: Promise<unknown>;
}
const choices = new WeakMap<Uplink, EncoderChoice>();

/** What a switch did: undefined when nothing changed, else the slot's new payload for the log. */
export type EncoderSwitch = { profile: string | undefined } | undefined;

/**
 * Chooses the encoder of a video slot, as the original's useHWEncoder: true sends H264 42001f, false the
 * server's default payload (H264 42e01f, the software encoder, or VP8). After false (bad encode health) the
 * slot keeps the software encoder on this uplink. Rejects when the browser refuses the descriptions (the
 * previous ones stay).
 */
export function useHWEncoder(uplink: Uplink, enable: boolean, slot: HWSlot): Promise<EncoderSwitch> {
  let choice = choices.get(uplink);
  if (!choice) {
    const created: EncoderChoice = { hw: new Set(), swForced: new Set(), switching: Promise.resolve() };
    choice = created;
    choices.set(uplink, created);
    uplink.answerEdit = (answer) => answerWithH264Profile(answer, new Set([...created.hw].map((s) => M_LINE[s])), HW_H264_PROFILE);
  }
  const state = choice;
  const run = async (): Promise<EncoderSwitch> => {
    if (enable && (state.swForced.has(slot) || !canEncodeHWProfile())) return undefined;
    if (!enable) state.swForced.add(slot);
    if (enable === state.hw.has(slot)) return undefined;
    if (enable) state.hw.add(slot);
    else state.hw.delete(slot);
    try {
      const sdp = await uplink.reapplyAnswer();
      return sdp === undefined ? undefined : { profile: h264ProfileOf(sdp, M_LINE[slot]) };
    } catch (error) {
      if (enable) state.hw.delete(slot);
      else state.hw.add(slot);
      throw error;
    }
  };
  const next = state.switching.then(run, run);
  state.switching = next.catch(() => undefined); // only orders the next switch: the caller gets `next`
  return next;
}

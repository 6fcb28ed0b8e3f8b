import { describe, expect, it } from 'vitest';
import { cdnStartData as cdnStartSchema } from '@conclave/protocol/schemas';
import { inputsOf, MixRuleError, pipelineOf, targetUrl } from '../../src/jobs/cdn-spec.js';
import type { CdnStartData } from '@conclave/protocol';

const layout = (userId: string, x: number, y: number, w: number, h: number, zOrder = 1) =>
  ({ userId, streamType: 'main' as const, fillMode: 0 as const, width: w, height: h, locationX: x, locationY: y, zOrder });
const mix = (list: ReturnType<typeof layout>[], extra: Partial<CdnStartData> = {}): CdnStartData =>
  ({ publishMode: 'PublishMixStreamToCDN', url: 'rtmp://cdn/live/x', encoding: { videoWidth: 640, videoHeight: 360 }, mix: { videoLayoutList: list }, ...extra });

describe('CDN job spec (docs/behaviour.md §5 mix rules on the server)', () => {
  it('mixes each rectangle with its audio, and an audio-only user from audioMixUserList', () => {
    const data = mix([layout('a', 0, 0, 320, 360), layout('b', 320, 0, 320, 360, 2)]);
    data.mix!.audioMixUserList = ['a', 'c'];
    const inputs = inputsOf(data, 'a');
    expect(inputs).toEqual([
      expect.objectContaining({ userId: 'a', stream: 'main', video: true, audio: true, layout: { x: 0, y: 0, w: 320, h: 360, z: 1, fill: 0, visible: true } }),
      expect.objectContaining({ userId: 'b', video: true, audio: false }),
      { userId: 'c', stream: 'main', video: false, audio: true },
    ]);
    expect(pipelineOf(data)).toMatchObject({ kind: 'mix', width: 640, height: 360, fps: 15, gop: 2 });
  });

  it('refuses a mix without the caller, or with a rectangle outside the output', () => {
    expect(() => inputsOf(mix([layout('b', 0, 0, 320, 360)]), 'a')).toThrow(MixRuleError);
    expect(() => inputsOf(mix([layout('a', 400, 0, 320, 360)]), 'a')).toThrow(/must lie inside the output 640x360/);
  });

  it('checks frame rate, GOP, audio bitrate and z-order ranges', () => {
    const base = mix([layout('a', 0, 0, 320, 360)]);
    expect(cdnStartSchema.safeParse(base).success).toBe(true);
    for (const bad of [{ videoFramerate: 31 }, { videoGOP: 9 }, { audioBitrate: 16 }, { audioBitrate: 200 }, { videoFramerate: 1.5 }]) {
      expect(cdnStartSchema.safeParse({ ...base, encoding: { ...base.encoding, ...bad } }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(cdnStartSchema.safeParse(mix([layout('a', 0, 0, 320, 360, 16)])).success).toBe(false);
    expect(cdnStartSchema.safeParse({ ...base, url: 'http://example.com/x' }).success).toBe(false);
  });

  it('relays the caller\'s own stream; the URL is the app\'s or the default ingest plus streamId', () => {
    const main: CdnStartData = { publishMode: 'PublishMainStreamToCDN' };
    expect(inputsOf(main, 'a')).toEqual([{ userId: 'a', stream: 'main', video: true, audio: true }]);
    expect(inputsOf({ publishMode: 'PublishSubStreamToCDN' }, 'a')).toEqual([{ userId: 'a', stream: 'aux', video: true, audio: false }]);
    const caller = { sdkAppId: 1400, roomRef: '12', userId: 'a' };
    expect(targetUrl(main, undefined, caller)).toBeUndefined();
    expect(targetUrl({ publishMode: 'PublishMixStreamToCDN' }, 'rtmp://ingest/live/', caller)).toBeUndefined();
    expect(targetUrl({ ...main, url: 'rtmp://x/y/z' }, 'rtmp://ingest/live/', caller)).toBe('rtmp://x/y/z');
  });

  it('38.5 a streamId on the shared ingest is namespaced by app and room; a relay\'s default is <sdkAppId>_<room>_<userId>_main|aux', () => {
    const main: CdnStartData = { publishMode: 'PublishMainStreamToCDN' };
    const caller = { sdkAppId: 1400, roomRef: '12', userId: 'a' };
    expect(targetUrl(main, 'rtmp://ingest/live', caller)).toBe('rtmp://ingest/live/1400_12_a_main');
    expect(targetUrl({ publishMode: 'PublishSubStreamToCDN' }, 'rtmp://ingest/live', caller)).toBe('rtmp://ingest/live/1400_12_a_aux');
    // Another room's default name, asked for as a streamId, stays in the asker's room.
    expect(targetUrl({ ...main, streamId: '1400_13_b_main' }, 'rtmp://ingest/live/', caller)).toBe('rtmp://ingest/live/1400_12_1400_13_b_main');
    expect(targetUrl({ publishMode: 'PublishMixStreamToCDN', streamId: 'show' }, 'rtmp://ingest/live/', { ...caller, roomRef: 's:hall_1' })).toBe('rtmp://ingest/live/1400_s-hall.5F1_show');
    // A userId cannot leave the ingest's application (no slash, no query reaches the URL).
    expect(targetUrl(main, 'rtmp://ingest/live/', { ...caller, userId: '../other/x?y' })).toBe('rtmp://ingest/live/1400_12_.2E.2E.2Fother.2Fx.3Fy_main');
  });
});

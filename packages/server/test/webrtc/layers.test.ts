import { describe, expect, it } from 'vitest';
import { chooseLayer } from '../../src/webrtc/layers.js';
import { UPLINK_SLOTS } from '@conclave/protocol/media';

const wants = (bigVideo: boolean, smallVideo: boolean) => ({ audio: true, bigVideo, smallVideo, auxVideo: false });

describe('embedded engine layers', () => {
  it('maps uplink m-lines to 0 audio, 1 big video, 2 small video, 3 auxiliary', () => {
    expect(UPLINK_SLOTS).toEqual(['audio', 'video', 'small', 'aux']);
  });

  it('forwards the small video only when only it is wanted and the publisher sends it', () => {
    expect(chooseLayer(wants(false, true), true)).toBe('small');
    expect(chooseLayer(wants(false, true), false)).toBe('video');
    expect(chooseLayer(wants(true, true), true)).toBe('video');
    expect(chooseLayer(wants(true, false), true)).toBe('video');
  });
});

import { describe, expect, it } from 'vitest';
import { RtcError } from '../errors/rtc-error.js';
import { validateBuffer, validateCustomMessage, validateSEI, validateVolume, validateVolumeInterval } from './messages.js';

function caught(fn: () => unknown): RtcError {
  try {
    fn();
  } catch (error) {
    return error as RtcError;
  }
  throw new Error('expected an error');
}

describe('message validation (docs/behaviour.md §5)', () => {
  it('custom message: cmdId an integer 1–10', () => {
    const data = new ArrayBuffer(4);
    expect(validateCustomMessage({ cmdId: 1, data }).cmdId).toBe(1);
    expect(validateCustomMessage({ cmdId: 10, data }).cmdId).toBe(10);
    expect(caught(() => validateCustomMessage({ cmdId: 0, data })).extraCode).toBe(5007);
    expect(caught(() => validateCustomMessage({ cmdId: 11, data })).extraCode).toBe(5008);
    expect(caught(() => validateCustomMessage({ cmdId: 1.5, data })).extraCode).toBe(5002);
    expect(caught(() => validateCustomMessage({ data })).extraCode).toBe(5001);
    expect(caught(() => validateCustomMessage(undefined)).extraCode).toBe(5001);
  });

  it('buffers: present, an ArrayBuffer, 1–1000 bytes', () => {
    expect(validateBuffer(new ArrayBuffer(1000), 'data', 'f').byteLength).toBe(1000);
    expect(caught(() => validateBuffer(new ArrayBuffer(0), 'data', 'f')).extraCode).toBe(5017);
    expect(caught(() => validateBuffer(new ArrayBuffer(1001), 'data', 'f')).extraCode).toBe(5018);
    expect(caught(() => validateBuffer('text', 'data', 'f')).extraCode).toBe(5004);
    expect(caught(() => validateBuffer(undefined, 'data', 'f')).extraCode).toBe(5001);
  });

  it('SEI: payload type 243 by default or 5 with a 16-byte UUID first', () => {
    expect(validateSEI(new ArrayBuffer(8), undefined)).toMatchObject({ seiPayloadType: 243, toSubStream: false });
    expect(validateSEI(new ArrayBuffer(20), { seiPayloadType: 5, toSubStream: true })).toMatchObject({ seiPayloadType: 5, toSubStream: true });
    expect(caught(() => validateSEI(new ArrayBuffer(16), { seiPayloadType: 5 })).code).toBe(5000);
    expect(caught(() => validateSEI(new ArrayBuffer(8), { seiPayloadType: 6 })).extraCode).toBe(5005);
    expect(caught(() => validateSEI(new ArrayBuffer(1001), undefined)).extraCode).toBe(5018);
  });

  it('audio-volume interval: a number; ≤0 disables; otherwise at least 100, default 2000', () => {
    expect(validateVolumeInterval(undefined)).toBe(2000);
    expect(validateVolumeInterval(0)).toBe(0);
    expect(validateVolumeInterval(-5)).toBe(0);
    expect(validateVolumeInterval(50)).toBe(100);
    expect(validateVolumeInterval(500)).toBe(500);
    expect(caught(() => validateVolumeInterval('fast')).extraCode).toBe(5002);
  });

  it('remote volume: a number of at least 0', () => {
    expect(validateVolume(150, 'f')).toBe(150);
    expect(caught(() => validateVolume(-1, 'f')).extraCode).toBe(5006);
    expect(caught(() => validateVolume('loud', 'f')).extraCode).toBe(5002);
  });
});

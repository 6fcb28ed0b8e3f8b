import { describe, expect, it } from 'vitest';
import { resolveFaceDetectionOptions } from './options.js';
import { FacePresence } from './presence.js';
import { scoreOf } from './detector.js';

describe('FaceDetection state (FacePresence)', () => {
  it('reports a face at once, its absence only after missingTimeout; a face seen again cancels the countdown', () => {
    const presence = new FacePresence();
    expect(presence.observe(false, 0, 1000)).toBeUndefined();
    expect(presence.observe(true, 100, 1000)).toBe(true);
    expect(presence.observe(true, 200, 1000)).toBeUndefined();
    expect(presence.observe(false, 300, 1000)).toBeUndefined();
    expect(presence.observe(false, 1200, 1000)).toBeUndefined();
    expect(presence.observe(true, 1250, 1000)).toBeUndefined();
    expect(presence.observe(false, 1400, 1000)).toBeUndefined();
    expect(presence.observe(false, 2399, 1000)).toBeUndefined();
    expect(presence.observe(false, 2400, 1000)).toBe(false);
    expect(presence.observe(false, 5000, 1000)).toBeUndefined();
  });
  it('missingTimeout 0 reports at once; lost() (camera off) reports at once; reset() is silent', () => {
    const presence = new FacePresence();
    presence.observe(true, 0, 0);
    expect(presence.observe(false, 1, 0)).toBe(false);
    presence.observe(true, 2, 5000);
    expect(presence.lost()).toBe(false);
    expect(presence.lost()).toBeUndefined();
    presence.observe(true, 3, 5000);
    presence.reset();
    expect(presence.hasFace).toBe(false);
  });
});

describe('FaceDetection options', () => {
  const cb = () => undefined;
  it("fill the original's defaults; update keeps what is not given", () => {
    const start = resolveFaceDetectionOptions({ onFaceDetectionStateChanged: cb }, undefined, 'startPlugin');
    expect(start).toMatchObject({ detectionInterval: 300, minConfidence: 0.8, missingTimeout: 1000 });
    expect(resolveFaceDetectionOptions({ missingTimeout: 0 }, start, 'updatePlugin')).toMatchObject({ detectionInterval: 300, missingTimeout: 0, onFaceDetectionStateChanged: cb });
  });
  it("reject what the original's rules reject", () => {
    const error = (value: unknown) => {
      try {
        resolveFaceDetectionOptions(value, undefined, 'startPlugin');
      } catch (e) {
        return e;
      }
      return undefined;
    };
    expect(error({})).toMatchObject({ code: 5000, extraCode: 5001 });
    expect(error({ onFaceDetectionStateChanged: 'x' })).toMatchObject({ code: 5000, extraCode: 5002 });
    expect(error({ onFaceDetectionStateChanged: cb, detectionInterval: 50 })).toMatchObject({ code: 5000, extraCode: 5005 });
    expect(error({ onFaceDetectionStateChanged: cb, minConfidence: 1.5 })).toMatchObject({ code: 5000, extraCode: 5005 });
    expect(error({ onFaceDetectionStateChanged: cb, missingTimeout: 6000 })).toMatchObject({ code: 5000, extraCode: 5005 });
  });
  it("read a detection's score from its classification entries", () => {
    expect(scoreOf({ boundingBox: {}, landmarks: [{ x: 0.5, y: 0.5 }], Z: [{ index: 0, ma: 0.93 }] })).toBe(0.93);
    expect(scoreOf({ boundingBox: {}, landmarks: [] })).toBeUndefined();
  });
});

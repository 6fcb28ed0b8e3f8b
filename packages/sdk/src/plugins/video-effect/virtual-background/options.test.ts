import { describe, expect, it } from 'vitest';
import { coverFit } from './background-stage.js';
import { cssColor, validateVirtualBackgroundOptions } from './index.js';
import { SlowGuard } from './segmenter.js';

const error = (options: unknown) => {
  try {
    validateVirtualBackgroundOptions(options, 'startPlugin');
  } catch (e) {
    return e as { code: number; extraCode: number; message: string };
  }
  throw new Error('accepted');
};

describe('VirtualBackground options', () => {
  it("accept the original's shapes and SPEC's green type / imageUrl", () => {
    expect(() => validateVirtualBackgroundOptions({ sdkAppId: 1, userId: 'u', userSig: 's', type: 'blur', blurLevel: 3 }, 'startPlugin')).not.toThrow();
    expect(() => validateVirtualBackgroundOptions({ type: 'image', src: 'bg.png', onAbort: () => undefined }, 'startPlugin')).not.toThrow();
    expect(() => validateVirtualBackgroundOptions({ type: 'green', imageUrl: 'bg.png' }, 'startPlugin')).not.toThrow();
    expect(() => validateVirtualBackgroundOptions(undefined, 'startPlugin')).not.toThrow();
  });
  it('reject an unknown type, a missing src for image/green, a blurLevel outside 1–10, a non-function onAbort', () => {
    expect(error({ type: 'video' })).toMatchObject({ code: 5000, extraCode: 5005 });
    expect(error({ type: 'image' })).toMatchObject({ code: 5000, extraCode: 5001 });
    expect(error({ type: 'green' })).toMatchObject({ code: 5000, extraCode: 5001 });
    expect(error({ blurLevel: 11 })).toMatchObject({ code: 5000, extraCode: 5005 });
    expect(error({ onAbort: 'no' })).toMatchObject({ code: 5000, extraCode: 5002 });
  });
});

describe('coverFit', () => {
  it('crops the image like object-fit: cover', () => {
    expect(coverFit({ width: 640, height: 480 }, { width: 640, height: 480 })).toEqual([1, 1, 0, 0]);
    expect(coverFit({ width: 1600, height: 900 }, { width: 1200, height: 900 })).toEqual([0.75, 1, 0.125, 0]);
    expect(coverFit({ width: 900, height: 900 }, { width: 1800, height: 900 })).toEqual([1, 0.5, 0, 0.25]);
  });
});

describe('SlowGuard (onAbort when the device is too slow)', () => {
  it('trips when the median of the last inferences exceeds the limit, not on a single spike', () => {
    const guard = new SlowGuard(5, 100);
    expect([20, 30, 900, 25, 30].map((ms) => guard.add(ms))).toEqual([false, false, false, false, false]);
    expect(guard.add(300)).toBe(false);
    expect(guard.add(400)).toBe(true);
  });

  it("accept 5.17's type 'color' (a CSS colour or [r, g, b]) and its two flags; reject malformed ones", () => {
    expect(() => validateVirtualBackgroundOptions({ type: 'color', color: '#ff00ff', enableFaceCentering: true, enableEffectOptimization: false }, 'startPlugin')).not.toThrow();
    expect(cssColor([0, 128, 255], 'startPlugin')).toBe('rgb(0,128,255)');
    expect(cssColor('red', 'startPlugin')).toBe('red');
    expect(error({ type: 'color', color: [0, 300, 0] })).toMatchObject({ code: 5000, extraCode: 5002 });
    expect(error({ enableFaceCentering: 'yes' })).toMatchObject({ code: 5000, extraCode: 5002 });
  });
});

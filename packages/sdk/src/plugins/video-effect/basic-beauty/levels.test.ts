import { describe, expect, it } from 'vitest';
import { resolveBeautyLevels } from './index.js';

describe('BasicBeauty levels', () => {
  it('default to 0.5 each; update keeps the levels not given', () => {
    expect(resolveBeautyLevels(undefined, undefined, 'startPlugin')).toEqual({ beauty: 0.5, brightness: 0.5, ruddy: 0.5 });
    expect(resolveBeautyLevels({ ruddy: 1 }, { beauty: 0, brightness: 0.2, ruddy: 0 }, 'updatePlugin')).toEqual({ beauty: 0, brightness: 0.2, ruddy: 1 });
  });
  it('reject values outside 0–1 or not numbers', () => {
    expect(() => resolveBeautyLevels({ beauty: 2 }, undefined, 'startPlugin')).toThrow(/between 0 and 1/);
    expect(() => resolveBeautyLevels({ brightness: 'high' }, undefined, 'startPlugin')).toThrow(/must be a number/);
    expect(() => resolveBeautyLevels('x', undefined, 'startPlugin')).toThrow(/must be an object/);
  });
});

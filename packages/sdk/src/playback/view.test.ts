// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { RtcError } from '../errors/rtc-error.js';
import { resolveView } from './view.js';

describe('view option (docs/behaviour.md §5): an element id present in the document, an element, null, or an array of elements', () => {
  it('resolves ids, elements, arrays and null', () => {
    const a = document.createElement('div');
    a.id = 'present';
    document.body.appendChild(a);
    const b = document.createElement('div');
    expect(resolveView('present', 'f')).toEqual([a]);
    expect(resolveView(b, 'f')).toEqual([b]);
    expect(resolveView([a, b], 'f')).toEqual([a, b]);
    expect(resolveView(null, 'f')).toEqual([]);
    expect(resolveView(undefined, 'f')).toEqual([]);
  });

  it('rejects an id not in the document and values that are not elements', () => {
    let error: RtcError | undefined;
    try {
      resolveView('missing', 'startLocalVideo');
    } catch (e) {
      error = e as RtcError;
    }
    expect(error).toMatchObject({ code: 5000, extraCode: 5009, functionName: 'startLocalVideo' });
    expect(() => resolveView([{} as HTMLElement], 'f')).toThrow(/view must be/);
    expect(() => resolveView(42 as unknown as HTMLElement, 'f')).toThrow(RtcError);
  });
});

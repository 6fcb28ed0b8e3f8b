import { describe, expect, it } from 'vitest';
import { browserInfo, isBrowserSupported, isSmallStreamSupported } from './support.js';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

describe('browser support rules (docs/behaviour.md §9)', () => {
  it('refuses old IE, legacy Edge, UC, Edg below 80, Firefox below 56', () => {
    expect(isBrowserSupported(CHROME)).toBe(true);
    expect(isBrowserSupported('Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko')).toBe(false);
    expect(isBrowserSupported('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/70.0 Safari/537.36 Edge/18.17763')).toBe(false);
    expect(isBrowserSupported('Mozilla/5.0 (Linux; U; Android 8.1.0) UCBrowser/12.9.8.1158 Mobile Safari/537.36')).toBe(false);
    expect(isBrowserSupported('Mozilla/5.0 Chrome/79.0 Safari/537.36 Edg/79.0.309.43')).toBe(false);
    expect(isBrowserSupported('Mozilla/5.0 Chrome/120.0 Safari/537.36 Edg/120.0.0.0')).toBe(true);
    expect(isBrowserSupported('Mozilla/5.0 (X11; Linux x86_64; rv:55.0) Gecko/20100101 Firefox/55.0')).toBe(false);
    expect(isBrowserSupported('Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0')).toBe(true);
    expect(browserInfo(CHROME)).toEqual({ name: 'chrome', version: 156 });
  });

  it('has no small stream on WeChat, iOS or Chrome below 63', () => {
    expect(isSmallStreamSupported(CHROME)).toBe(true);
    expect(isSmallStreamSupported(`${CHROME} MicroMessenger/8.0`)).toBe(false);
    expect(isSmallStreamSupported('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1')).toBe(false);
    expect(isSmallStreamSupported('Mozilla/5.0 Chrome/62.0 Safari/537.36')).toBe(false);
  });
});

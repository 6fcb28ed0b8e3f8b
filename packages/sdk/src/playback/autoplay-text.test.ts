import { describe, expect, it } from 'vitest';
import { autoplayText, isChinese } from './autoplay-text.js';

describe('autoplay dialog wording (docs/behaviour.md §2)', () => {
  it("has SPEC's English message", () => {
    expect(autoplayText('en', 'en-US').message).toBe('Media playback failed. Click the "Resume" to resume playback.');
    expect(autoplayText('', 'en-US').resume).toBe('Resume');
  });

  it('is Chinese when the page language is Chinese, else when the browser language is', () => {
    expect(autoplayText('zh-CN', 'en-US').resume).toBe('恢复播放');
    expect(autoplayText('en', 'zh-CN').resume).toBe('Resume');
    expect(autoplayText('', 'zh-TW').resume).toBe('恢复播放');
    expect(autoplayText(undefined, 'zh').message).toContain('恢复播放');
  });

  it('recognises Chinese language tags only', () => {
    for (const tag of ['zh', 'zh-CN', 'ZH-tw', 'zh-Hant-HK', 'zh_CN']) expect(isChinese(tag)).toBe(true);
    for (const tag of ['', 'en', 'zu', 'zha', 'ja', undefined, null]) expect(isChinese(tag)).toBe(false);
  });

  it('explains the autoplay policy with a tutorial link in both languages', () => {
    for (const text of [autoplayText('en', ''), autoplayText('zh', '')]) {
      expect(text.policy.length).toBeGreaterThan(20);
      expect(text.tutorial).toMatch(/^https:\/\//);
    }
  });
});

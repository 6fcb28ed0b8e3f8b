import { describe, expect, it } from 'vitest';
import { explainError } from './errors';
import { initialLang, TABLES, translate, type MessageKey } from './i18n';

describe('the demo’s message table', () => {
  it('picks ?lang= first, then the stored choice, then the browser’s language', () => {
    expect(initialLang('?lang=zh', 'en', 'en-US')).toBe('zh');
    expect(initialLang('?lang=fr', 'en', 'zh-CN')).toBe('en');
    expect(initialLang('', null, 'zh-TW')).toBe('zh');
    expect(initialLang('', null, 'de-DE')).toBe('en');
    expect(initialLang('', 'nonsense', 'zh')).toBe('zh');
  });

  it('fills in {names}, and leaves an unknown one as written', () => {
    expect(translate('en', 'bar.chatUnread', { count: 3 })).toBe('Chat, 3 unread');
    expect(translate('zh', 'bar.chatUnread', { count: 3 })).toBe('聊天，3 条未读');
    expect(translate('en', 'people.kick', {})).toBe('Remove {userId} from the room');
  });

  it('has every English key in Chinese, with a text of its own, and no Chinese key without an English one', () => {
    const en = Object.keys(TABLES.en);
    const zh = Object.keys(TABLES.zh);
    expect(en.filter((key) => !(key in TABLES.zh)), 'in en, not in zh').toEqual([]);
    expect(zh.filter((key) => !(key in TABLES.en)), 'in zh, not in en').toEqual([]);
    const untranslated = en.filter((key) => {
      const text = TABLES.zh[key as MessageKey];
      return typeof text !== 'string' || text.trim() === '';
    });
    expect(untranslated, 'empty in zh').toEqual([]);
  });

  it('has the same {names} in both languages for every message', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
    for (const key of Object.keys(TABLES.en) as MessageKey[]) expect(names(TABLES.zh[key]), key).toBe(names(TABLES.en[key]));
  });

  it('explains a device error in the language asked, with the device named in it', () => {
    const denied = Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' });
    expect(explainError(denied, 'microphone', 'en')).toMatch(/^Your browser blocked the microphone\. Allow it/);
    expect(explainError(denied, 'microphone', 'zh')).toBe('浏览器阻止了麦克风。请允许本网站使用它（地址栏左侧的图标），然后重试。');
    expect(explainError({ code: 5400, extraCode: -100018, message: 'bad sig' }, 'camera', 'zh')).toBe('服务器不接受你的登录（userSig 错误或已过期）。');
    expect(explainError({ code: 5300, extraCode: 5303, message: 'busy' }, 'camera', 'en')).toMatch(/^The camera is in use by another app/);
  });
});

import { describe, expect, it } from 'vitest';
import { initialLang, translate } from './i18n';

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

  it('has the same {names} in both languages for every message', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
    const keys = ['notice.askedToMute', 'host.kickFailed', 'cdn.on', 'record.failed', 'check.error', 'people.invite'] as const;
    for (const key of keys) expect(names(translate('zh', key)), key).toBe(names(translate('en', key)));
  });
});

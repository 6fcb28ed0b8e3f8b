import { afterAll, describe, expect, it } from 'vitest';
import { lenientCreateOptions, lenientEnterRoom, lenientRemoteVideo } from '../validate/lenient.js';
import { addLogSink, type LogEntry } from './logger.js';
import { UNSUPPORTED_OPTIONS } from './unsupported.js';

describe('options accepted but not honoured in a browser', () => {
  const lines: LogEntry[] = [];
  const remove = addLogSink((entry) => lines.push(entry));
  afterAll(() => {
    remove();
  });

  it('each logs ONE warning, the first time an app sets it (and none when unset)', () => {
    lenientEnterRoom({ sdkAppId: 1, userId: 'a', userSig: 's', roomId: 1, preferHW: null as unknown as boolean });
    expect(lines).toEqual([]);
    for (let i = 0; i < 3; i++) {
      lenientCreateOptions({ volumeType: 1, userDefineRecordId: 'r' });
      lenientEnterRoom({ sdkAppId: 1, userId: 'a', userSig: 's', roomId: 1, preferHW: true });
      lenientRemoteVideo({ userId: 'b', streamType: 'main', option: { canvasRender: true } }, 'startRemoteVideo');
    }
    expect(lines.map((line) => line.text)).toEqual([
      UNSUPPORTED_OPTIONS['create.volumeType'],
      UNSUPPORTED_OPTIONS['create.userDefineRecordId'],
    ]); // canvasRender and preferHW are honoured: no warning
    expect(lines.every((line) => line.level === 3)).toBe(true);
  });
});

import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { JoinData } from './index.js';
import { COMMAND_SCHEMAS, COMMANDS, PUSH_SCHEMAS } from './schemas.js';

const join: JoinData = {
  sdkAppId: 1400000001, userId: 'u', userSig: 'sig', roomId: '8', useStringRoomId: false,
  trtcRole: 20, trtcScene: 1, version: '5.10.1', ua: 'test', terminalType: 15,
};
const joinErrors = (data: unknown) => COMMAND_SCHEMAS.join.data.safeParse(data).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('wire schemas', () => {
  it('every command has a request and a reply schema, and COMMANDS lists exactly them', () => {
    expect([...COMMANDS].sort()).toEqual(Object.keys(COMMAND_SCHEMAS).sort());
    for (const name of COMMANDS) {
      expect(typeof COMMAND_SCHEMAS[name].data.safeParse).toBe('function');
      expect(typeof COMMAND_SCHEMAS[name].reply.safeParse).toBe('function');
    }
    expect(Object.keys(PUSH_SCHEMAS).sort()).toEqual(['audience-count', 'banned', 'downlink-closed', 'downlink-offer', 'peer-join', 'peer-leave', 'publish-list', 'server-shutdown', 'transcriber-message', 'transcriber-state']);
  });

  it('join: userDefineRecordId follows docs/behaviour.md §5 (1 to 64 letters, digits, hyphens, underscores)', () => {
    for (const ok of ['a', 'rec_01-A', 'x'.repeat(64)]) expect(joinErrors({ ...join, userDefineRecordId: ok })).toEqual([]);
    for (const bad of ['', 'x'.repeat(65), 'has space', 'dot.ted', 'é', 7]) {
      expect(joinErrors({ ...join, userDefineRecordId: bad })).toEqual([expect.stringMatching(/^userDefineRecordId: /)]);
    }
    expect(joinErrors(join)).toEqual([]);
  });

  it('join: an integer roomId must lie in [1, 4294967294]; a string room id is any 1 to 64 characters', () => {
    for (const roomId of ['0', '4294967295', '12a', '-1']) expect(joinErrors({ ...join, roomId })).toEqual([expect.stringMatching(/^roomId: .*\[1, 4294967294\]/)]);
    expect(joinErrors({ ...join, roomId: '4294967294' })).toEqual([]);
    expect(joinErrors({ ...join, roomId: 'lobby', useStringRoomId: true })).toEqual([]);
  });

  it('switch-role: latencyLevel is an optional integer from 1 to 5', () => {
    const parse = (data: unknown) => COMMAND_SCHEMAS['switch-role'].data.safeParse(data).success;
    expect(parse({ role: 21 })).toBe(true);
    for (const level of [1, 3, 5]) expect(parse({ role: 20, latencyLevel: level })).toBe(true);
    for (const level of [0, 6, 2.5, '3', null]) expect(parse({ role: 20, latencyLevel: level })).toBe(false);
    expect(parse({ role: 22 })).toBe(false);
  });

  it('unknown fields are dropped, not passed on', () => {
    expect(COMMAND_SCHEMAS['mute-flag'].data.parse({ flag: 9, extra: 'x' })).toEqual({ flag: 9 });
  });

  it('the main entry (what the SDK bundles) pulls in no zod at run time', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))], bundle: true, write: false, metafile: true, format: 'esm', logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.includes('src/index.ts'))).toBe(true);
    expect(inputs.filter((path) => /zod|commands\/|http\/|pushes/.test(path))).toEqual([]);
  });
});

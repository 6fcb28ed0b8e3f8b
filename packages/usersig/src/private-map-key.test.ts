import { describe, expect, it } from 'vitest';
import {
  buildPrivateMapKeyUserBuf,
  decodeUserSig,
  genPrivateMapKey,
  genPrivateMapKeyWithStringRoomID,
  genUserSig,
  hasPrivilege,
  parsePrivateMapKeyUserBuf,
  PRIVILEGE,
  UserSigError,
  verifyPrivateMapKey,
  type PrivateMapKeyVerifyResult,
  type VerifyFailure,
} from './index.js';

const SDK_APP_ID = 1400000000;
const SECRET = 'conclave-test-secret-key';
const NOW = 1700000000;
const base = { sdkAppId: SDK_APP_ID, secretKey: SECRET, userId: 'alice', now: NOW, expire: 3600 };

/** The original tool's `_genUserbuf` (tls-sig-api-v2-node), ported as-is, with the clock pinned to NOW. */
function originalGenUserbuf(
  sdkappid: number,
  account: string,
  dwAuthID: number,
  dwExpTime: number,
  dwPrivilegeMap: number,
  dwAccountType: number,
  roomStr: string | null,
): Buffer {
  const accountLength = account.length;
  let length = 1 + 2 + accountLength + 20;
  if (null != roomStr) length = length + 2 + roomStr.length;
  let offset = 0;
  const userBuf = Buffer.alloc(length);
  userBuf[offset++] = null != roomStr ? 1 : 0;
  userBuf[offset++] = (accountLength & 0xff00) >> 8;
  userBuf[offset++] = accountLength & 0x00ff;
  for (; offset < 3 + accountLength; ++offset) userBuf[offset] = account.charCodeAt(offset - 3);
  const put32 = (v: number) => {
    userBuf[offset++] = (v & 0xff000000) >> 24;
    userBuf[offset++] = (v & 0x00ff0000) >> 16;
    userBuf[offset++] = (v & 0x0000ff00) >> 8;
    userBuf[offset++] = v & 0x000000ff;
  };
  put32(sdkappid);
  put32(dwAuthID);
  put32(NOW + dwExpTime);
  put32(dwPrivilegeMap);
  put32(dwAccountType);
  if (null != roomStr) {
    userBuf[offset++] = (roomStr.length & 0xff00) >> 8;
    userBuf[offset++] = roomStr.length & 0x00ff;
    for (; offset < length; ++offset) userBuf[offset] = roomStr.charCodeAt(offset - (length - roomStr.length));
  }
  return userBuf;
}

function expectFailure(r: PrivateMapKeyVerifyResult, reason: VerifyFailure, message?: RegExp): void {
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.reason).toBe(reason);
  if (message) expect(r.message).toMatch(message);
}

const verify = (key: string, o: Partial<{ userId: string; sdkAppId: number; secretKey: string; now: number }> = {}) =>
  verifyPrivateMapKey({ key, sdkAppId: SDK_APP_ID, userId: 'alice', secretKey: SECRET, now: NOW, ...o });

describe('privilege bits', () => {
  it('has the documented values', () => {
    expect(PRIVILEGE).toEqual({
      CREATE_ROOM: 1,
      ENTER_ROOM: 2,
      SEND_AUDIO: 4,
      RECV_AUDIO: 8,
      SEND_VIDEO: 16,
      RECV_VIDEO: 32,
      SEND_SUB_VIDEO: 64,
      RECV_SUB_VIDEO: 128,
      ALL: 255,
    });
    const all = Object.entries(PRIVILEGE).filter(([k]) => k !== 'ALL').reduce((m, [, v]) => m | v, 0);
    expect(all).toBe(PRIVILEGE.ALL);
    expect(hasPrivilege(PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO, PRIVILEGE.ENTER_ROOM)).toBe(true);
    expect(hasPrivilege(PRIVILEGE.ENTER_ROOM, PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO)).toBe(false);
  });
});

describe('privateMapKey userbuf', () => {
  it('matches the original _genUserbuf byte for byte (numeric room)', () => {
    const ours = buildPrivateMapKeyUserBuf({ userId: 'alice', sdkAppId: SDK_APP_ID, roomId: 1234, expireTime: NOW + 3600, privilegeMap: 255 });
    const theirs = originalGenUserbuf(SDK_APP_ID, 'alice', 1234, 3600, 255, 0, null);
    expect(Buffer.from(ours).toString('hex')).toBe('000005616c69636553724e00000004d26553ff10000000ff00000000');
    expect(Buffer.from(ours).equals(theirs)).toBe(true);
  });

  it('matches the original _genUserbuf byte for byte (string room, large room id)', () => {
    const ours = buildPrivateMapKeyUserBuf({
      userId: 'user_42',
      sdkAppId: 0xfedcba98,
      roomId: 0,
      expireTime: NOW + 60,
      privilegeMap: 42,
      strRoomId: 'room-abc',
    });
    expect(Buffer.from(ours).equals(originalGenUserbuf(0xfedcba98, 'user_42', 0, 60, 42, 0, 'room-abc'))).toBe(true);
    const big = buildPrivateMapKeyUserBuf({ userId: 'u', sdkAppId: 1, roomId: 0xffffffff, expireTime: NOW, privilegeMap: 1 });
    expect(Buffer.from(big).equals(originalGenUserbuf(1, 'u', 0xffffffff, 0, 1, 0, null))).toBe(true);
  });

  it('parses what it builds', () => {
    const buf = buildPrivateMapKeyUserBuf({ userId: 'alice', sdkAppId: 7, roomId: 0, expireTime: 123, privilegeMap: 3, strRoomId: '房间' });
    expect(parsePrivateMapKeyUserBuf(buf)).toEqual({
      version: 1,
      userId: 'alice',
      sdkAppId: 7,
      roomId: 0,
      strRoomId: '房间',
      expireTime: 123,
      privilegeMap: 3,
      accountType: 0,
    });
  });

  it('rejects malformed userbufs', () => {
    const good = buildPrivateMapKeyUserBuf({ userId: 'alice', sdkAppId: 7, roomId: 1, expireTime: 123, privilegeMap: 3 });
    const bad: [Uint8Array, RegExp][] = [
      [new Uint8Array(0), /only 0 bytes/],
      [good.subarray(0, good.length - 1), /truncated/],
      [Uint8Array.from([...good, 0]), /trailing/],
      [Uint8Array.from([2, ...good.subarray(1)]), /unknown version 2/],
      [Uint8Array.from([1, ...good.subarray(1)]), /truncated before the string room id/],
    ];
    for (const [buf, message] of bad) {
      expect(() => parsePrivateMapKeyUserBuf(buf)).toThrow(message);
      expect(() => parsePrivateMapKeyUserBuf(buf)).toThrow(UserSigError);
    }
  });
});

describe('genPrivateMapKey / verifyPrivateMapKey', () => {
  it('round-trips a numeric room id with privilege bits', async () => {
    const privilegeMap = PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO;
    const key = await genPrivateMapKey({ ...base, roomId: 1234, privilegeMap });
    const r = await verify(key);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r).toMatchObject({ userId: 'alice', sdkAppId: SDK_APP_ID, time: NOW, expire: 3600, expiresAt: NOW + 3600 });
    expect(r.info).toEqual({
      version: 0,
      userId: 'alice',
      sdkAppId: SDK_APP_ID,
      roomId: 1234,
      strRoomId: '',
      expireTime: NOW + 3600,
      privilegeMap,
      accountType: 0,
    });
    expect(hasPrivilege(r.info.privilegeMap, PRIVILEGE.RECV_VIDEO)).toBe(true);
    expect(hasPrivilege(r.info.privilegeMap, PRIVILEGE.SEND_AUDIO)).toBe(false);
    expect(parsePrivateMapKeyUserBuf(decodeUserSig(key).userbuf ?? new Uint8Array())).toEqual(r.info);
  });

  it('round-trips a string room id with privilege bits', async () => {
    const privilegeMap = PRIVILEGE.ALL;
    const key = await genPrivateMapKeyWithStringRoomID({ ...base, strRoomId: 'room-abc', privilegeMap });
    const r = await verify(key);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.info).toEqual({
      version: 1,
      userId: 'alice',
      sdkAppId: SDK_APP_ID,
      roomId: 0,
      strRoomId: 'room-abc',
      expireTime: NOW + 3600,
      privilegeMap: 255,
      accountType: 0,
    });
  });

  it('verifies privateMapKeys made by the original Node tool (literal vectors)', async () => {
    // tls-sig-api-v2-node with Date.now() pinned to 1700000000 s:
    // api.genPrivateMapKey('alice', 3600, 1234, 255)
    const numeric =
      'eJxVjc0KgkAYRd-lW4fOqBUMuBiwKBChHIxxp84Y06iJP2VF7x6ZLrqre89Z3BcwPzRusgECloFgMW4lZNWpXI04KVQmJ9EKndS1EkCwg6b8TKdKCQSv-6kcatVIIPZqJn0rm7TPgQCldMtPQ82tiGXaoZTSDSojZg7f6pl0jOvO1*oMBDSzAp1ed565FMET27rg8eNetWEojv6hiFmKI1RdeN7vXXh-AMPYQWM_';
    // api.genPrivateMapKeyWithStringRoomID('alice', 3600, 'room-abc', 2 | 8 | 32)
    const str =
      'eJxVjl0PwTAYhf-Le0tQZqLJLpoIkyARzdjl1g86KtV9pIj-LjounKtznnPzPIGudr1GWMAw7A2g67fi4lopqTzOLoqJ71Hyc2aM4oBRMPimfSqlBWA0*afCGWUF4FH4I3UpbF5LwEC2ZJ7unUmHCWXngPgsEtp3vt1aQJZMT5t8h06pXkc-DXX8*NoHlXJc9HNGJnpxz*tNWMYnmejYEU4KcjDIHopZZ7aO4PUGGo1Fig__';
    const a = await verify(numeric, { now: NOW + 10 });
    expect(a.ok && a.info).toMatchObject({ version: 0, roomId: 1234, privilegeMap: 255, expireTime: NOW + 3600 });
    const b = await verify(str, { now: NOW + 10 });
    expect(b.ok && b.info).toMatchObject({ version: 1, roomId: 0, strRoomId: 'room-abc', privilegeMap: 42 });
    // And our output carries the same document as the original's.
    const ours = await genPrivateMapKeyWithStringRoomID({ ...base, strRoomId: 'room-abc', privilegeMap: 42 });
    expect(decodeUserSig(ours)).toEqual(decodeUserSig(str));
  });

  it('fails with the right reasons', async () => {
    const key = await genPrivateMapKey({ ...base, roomId: 1, privilegeMap: PRIVILEGE.ALL });
    expectFailure(await verify(key, { secretKey: 'nope' }), 'wrong-key');
    expectFailure(await verify(key, { userId: 'bob' }), 'mismatch', /^privateMapKey was made for userId 'alice', not 'bob'$/);
    expectFailure(await verify(key, { sdkAppId: 1 }), 'mismatch', /^privateMapKey was made for sdkAppId 1400000000, not 1$/);
    expectFailure(await verify(key, { now: NOW + 3601 }), 'expired', /^privateMapKey expired at /);
    expectFailure(await verify('garbage!'), 'malformed', /^privateMapKey is not valid base64/);
  });

  it('rejects a plain userSig', async () => {
    const sig = await genUserSig(base);
    expectFailure(await verify(sig), 'malformed', /not a privateMapKey/);
  });

  it('rejects a signed userbuf that is malformed, for someone else, or expired', async () => {
    const withUserbuf = (userbuf: Uint8Array) => genUserSig({ ...base, userbuf });
    expectFailure(await verify(await withUserbuf(new Uint8Array([9, 9, 9]))), 'malformed', /userbuf is invalid/);
    const forBob = buildPrivateMapKeyUserBuf({ userId: 'bob', sdkAppId: SDK_APP_ID, roomId: 1, expireTime: NOW + 3600, privilegeMap: 255 });
    expectFailure(await verify(await withUserbuf(forBob)), 'mismatch', /userbuf was made for userId 'bob', not 'alice'/);
    const shortLived = buildPrivateMapKeyUserBuf({ userId: 'alice', sdkAppId: SDK_APP_ID, roomId: 1, expireTime: NOW + 10, privilegeMap: 255 });
    expect((await verify(await withUserbuf(shortLived), { now: NOW + 10 })).ok).toBe(true);
    expectFailure(await verify(await withUserbuf(shortLived), { now: NOW + 11 }), 'expired', /privileges expired/);
  });

  it('rejects invalid options', async () => {
    await expect(genPrivateMapKey({ ...base, roomId: 2 ** 32, privilegeMap: 1 })).rejects.toThrow(RangeError);
    await expect(genPrivateMapKey({ ...base, roomId: 1, privilegeMap: -1 })).rejects.toThrow(RangeError);
    await expect(genPrivateMapKey({ ...base, roomId: 1, privilegeMap: 1, now: 2 ** 32 - 10, expire: 60 })).rejects.toThrow(
      RangeError,
    );
    await expect(genPrivateMapKeyWithStringRoomID({ ...base, strRoomId: '', privilegeMap: 1 })).rejects.toThrow(TypeError);
  });
});

import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeUserSig, genPrivateMapKey, genUserSig, verifyPrivateMapKey, verifyUserSig, MAX_USERSIG_LENGTH, PRIVILEGE } from './index.js';

/**
 * Made by the official tool (tencentyun tls-sig-api-v2 1.0.2 for Node, `Api(1400000123, SECRET)`) at TIME with the
 * longest legal userId (32 characters) and strRoomId (64 characters): the longest credentials it emits.
 */
const OFFICIAL = {
  sdkAppId: 1400000123,
  secretKey: 'official-tool-fixture-secret-0123456789abcdef',
  userId: 'Ab3_x-ZqW9mK2pL7vN4cR8tY1uJ6hG5s',
  time: 1796169412,
  userSig: 'eJwtjF0LgjAYhf-Le1vJNjeXgy6sMCoLyujDm7BcucpYOkOI-nuYnrvzPJzzgU0QWm*ZgwBiIej*u0rk06iL*mPvZB*rXvTaudmc6IC-l-S87psDLmdOOmFFuymSe6y1SkBgiupgYjfGqEyCwNx1sONSTBoqK63ymjPGCEKofVFXEKCxfD3Gq5TvvYpHOiw3hU0w02Y0W8236X5o-EXs36adNR3A9wf1Bjkt',
  /** genPrivateMapKey(userId, 180 days, 4294967294, 42). */
  key: 'eJw1jllPg0AUhf-LPGuZYS0kPIyJgC0Ma4TyYmxZOrYgy7BE4383gH5v5zs5ufcbRHa4G-MOaIDfQfCwZprlNaMFXTU*C2-zY9rGanXkG1sZiXgJ9uyEhoN8NaX*b9Nnt-emoRnQkAgXEC9sDaNVDjSkqDKSVRHxm83nhnaLlySJhxBudujz7jwUy1mMSz9**UqEksW1kbgxsp36ySFC6hKThK4VpE7yeiTV1SIJiS43SeEWqnHfOT7GGLd4Rdf-X6Ql0ED0WZqpdbjPd4NOkxcGH4g7PRe910-Ik7m2VhkXGf5oM6iDn1-56VYW',
  /** genPrivateMapKeyWithStringRoomID(userId, 180 days, the 64-character room below, 255). */
  strKey: 'eJw1j1tzgjAUhP9LXm0tCYKFGR*CLYhCLKCCvHS4J2qo5Va10--eAdt9229n98z5BhvLG3dZBVSAxgJ4GDxLs7JhORswjsX3y2P46St8hc7WtCOTxH1u9rBdytSQ6r9OnR6j85mlQIUToRdE4j1pGM*ACqeKDGVlAtGdZpczq3ouSRISBOFO2zqr4jbvzzq4cHzzFohF45d6sPahZZeaTcRwTQzirRduaAe7FeF0QQKySY7SFPcyuufKdjDGL0*DxxrecqWLNx8HcnCKPaI0Ke0iQwoP*ekQ*Xqde5oQI6U29YZHARXSYHkKPG1kGpBmc60OfalMjaJIRPc6bG1PR9OZzf5fZwVQwW07svSoal9TxS5FN4*ozPWR684Z-Wqv7Jrs5Iq9wc4wnRn4*QVgiXRq',
  strRoomId: 'Room:#64 chars {official} tool [fixture] ~ max length strRoomId!',
};
const asOfficial = { sdkAppId: OFFICIAL.sdkAppId, userId: OFFICIAL.userId, secretKey: OFFICIAL.secretKey, now: OFFICIAL.time };
const escape = (b64: string): string => b64.replace(/\+/g, '*').replace(/\//g, '-').replace(/=/g, '_');

describe('38.1 tokens are not userSigs (the library side)', () => {
  it('38.1 tokens are not userSigs: verifyUserSig refuses a privateMapKey, the official tool\'s too, and accepts the official userSig', async () => {
    expect(await verifyUserSig({ ...asOfficial, sig: OFFICIAL.userSig })).toMatchObject({ ok: true });
    for (const key of [OFFICIAL.key, OFFICIAL.strKey]) {
      const asSig = await verifyUserSig({ ...asOfficial, sig: key });
      expect(asSig).toMatchObject({ ok: false, reason: 'not-a-usersig' });
      expect(asSig.ok ? '' : asSig.message).toMatch(/privateMapKey.*not a userSig/);
      // It is still a good privateMapKey.
      expect(await verifyPrivateMapKey({ ...asOfficial, key })).toMatchObject({ ok: true });
    }
    const ours = await genPrivateMapKey({ sdkAppId: 1400000000, secretKey: 'k'.repeat(32), userId: 'bob', roomId: 7, privilegeMap: PRIVILEGE.ALL });
    expect(await verifyUserSig({ sig: ours, sdkAppId: 1400000000, userId: 'bob', secretKey: 'k'.repeat(32) })).toMatchObject({ ok: false, reason: 'not-a-usersig' });
  });

  it('38.1 a userSig carrying a userbuf that is not a privateMapKey\'s still verifies', async () => {
    const sig = await genUserSig({ sdkAppId: 1400000000, secretKey: 'k'.repeat(32), userId: 'carol', userbuf: new TextEncoder().encode('app data') });
    expect(await verifyUserSig({ sig, sdkAppId: 1400000000, userId: 'carol', secretKey: 'k'.repeat(32) })).toMatchObject({ ok: true });
  });
});

describe('38.4 bounded decoding (the library side)', () => {
  it('38.4 bounded decoding: the official tool\'s longest userSig and privateMapKeys fit the length cap with room to spare', () => {
    for (const sig of [OFFICIAL.userSig, OFFICIAL.key, OFFICIAL.strKey]) {
      expect(sig.length).toBeLessThanOrEqual(MAX_USERSIG_LENGTH / 2);
      expect(decodeUserSig(sig).userId).toBe(OFFICIAL.userId);
    }
    expect(MAX_USERSIG_LENGTH).toBe(1024);
  });

  it('38.4 bounded decoding: a userSig longer than real ones need is refused before it is decoded', async () => {
    // Well signed, but with a userbuf no TRTC credential carries: 2 KB of text.
    const sig = await genUserSig({ sdkAppId: 1400000000, secretKey: 'k'.repeat(32), userId: 'dave', userbuf: randomBytes(1500) });
    expect(sig.length).toBeGreaterThan(MAX_USERSIG_LENGTH);
    const r = await verifyUserSig({ sig, sdkAppId: 1400000000, userId: 'dave', secretKey: 'k'.repeat(32) });
    expect(r).toMatchObject({ ok: false, reason: 'malformed' });
    expect(r.ok ? '' : r.message).toMatch(/at most 1024 are accepted/);
  });

  it('38.4 bounded decoding: a zlib bomb under the length cap stops inflating at 4 KiB', () => {
    // 600 KB of JSON that deflates to well under 1024 characters.
    const bomb = escape(deflateSync(Buffer.from(`{"TLS.ver":"2.0","pad":"${'a'.repeat(600_000)}"}`), { level: 9 }).toString('base64'));
    expect(bomb.length).toBeLessThanOrEqual(MAX_USERSIG_LENGTH);
    expect(() => decodeUserSig(bomb)).toThrow(/inflates to more than 4096 bytes/);
  });
});

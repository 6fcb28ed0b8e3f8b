import { createHmac } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeUserSig, genUserSig, verifyUserSig } from './index.js';

const SDK_APP_ID = 1400000000;
const SECRET = 'conclave-test-secret-key';
const NOW = 1700000000;

/** Undo the TLSSigAPIv2 URL-safe alphabet, as the original tool's base64url.unescape does. */
function unescape(sig: string): Buffer {
  return Buffer.from(sig.replace(/\*/g, '+').replace(/-/g, '/').replace(/_/g, '='), 'base64');
}

/** The original tool's genSig, with node:crypto and node:zlib (see tls-sig-api-v2-node TLSSigAPIv2.js). */
function originalGenSig(sdkappid: number | string, key: string, userid: string, now: number | string, expire: number | string, userBuf?: Buffer): string {
  const doc: Record<string, unknown> = {
    'TLS.ver': '2.0',
    'TLS.identifier': userid,
    'TLS.sdkappid': sdkappid,
    'TLS.time': now,
    'TLS.expire': expire,
  };
  let content = `TLS.identifier:${userid}\nTLS.sdkappid:${sdkappid}\nTLS.time:${now}\nTLS.expire:${expire}\n`;
  if (userBuf) {
    doc['TLS.userbuf'] = userBuf.toString('base64');
    content += `TLS.userbuf:${userBuf.toString('base64')}\n`;
  }
  doc['TLS.sig'] = createHmac('sha256', key).update(content).digest('base64');
  return deflateSync(Buffer.from(JSON.stringify(doc))).toString('base64').replace(/\+/g, '*').replace(/\//g, '-').replace(/=/g, '_');
}

describe('genUserSig / verifyUserSig', () => {
  it('round-trips', async () => {
    const sig = await genUserSig({ sdkAppId: SDK_APP_ID, secretKey: SECRET, userId: 'alice' });
    const r = await verifyUserSig({ sig, sdkAppId: SDK_APP_ID, userId: 'alice', secretKey: SECRET });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.userId).toBe('alice');
    expect(r.sdkAppId).toBe(SDK_APP_ID);
    expect(r.expire).toBe(604800);
    expect(r.expiresAt).toBe(r.time + 604800);
    expect(Math.abs(r.time - Date.now() / 1000)).toBeLessThan(5);
    expect(r.userbuf).toBeUndefined();
  });

  it('round-trips a custom userbuf and non-ASCII ids and keys', async () => {
    const userbuf = new Uint8Array([0, 1, 2, 250, 255]);
    const secretKey = 'clé-秘密';
    const sig = await genUserSig({ sdkAppId: 7, secretKey, userId: 'ユーザー', userbuf, now: NOW, expire: 10 });
    const r = await verifyUserSig({ sig, sdkAppId: 7, userId: 'ユーザー', secretKey, now: NOW + 10 });
    expect(r).toEqual({ ok: true, userId: 'ユーザー', sdkAppId: 7, time: NOW, expire: 10, expiresAt: NOW + 10, userbuf });
  });

  it('produces the exact TLSSigAPIv2 document, byte-compatible with the original tool (fixed vector)', async () => {
    const sig = await genUserSig({ sdkAppId: SDK_APP_ID, secretKey: SECRET, userId: 'alice', now: NOW, expire: 86400 });
    // URL-safe alphabet only: no '+', '/' or '='.
    expect(sig).toMatch(/^[A-Za-z0-9*\-_]+$/);

    // Standard zlib (node:zlib) can inflate it once the alphabet is undone.
    const json = inflateSync(unescape(sig)).toString('utf8');
    const content = `TLS.identifier:alice\nTLS.sdkappid:${SDK_APP_ID}\nTLS.time:${NOW}\nTLS.expire:86400\n`;
    const expectedSig = createHmac('sha256', SECRET).update(content).digest('base64');
    // Known answer, so a change in the HMAC input is caught even if both sides changed.
    expect(expectedSig).toBe('ECIpaccwic+6SEga0WtTSMLpFIura+c/olKnthNo/10=');
    // Exactly these fields, in this order, with these JSON types.
    expect(json).toBe(
      `{"TLS.ver":"2.0","TLS.identifier":"alice","TLS.sdkappid":${SDK_APP_ID},"TLS.time":${NOW},` +
        `"TLS.expire":86400,"TLS.sig":"${expectedSig}"}`,
    );
    expect(Object.keys(JSON.parse(json))).toEqual([
      'TLS.ver',
      'TLS.identifier',
      'TLS.sdkappid',
      'TLS.time',
      'TLS.expire',
      'TLS.sig',
    ]);
    // Same document as the original tool's output.
    expect(inflateSync(unescape(originalGenSig(SDK_APP_ID, SECRET, 'alice', NOW, 86400))).toString('utf8')).toBe(json);

    const doc = decodeUserSig(sig);
    expect(doc).toEqual({
      version: '2.0',
      userId: 'alice',
      sdkAppId: SDK_APP_ID,
      time: NOW,
      expire: 86400,
      expiresAt: NOW + 86400,
      sig: expectedSig,
      signedContent: content,
    });
  });

  it('verifies a userSig made by the original Node tool (literal vector)', async () => {
    // Output of tls-sig-api-v2-node `new Api(1400000000, 'conclave-test-secret-key').genUserSig('alice', 86400)`
    // with Date.now() pinned to 1700000000 s.
    const sig =
      'eJyrVgrxCdYrSy1SslIy0jNQ0gHzM1NS80oy0zLBwok5mcmpUInilOzEgoLMFCUrQxMDKIDIlGTmpipZGZqjiqZWFGQWpSpZWZiZwISKM9OVrJRcnT0LEpOTyzOTtc2CXdMTDcJLQoJ9fQrcPEuLErWT9fNzvPNKMvzy9Q0NbJVqAYsZMJw_';
    expect(originalGenSig(SDK_APP_ID, SECRET, 'alice', NOW, 86400)).toBe(sig);
    const r = await verifyUserSig({ sig, sdkAppId: SDK_APP_ID, userId: 'alice', secretKey: SECRET, now: NOW + 100 });
    expect(r).toEqual({ ok: true, userId: 'alice', sdkAppId: SDK_APP_ID, time: NOW, expire: 86400, expiresAt: NOW + 86400 });
  });

  it('accepts sdkappid, time and expire as numeric strings', async () => {
    const sig = originalGenSig(String(SDK_APP_ID), SECRET, 'bob', String(NOW), '3600');
    const r = await verifyUserSig({ sig, sdkAppId: SDK_APP_ID, userId: 'bob', secretKey: SECRET, now: NOW });
    expect(r).toMatchObject({ ok: true, sdkAppId: SDK_APP_ID, time: NOW, expire: 3600, expiresAt: NOW + 3600 });
  });

  it('accepts a sig without base64 padding', async () => {
    const sig = (await genUserSig({ sdkAppId: SDK_APP_ID, secretKey: SECRET, userId: 'alice', now: NOW })).replace(/_+$/, '');
    const r = await verifyUserSig({ sig, sdkAppId: SDK_APP_ID, userId: 'alice', secretKey: SECRET, now: NOW });
    expect(r.ok).toBe(true);
  });

  it('is valid up to and including time + expire', async () => {
    const sig = await genUserSig({ sdkAppId: SDK_APP_ID, secretKey: SECRET, userId: 'alice', now: NOW, expire: 60 });
    const at = (now: number) => verifyUserSig({ sig, sdkAppId: SDK_APP_ID, userId: 'alice', secretKey: SECRET, now });
    expect((await at(NOW + 60)).ok).toBe(true);
    expect(await at(NOW + 61)).toMatchObject({ ok: false, reason: 'expired' });
  });

  it('rejects invalid options with TypeError/RangeError', async () => {
    const base = { sdkAppId: SDK_APP_ID, secretKey: SECRET, userId: 'alice' };
    await expect(genUserSig({ ...base, secretKey: '' })).rejects.toThrow(TypeError);
    await expect(genUserSig({ ...base, userId: '' })).rejects.toThrow(TypeError);
    await expect(genUserSig({ ...base, sdkAppId: 1.5 })).rejects.toThrow(TypeError);
    await expect(genUserSig({ ...base, sdkAppId: -1 })).rejects.toThrow(RangeError);
    await expect(genUserSig({ ...base, expire: -5 })).rejects.toThrow(RangeError);
    await expect(verifyUserSig({ sig: 'x', ...base, secretKey: '' })).rejects.toThrow(TypeError);
  });
});

import { createHmac } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeUserSig, genUserSig, UserSigError, verifyUserSig, type VerifyFailure, type VerifyResult } from './index.js';

const SDK_APP_ID = 1400000000;
const SECRET = 'conclave-test-secret-key';
const NOW = 1700000000;

const escape = (b64: string): string => b64.replace(/\+/g, '*').replace(/\//g, '-').replace(/=/g, '_');
/** Wraps arbitrary bytes the way a userSig is wrapped (zlib + URL-safe base64). */
const wrap = (data: string | Buffer): string => escape(deflateSync(Buffer.from(data)).toString('base64'));

function signedDoc(fields: Record<string, unknown>, key = SECRET): Record<string, unknown> {
  const content =
    `TLS.identifier:${String(fields['TLS.identifier'])}\nTLS.sdkappid:${String(fields['TLS.sdkappid'])}\n` +
    `TLS.time:${String(fields['TLS.time'])}\nTLS.expire:${String(fields['TLS.expire'])}\n`;
  return { ...fields, 'TLS.sig': createHmac('sha256', key).update(content).digest('base64') };
}

const goodFields = {
  'TLS.ver': '2.0',
  'TLS.identifier': 'alice',
  'TLS.sdkappid': SDK_APP_ID,
  'TLS.time': NOW,
  'TLS.expire': 3600,
};

function verify(sig: string, overrides: Partial<{ sdkAppId: number; userId: string; secretKey: string; now: number }> = {}) {
  return verifyUserSig({ sig, sdkAppId: SDK_APP_ID, userId: 'alice', secretKey: SECRET, now: NOW, ...overrides });
}

function expectFailure(r: VerifyResult, reason: VerifyFailure, message?: RegExp): void {
  expect(r.ok).toBe(false);
  if (r.ok) return;
  expect(r.reason).toBe(reason);
  if (message) expect(r.message).toMatch(message);
}

describe('verifyUserSig failures', () => {
  const good = () => genUserSig({ sdkAppId: SDK_APP_ID, secretKey: SECRET, userId: 'alice', now: NOW, expire: 3600 });

  it('sanity: the reference sig and the hand-built document verify', async () => {
    expect((await verify(await good())).ok).toBe(true);
    expect((await verify(wrap(JSON.stringify(signedDoc(goodFields))))).ok).toBe(true);
  });

  it('wrong key', async () => {
    expectFailure(await verify(await good(), { secretKey: 'another-key' }), 'wrong-key', /secret key/);
  });

  it('wrong sdkAppId', async () => {
    expectFailure(
      await verify(await good(), { sdkAppId: 1400000001 }),
      'mismatch',
      /^userSig was made for sdkAppId 1400000000, not 1400000001$/,
    );
  });

  it('wrong userId', async () => {
    expectFailure(await verify(await good(), { userId: 'bob' }), 'mismatch', /^userSig was made for userId 'alice', not 'bob'$/);
  });

  it('expired', async () => {
    const r = await verify(await good(), { now: NOW + 3601 });
    expectFailure(r, 'expired', /expired at 2023-11-14T23:13:20\.000Z/);
    if (!r.ok) expect(r.message).toMatch(/valid for 3600 s/);
  });

  it('tampered content (a longer expire with the old signature)', async () => {
    const doc = { ...signedDoc(goodFields), 'TLS.expire': 999999 };
    expectFailure(await verify(wrap(JSON.stringify(doc))), 'wrong-key');
  });

  it('checks in order: mismatch before wrong-key, wrong-key before expired', async () => {
    const sig = await good();
    expectFailure(await verify(sig, { userId: 'bob', secretKey: 'x' }), 'mismatch');
    expectFailure(await verify(sig, { secretKey: 'x', now: NOW + 999999 }), 'wrong-key');
  });

  describe('malformed', () => {
    const cases: [string, string, RegExp][] = [
      ['empty string', '', /empty/],
      ['garbage', '!!! not a userSig !!!', /not valid base64/],
      ['impossible base64 length', 'abcde', /not valid base64/],
      ['valid base64 of non-zlib data', escape(Buffer.from('hello, this is not zlib').toString('base64')), /not zlib/],
      ['zlib of non-JSON', wrap('this is not JSON {'), /not contain valid JSON/],
      ['zlib of a JSON array', wrap('[1,2,3]'), /JSON object/],
      ['zlib of non-UTF-8', wrap(Buffer.from([0xff, 0xfe, 0x80])), /UTF-8/],
      ['too long', 'A'.repeat(2000), /at most 1024/],
    ];
    for (const field of Object.keys(goodFields).concat('TLS.sig')) {
      const doc = signedDoc(goodFields);
      delete doc[field];
      cases.push([`JSON missing ${field}`, wrap(JSON.stringify(doc)), new RegExp(`missing the ${field.replace('.', '\\.')} field`)]);
    }
    cases.push(
      ['identifier not a string', wrap(JSON.stringify(signedDoc({ ...goodFields, 'TLS.identifier': 42 }))), /TLS\.identifier should be a string/],
      ['sdkappid not numeric', wrap(JSON.stringify(signedDoc({ ...goodFields, 'TLS.sdkappid': 'abc' }))), /TLS\.sdkappid should be a non-negative integer/],
      ['negative time', wrap(JSON.stringify(signedDoc({ ...goodFields, 'TLS.time': -1 }))), /TLS\.time/],
      ['fractional expire', wrap(JSON.stringify(signedDoc({ ...goodFields, 'TLS.expire': 1.5 }))), /TLS\.expire/],
      ['unsupported version', wrap(JSON.stringify(signedDoc({ ...goodFields, 'TLS.ver': '1.0' }))), /unsupported TLS\.ver/],
      ['TLS.sig not base64', wrap(JSON.stringify({ ...goodFields, 'TLS.sig': 'not base64!' })), /TLS\.sig is not valid base64/],
      ['TLS.userbuf not a string', wrap(JSON.stringify({ ...signedDoc(goodFields), 'TLS.userbuf': 5 })), /TLS\.userbuf should be a string/],
    );

    for (const [name, sig, message] of cases) {
      it(name, async () => {
        expectFailure(await verify(sig), 'malformed', message);
        expect(() => decodeUserSig(sig)).toThrow(UserSigError);
        try {
          decodeUserSig(sig);
        } catch (e) {
          expect((e as UserSigError).reason).toBe('malformed');
        }
      });
    }

    it('corrupt zlib checksum / truncated stream', async () => {
      const raw = deflateSync(Buffer.from(JSON.stringify(signedDoc(goodFields))));
      const corrupt = Buffer.from(raw);
      corrupt[corrupt.length - 1] ^= 1;
      expectFailure(await verify(escape(corrupt.toString('base64'))), 'malformed', /zlib/);
      expectFailure(await verify(escape(raw.subarray(0, 5).toString('base64'))), 'malformed', /zlib/);
      expectFailure(await verify(escape(raw.subarray(0, raw.length - 6).toString('base64'))), 'malformed', /zlib/);
    });

    it('a non-string sig', async () => {
      expectFailure(await verify(42 as unknown as string), 'malformed', /must be a string/);
    });
  });
});

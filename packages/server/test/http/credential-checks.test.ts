import { createHmac } from 'node:crypto';
import { SERVER_CODE } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../src/auth/authenticator.js';
import { httpJson } from '../support/clients.js';
import { fileServer } from '../support/file-server.js';
import { mintMediaToken, PLAY_PRIVILEGES, verifyMediaToken } from '../../src/whep/media-token.js';

const APP = { sdkAppId: 1400380007, secretKey: 'credential-checks-secret-0123456' };
const CHECKS = 3;

describe('38.4 bounded decoding: credential checks per address', () => {
  const file = fileServer({ apps: [APP], limits: { credentialChecksPerMinute: CHECKS } });
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);

  it('38.4 bounded decoding: scheduling answers RATE_LIMITED past limits.credentialChecksPerMinute requests from one address, before reading the userSig', async () => {
    const userSig = await genUserSig({ ...APP, userId: 'sch' });
    const schedule = (sig: string) => httpJson(`${file.server.url}/api/v1/config`, { method: 'POST', body: form({ sdkAppId: String(APP.sdkAppId), userId: 'sch', userSig: sig, groupId: '1', isStrGroupId: 'false', sdkVersion: '5.10.1' }) });
    expect((await schedule(userSig)).body.code).toBe(0);
    // A 15 KB userSig (the body limit is 16 KiB) is refused as malformed at once: it is not decoded.
    expect((await schedule('eJ'.padEnd(15 * 1024, 'A'))).body.code).toBe(SERVER_CODE.USERSIG_MALFORMED);
    expect((await schedule(userSig)).body.code).toBe(0);
    const limited = await schedule(userSig);
    expect(limited.status).toBe(200);
    expect(limited.body).toMatchObject({ code: SERVER_CODE.RATE_LIMITED, msg: `too many scheduling requests from this address (${CHECKS} per minute)` });
  });

  it('38.4 bounded decoding: the AI-denoise authorisation answers errCode 3 past limits.credentialChecksPerMinute requests from one address', async () => {
    const userSig = await genUserSig({ ...APP, userId: 'den' });
    const query = new URLSearchParams({ sdkAppId: String(APP.sdkAppId), userId: 'den', userSig, timestamp: '1700000000' });
    for (let i = 0; i < CHECKS; i++) expect((await httpJson(`${file.server.url}/api/v1/audioAiAuth?${query}`)).body).toMatchObject({ data: { status: 1 } });
    expect((await httpJson(`${file.server.url}/api/v1/audioAiAuth?${query}`)).body).toMatchObject({ data: { errCode: 3, status: 0, sign: '' } });
    // The POST form shares the budget.
    expect((await httpJson(`${file.server.url}/api/v1/audioAiAuth`, { method: 'POST', body: query })).body).toMatchObject({ data: { errCode: 3, status: 0 } });
  });

  it('38.4 bounded decoding: WHEP/WHIP token checks from an address are limited (429) when the caller names the address', async () => {
    const auth = new Authenticator([APP], { credentialChecksPerMinute: CHECKS, failedJoinsPerMinute: 30 });
    const room = { roomId: '5', isString: false };
    const bearer = `Bearer ${await mintMediaToken({ ...APP, userId: 'viewer', room, purpose: 'play' })}`;
    for (let i = 0; i < CHECKS; i++) await verifyMediaToken(auth, bearer, APP.sdkAppId, room, PLAY_PRIVILEGES.main, '198.51.100.9');
    await expect(verifyMediaToken(auth, bearer, APP.sdkAppId, room, PLAY_PRIVILEGES.main, '198.51.100.9')).rejects.toMatchObject({ status: 429, code: SERVER_CODE.RATE_LIMITED });
    // Another address has its own budget.
    expect(await verifyMediaToken(auth, bearer, APP.sdkAppId, room, PLAY_PRIVILEGES.main, '198.51.100.10')).toMatchObject({ userId: 'viewer' });
  });
});

describe('38.low credentials in URLs', () => {
  const file = fileServer({ apps: [APP] });

  it('38.low credentials in URLs: the AI-denoise authorisation takes its fields as a POST form body (the GET still works)', async () => {
    const fields = { sdkAppId: String(APP.sdkAppId), userId: 'den', userSig: await genUserSig({ ...APP, userId: 'den' }), timestamp: '1700000000' };
    const sign = createHmac('sha256', APP.secretKey).update(`${APP.sdkAppId}:den:1700000000`).digest('hex');
    const posted = await httpJson(`${file.server.url}/api/v1/audioAiAuth`, { method: 'POST', body: new URLSearchParams(fields) });
    expect(posted.body).toEqual({ data: { errCode: 0, errMsg: '', sign, status: 1 } });
    expect((await httpJson(`${file.server.url}/api/v1/audioAiAuth`, { method: 'POST', body: new URLSearchParams({ ...fields, userSig: 'forged' }) })).body).toMatchObject({ data: { errCode: 1, status: 0 } });
    expect((await httpJson(`${file.server.url}/api/v1/audioAiAuth`, { method: 'POST', body: new URLSearchParams({ sdkAppId: fields.sdkAppId }) })).body).toMatchObject({ data: { errCode: 1, status: 0 } });
    expect((await httpJson(`${file.server.url}/api/v1/audioAiAuth?${new URLSearchParams(fields)}`)).body).toMatchObject({ data: { status: 1, sign } });
  });
});

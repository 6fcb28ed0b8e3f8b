import { SERVER_CODE } from '@conclave/protocol';
import { genPrivateMapKey, genUserSig, PRIVILEGE } from '@conclave/usersig';
import { describe, expect, it } from 'vitest';
import { httpJson, joinData, WsClient } from '../support/clients.js';
import { fileServer } from '../support/file-server.js';
import { mintMediaToken, PLAY_PRIVILEGES, PUBLISH_PRIVILEGES, verifyMediaToken } from '../../src/whep/media-token.js';
import { Authenticator } from '../../src/auth/authenticator.js';

const APP = { sdkAppId: 1400380001, secretKey: 'credentials-test-secret-key-0123' };
const room = (roomId: string) => ({ roomId, isString: false });

describe('38.1 tokens are not userSigs', () => {
  const file = fileServer({ apps: [APP] });

  const join = async (userId: string, roomId: string, extra: Record<string, unknown>) => {
    const client = await WsClient.connect(file.server);
    file.clients.push(client);
    return client.request('join', await joinData(APP, userId, roomId, extra));
  };
  const schedule = async (userId: string, userSig: string) => (await httpJson(`${file.server.url}/api/v1/config`, {
    method: 'POST', body: new URLSearchParams({ sdkAppId: String(APP.sdkAppId), userId, userSig, groupId: '9999', isStrGroupId: 'false', sdkVersion: '5.10.1' }),
  })).body;
  const aiAuth = async (userId: string, userSig: string) => (await httpJson(`${file.server.url}/api/v1/audioAiAuth?${new URLSearchParams({ sdkAppId: String(APP.sdkAppId), userId, userSig, timestamp: '1700000000' })}`)).body;

  it('38.1 tokens are not userSigs: a WHEP play token for room 1234 is refused as the userSig of a join to room 9999, of scheduling and of the AI-denoise authorisation', async () => {
    const token = await mintMediaToken({ ...APP, userId: 'viewer', room: room('1234'), purpose: 'play' });
    expect(await join('viewer', '9999', { userSig: token })).toMatchObject({ code: SERVER_CODE.USERSIG_WRONG_KEY });
    // Nor in its own room, and nor as a join's privateMapKey.
    expect(await join('viewer', '1234', { userSig: token })).toMatchObject({ code: SERVER_CODE.USERSIG_WRONG_KEY });
    expect(await join('viewer', '1234', { privateMapKey: token })).toMatchObject({ code: SERVER_CODE.PRIVATE_MAP_KEY_INVALID });
    expect(await schedule('viewer', token)).toMatchObject({ code: SERVER_CODE.USERSIG_WRONG_KEY });
    expect(await aiAuth('viewer', token)).toMatchObject({ data: { errCode: 1, status: 0, sign: '' } });
    // A WHIP publish token neither.
    const publish = await mintMediaToken({ ...APP, userId: 'obs', room: room('1234'), purpose: 'publish' });
    expect(await join('obs', '9999', { userSig: publish })).toMatchObject({ code: SERVER_CODE.USERSIG_WRONG_KEY });
    expect(file.server.stats().users).toBe(0);
  });

  it('38.1 tokens are not userSigs: a privateMapKey made with the app secret is refused as a userSig (USERSIG_INVALID) and keeps working as the privateMapKey', async () => {
    const key = await genPrivateMapKey({ ...APP, userId: 'ann', roomId: 1234, privilegeMap: PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO });
    const asSig = await join('ann', '9999', { userSig: key });
    expect(asSig.code).toBe(SERVER_CODE.USERSIG_INVALID);
    expect(asSig.message).toMatch(/privateMapKey, not a userSig/);
    expect(await schedule('ann', key)).toMatchObject({ code: SERVER_CODE.USERSIG_INVALID });
    expect(await aiAuth('ann', key)).toMatchObject({ data: { errCode: 1, status: 0 } });
    // With the user's userSig, the key is what it always was.
    expect(await join('ann', '1234', { privateMapKey: key })).toMatchObject({ code: 0 });
    expect(await schedule('ann', await genUserSig({ ...APP, userId: 'ann' }))).toMatchObject({ code: 0 });
  });

  it('38.1 media tokens play and publish where they were minted for; a privateMapKey of the app still does too', async () => {
    const auth = new Authenticator([APP]);
    const bearer = (t: string) => `Bearer ${t}`;
    const play = await mintMediaToken({ ...APP, userId: 'viewer', room: room('1234'), purpose: 'play' });
    expect(await verifyMediaToken(auth, bearer(play), APP.sdkAppId, room('1234'), PLAY_PRIVILEGES.main)).toMatchObject({ userId: 'viewer' });
    await expect(verifyMediaToken(auth, bearer(play), APP.sdkAppId, room('9999'), PLAY_PRIVILEGES.main)).rejects.toMatchObject({ status: 401, code: SERVER_CODE.PRIVATE_MAP_KEY_WRONG_ROOM });
    await expect(verifyMediaToken(auth, bearer(play), APP.sdkAppId, room('1234'), PUBLISH_PRIVILEGES)).rejects.toMatchObject({ status: 403 });
    const publish = await mintMediaToken({ ...APP, userId: 'obs', room: { roomId: 'stage', isString: true }, purpose: 'publish' });
    expect(await verifyMediaToken(auth, bearer(publish), APP.sdkAppId, { roomId: 'stage', isString: true }, PUBLISH_PRIVILEGES)).toMatchObject({ userId: 'obs' });
    const official = await genPrivateMapKey({ ...APP, userId: 'tool', roomId: 1234, privilegeMap: PRIVILEGE.RECV_VIDEO });
    expect(await verifyMediaToken(auth, bearer(official), APP.sdkAppId, room('1234'), PLAY_PRIVILEGES.main)).toMatchObject({ userId: 'tool' });
    // Forged with another secret: refused either way.
    const forged = await mintMediaToken({ ...APP, secretKey: 'not-the-app-secret-0000000000000', userId: 'viewer', room: room('1234'), purpose: 'play' });
    await expect(verifyMediaToken(auth, bearer(forged), APP.sdkAppId, room('1234'), PLAY_PRIVILEGES.main)).rejects.toMatchObject({ status: 401, code: SERVER_CODE.PRIVATE_MAP_KEY_INVALID });
  });
});

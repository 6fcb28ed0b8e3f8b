import { FLAG, SERVER_CODE } from '@conclave/protocol';
import { genPrivateMapKey, PRIVILEGE } from '@conclave/usersig';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../../src/context.js';
import { joinData } from '../support/clients.js';
import { waitFor, whepPlayer, whipClient } from '../support/engine-peers.js';
import { sessionClient } from '../support/session-client.js';
import { publishMedia } from '../support/session-media.js';
import { closeEmbeddedContext, embeddedContext, whepServer } from '../support/test-context.js';
import type { WhepApi } from '../../src/whep/whep-api.js';
import { mintMediaToken } from '../../src/whep/media-token.js';

/*
 * WHEP playback and WHIP ingest against the rights of their tokens and of the rooms (issue 38.9 and its Low items):
 * a player gets only what its token may receive of what the source may send; bans and billing apply, and a ban
 * ends the user's sessions in the room; the token travels in the Authorization header only, never in a URL.
 */

const APP = { sdkAppId: 1400000391, secretKey: 'whep-rights-app-secret-key-0123456' };
const BROKE = { sdkAppId: 1400000392, secretKey: 'whep-rights-broke-secret-key-01234', billing: 'no-package' as const };
const PLAY = PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO | PRIVILEGE.RECV_SUB_VIDEO;
const PUBLISH = PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO | PRIVILEGE.SEND_VIDEO;

describe('WHEP / WHIP and the rights of tokens and rooms', () => {
  let ctx: ServerContext;
  let api: WhepApi;
  let base: string;
  const logs: string[] = [];
  const cleanups: (() => unknown)[] = [];

  beforeAll(async () => {
    ctx = embeddedContext({ apps: [APP, BROKE] }, { logger: pino({ level: 'debug' }, { write: (line: string) => { logs.push(line); } }) });
    const server = await whepServer(ctx);
    ({ api, base } = server);
    cleanups.push(() => closeEmbeddedContext(ctx), server.close);
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  const token = (app: { sdkAppId: number; secretKey: string }, userId: string, roomId: number, privilegeMap: number) =>
    genPrivateMapKey({ sdkAppId: app.sdkAppId, secretKey: app.secretKey, userId, roomId, privilegeMap, expire: 3600 });

  const post = (path: string, offer: string, bearer: string | undefined, query = '') => fetch(`${base}${path}${query}`, {
    method: 'POST', headers: { 'content-type': 'application/sdp', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) }, body: offer,
  });

  /** A user of `roomId` publishing real audio and video (`flag`: what its flags say), joined with `privateMapKey` when given. */
  async function publisher(userId: string, roomId: number, flag = FLAG.AUDIO | FLAG.VIDEO, privateMapKey?: string): Promise<void> {
    const c = sessionClient(ctx);
    const reply = await c.send('join', await joinData(APP, userId, String(roomId), privateMapKey ? { privateMapKey } : {}));
    expect(reply.code, reply.message).toBe(0);
    cleanups.push(await publishMedia(c, flag));
  }

  /** Plays `userId` of `roomId` with a token of `privileges`; resolves once video flows, with the player's counts of RTP by kind. */
  async function play(viewer: string, userId: string, roomId: number, privileges: number): Promise<{ counts: { audio: number; video: number }; location: string }> {
    const player = await whepPlayer();
    cleanups.push(() => player.pc.close());
    const res = await post(`/whep/v1/${APP.sdkAppId}/rooms/${roomId}/users/${userId}`, player.offer, await token(APP, viewer, roomId, privileges));
    const answer = await res.text();
    expect(res.status, answer).toBe(201);
    await player.pc.setRemoteDescription({ type: 'answer', sdp: answer });
    await waitFor(() => player.byKind.video > 25, 15_000, 'video at the player');
    return { counts: player.byKind, location: res.headers.get('location') ?? '' };
  }

  it('38.9 a WHEP player gets only what its token may receive (RECV bits) of what the source may send (SEND bits)', async () => {
    await publisher('anchor', 3901);
    // A token with RECV_VIDEO only: the video, never the audio.
    expect((await play('eyes', 'anchor', 3901, PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_VIDEO)).counts.audio).toBe(0);
    // A source whose privateMapKey lets it send video only, though its client sends audio too: no audio leaves.
    await publisher('mute', 3902, FLAG.VIDEO, await token(APP, 'mute', 3902, PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_VIDEO));
    expect((await play('ears', 'mute', 3902, PLAY)).counts.audio).toBe(0);
    // Both bits there: the audio flows (the rule is not "never audio").
    const { counts } = await play('all', 'anchor', 3901, PLAY);
    await waitFor(() => counts.audio > 0, 5000, 'audio at a player whose token receives it');
  });

  it('38.1 a media token the server minted plays (with its play bits) though it is no userSig', async () => {
    await publisher('minted-anchor', 3905);
    const player = await whepPlayer();
    cleanups.push(() => player.pc.close());
    const minted = await mintMediaToken({ ...APP, userId: 'minted-viewer', room: { roomId: '3905', isString: false }, purpose: 'play' });
    const res = await post(`/whep/v1/${APP.sdkAppId}/rooms/3905/users/minted-anchor`, player.offer, minted);
    const answer = await res.text();
    expect(res.status, answer).toBe(201);
    await player.pc.setRemoteDescription({ type: 'answer', sdp: answer });
    await waitFor(() => player.byKind.video > 10 && player.byKind.audio > 0, 15_000, 'audio and video at a minted token\'s player');
  });

  it('38.low a ban ends the user\'s WHEP playback and WHIP publish in the room (admin and cluster bans) and refuses new ones', async () => {
    await publisher('host', 3903);
    const viewing = await play('viewer', 'host', 3903, PLAY);
    const now = Date.now();
    const before = api.size;
    ctx.bans.ban({ sdkAppId: APP.sdkAppId, roomRef: '3903', userId: 'viewer', until: now + 60_000, reason: '', createdAt: now });
    await waitFor(() => api.size === before - 1, 2000, 'the banned viewer\'s playback ended');
    expect((await fetch(`${base}${viewing.location}`, { method: 'DELETE' })).status).toBe(404);
    const again = await post(`/whep/v1/${APP.sdkAppId}/rooms/3903/users/host`, (await whepPlayer()).offer, await token(APP, 'viewer', 3903, PLAY));
    expect(again.status).toBe(403);
    expect(((await again.json()) as { code: number }).code).toBe(SERVER_CODE.USER_BANNED);

    // A WHIP publisher, banned by another node of a cluster (the ban arrives as applyBan): it leaves the room.
    const obs = await whipClient();
    cleanups.push(() => obs.pc.close());
    const published = await post(`/whip/v1/${APP.sdkAppId}/rooms/3904`, obs.offer, await token(APP, 'obs', 3904, PUBLISH));
    expect(published.status, await published.clone().text()).toBe(201);
    const room = () => ctx.rooms.find(`${APP.sdkAppId}:i:3904`);
    expect(room()?.get('obs')).toBeDefined();
    ctx.bans.applyBan({ sdkAppId: APP.sdkAppId, roomRef: '3904', userId: 'obs', until: now + 60_000, reason: '', createdAt: now });
    await waitFor(() => room()?.get('obs') === undefined, 2000, 'the banned WHIP publisher left');
    expect((await fetch(`${base}${published.headers.get('location') ?? ''}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('38.low billing applies to WHEP and WHIP: an app without a package plays and publishes nothing', async () => {
    const play = await post(`/whep/v1/${BROKE.sdkAppId}/rooms/3905/users/anyone`, (await whepPlayer()).offer, await token(BROKE, 'v', 3905, PLAY));
    expect(play.status).toBe(403);
    expect(((await play.json()) as { code: number }).code).toBe(SERVER_CODE.NEED_PACKAGE);
    const obs = await whipClient();
    cleanups.push(() => obs.pc.close());
    const publish = await post(`/whip/v1/${BROKE.sdkAppId}/rooms/3905`, obs.offer, await token(BROKE, 'obs', 3905, PUBLISH));
    expect(publish.status).toBe(403);
    expect(((await publish.json()) as { code: number }).code).toBe(SERVER_CODE.NEED_PACKAGE);
    expect(ctx.rooms.find(`${BROKE.sdkAppId}:i:3905`)).toBeUndefined();
  });

  it('38.low the token travels in the Authorization header only: ?access_token= is refused, and no token is ever logged', async () => {
    await publisher('star', 3906);
    const secret = await token(APP, 'fan', 3906, PLAY);
    const inUrl = await post(`/whep/v1/${APP.sdkAppId}/rooms/3906/users/star`, (await whepPlayer()).offer, undefined, `?access_token=${encodeURIComponent(secret)}`);
    expect(inUrl.status).toBe(401);
    const body = (await inUrl.json()) as { code: number; message: string };
    expect(body.code).toBe(SERVER_CODE.PRIVATE_MAP_KEY_REQUIRED);
    expect(body.message).toMatch(/Authorization: Bearer/);
    // The header form plays; neither request's token reaches the log.
    await play('fan', 'star', 3906, PLAY);
    expect(logs.some((line) => line.includes('WHEP playback started'))).toBe(true);
    expect(logs.filter((line) => line.includes(secret.slice(0, 24)))).toEqual([]);
  });
});

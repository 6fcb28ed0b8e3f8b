#!/usr/bin/env node
/**
 * Mints a WHEP (play) or WHIP (publish) token for an operator:
 * `CONCLAVE_SECRET_KEY=… node packages/server/dist/whep/mint-token.js <sdkAppId> <room> <userId> play|publish [expireSeconds]`
 * (`<room>`: the integer room id, or `s:` and the string room id). Prints the token: it plays (or publishes) in that
 * room and is refused as a userSig and as a join's privateMapKey (media-token.ts).
 */
import { parseRoomRef } from '../ids/room-ref.js';
import { mintMediaToken } from './media-token.js';

const [sdkAppId, room, userId, purpose, expire] = process.argv.slice(2);
const secretKey = process.env.CONCLAVE_SECRET_KEY;
const target = parseRoomRef(room ?? '');
if (!secretKey || !/^\d+$/.test(sdkAppId ?? '') || !target || !userId || (purpose !== 'play' && purpose !== 'publish') || (expire !== undefined && !/^\d+$/.test(expire))) {
  process.stderr.write('usage: CONCLAVE_SECRET_KEY=<app secret> mint-token <sdkAppId> <room | s:strRoom> <userId> play|publish [expireSeconds]\n');
  process.exit(2);
}
process.stdout.write(`${await mintMediaToken({ sdkAppId: Number(sdkAppId), secretKey, userId, room: target, purpose, ...(expire ? { expire: Number(expire) } : {}) })}\n`);

/**
 * The schema-aware signalling fuzz (issue 38 "Beyond the list"): every case of signal-mutations.ts sent in each of
 * three session states — before join, joined, after leave — on connections of their own, each message waiting for
 * its reply. Every reply must be coded: a code of the protocol's catalogues, never INTERNAL; data that fails the
 * command's schema is refused as INVALID_PARAMETER in every state; a valid command other than join, leave and
 * heartbeat is refused as NOT_JOINED outside a room. The other side of the check (the server up, other rooms
 * unaffected, the heap bounded) is the caller's.
 */
import { LIMITS, SERVER_CODE, type Command } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import type { Rng } from './prng.js';
import { KNOWN_CODES, SignalClient, type FuzzApp, type Reply } from './signal-client.js';
import { enumerateCases, envelopeExpectation, messageOf, schemaRejects, type FuzzCase, type TemplateContext } from './signal-mutations.js';

export const SESSION_STATES = ['before-join', 'joined', 'after-leave'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** Commands a session may send outside a room. */
const OUTSIDE_A_ROOM = new Set<Command>(['join', 'leave', 'heartbeat']);

export interface SignalFuzzFigures {
  /** Messages sent (each case once per state). */
  sent: number;
  byState: Record<SessionState, number>;
  byCommand: Partial<Record<Command, number>>;
  /** Reply codes seen, and how often. */
  codes: Record<string, number>;
  /** Messages the schema refuses (expected INVALID_PARAMETER). */
  invalid: number;
  /** Connections the server closed with a coded close (4xxx), and the session re-established after. */
  codedCloses: number;
  /** Messages whose reply broke a rule, with the rule and the case (empty on a clean run). */
  violations: string[];
}

/** One connection held in one session state; re-made when a message changed its state. */
class StateConnection {
  #client: SignalClient | undefined;
  #ctx: TemplateContext | undefined;
  #generation = 0;
  #inRoom = false;

  constructor(readonly baseUrl: string, readonly app: FuzzApp, readonly state: SessionState, readonly roomId: string, readonly otherRoomId: string) {}

  /** A connection in this state (a new user id each time, so no two generations collide). */
  async ready(): Promise<{ client: SignalClient; ctx: TemplateContext }> {
    if (this.#client?.open && this.#ctx && this.#inRoom === (this.state === 'joined')) return { client: this.#client, ctx: this.#ctx };
    if (this.#client?.open && this.#ctx && this.state === 'after-leave') {
      // A join that went through: leave again.
      await this.#client.request('leave', {});
      this.#inRoom = false;
      return { client: this.#client, ctx: this.#ctx };
    }
    this.#client?.close();
    const userId = `fz-${this.state}-${this.#generation++}`;
    const client = await SignalClient.connect(this.baseUrl);
    const ctx: TemplateContext = { sdkAppId: this.app.sdkAppId, userId, userSig: await genUserSig({ ...this.app, userId }), roomId: this.roomId, otherRoomId: this.otherRoomId };
    if (this.state !== 'before-join') {
      const join = await client.request('join', { sdkAppId: ctx.sdkAppId, userId, userSig: ctx.userSig, roomId: ctx.roomId, useStringRoomId: false, trtcRole: 20, trtcScene: 1, version: '5.17.1', ua: 'fuzz', terminalType: 15 });
      if (join.code !== 0) throw new Error(`${userId} could not join: ${join.code} ${join.message}`);
      if (this.state === 'after-leave') await client.request('leave', {});
    }
    this.#client = client;
    this.#ctx = ctx;
    this.#inRoom = this.state === 'joined';
    return { client, ctx };
  }

  /** Notes what a reply did to the session's state. */
  settle(cmd: Command, reply: Reply | undefined): void {
    if (!reply || reply.code !== 0) return;
    if (cmd === 'join') this.#inRoom = true;
    if (cmd === 'leave') this.#inRoom = false;
    // A join before join leaves a joined connection; a fresh one is made for the next message.
    if (this.state === 'before-join' && this.#inRoom) this.#client?.close();
  }

  close(): void {
    this.#client?.close();
  }
}

/** The cases of one run: all of them when `count` reaches their number (repeated), else a seeded sample. */
export function pickCases(rng: Rng, count: number): FuzzCase[] {
  const all = enumerateCases();
  const picked: FuzzCase[] = [];
  while (picked.length + all.length <= count) picked.push(...all);
  const rest = [...all];
  for (let i = rest.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [rest[i], rest[j]] = [rest[j], rest[i]];
  }
  picked.push(...rest.slice(0, count - picked.length));
  return picked;
}

/** Sends one case on a connection and checks its reply; returns the rule it broke, if any. */
async function sendCase(conn: StateConnection, c: FuzzCase, figures: SignalFuzzFigures): Promise<string | undefined> {
  const { client, ctx } = await conn.ready();
  const id = client.nextId();
  const text = messageOf(c, ctx, id);
  const oversized = Buffer.byteLength(text) > LIMITS.MAX_MESSAGE_BYTES;
  const expectation = c.kind === 'envelope' ? envelopeExpectation(c.mutation) : 'as-data';
  const unnumbered = oversized || expectation === 'unnumbered';
  const unnumberedBefore = client.unnumbered.length;
  client.sendRaw(text);
  figures.sent++;
  const reply = unnumbered
    ? await client.until(() => client.unnumbered[unnumberedBefore], 'an unnumbered reply')
    : await client.reply(id);
  if (!reply) {
    const code = await client.closed();
    if (code >= 4000 && code < 5000) {
      figures.codedCloses++;
      return undefined;
    }
    return `connection closed (${code}) without a reply`;
  }
  figures.codes[reply.code] = (figures.codes[reply.code] ?? 0) + 1;
  conn.settle(c.cmd, unnumbered ? undefined : reply);
  if (typeof reply.message !== 'string') return 'reply without a message';
  if (!KNOWN_CODES.has(reply.code)) return `code ${reply.code} is not in the catalogue`;
  if (reply.code === SERVER_CODE.INTERNAL) return `INTERNAL: ${reply.message}`;
  if (oversized) return reply.code === SERVER_CODE.MESSAGE_TOO_LARGE ? undefined : `oversized message answered ${reply.code}`;
  if (expectation === 'unnumbered') return reply.code === SERVER_CODE.BAD_REQUEST ? undefined : `unreadable envelope answered ${reply.code}`;
  if (expectation === 'unknown-command') return reply.code === SERVER_CODE.UNKNOWN_COMMAND ? undefined : `unknown command answered ${reply.code}`;
  if (schemaRejects(c.cmd, text)) {
    figures.invalid++;
    return reply.code === SERVER_CODE.INVALID_PARAMETER ? undefined : `data the schema refuses answered ${reply.code} ${reply.message}`;
  }
  if (conn.state !== 'joined' && !OUTSIDE_A_ROOM.has(c.cmd) && reply.code !== SERVER_CODE.NOT_JOINED) {
    return `${c.cmd} outside a room answered ${reply.code} ${reply.message}`;
  }
  return undefined;
}

export interface SignalFuzzOptions {
  baseUrl: string;
  app: FuzzApp;
  /** Rooms of `app` the fuzz's sessions use: one per state, and the target of switch-room and cross-room. */
  rooms: Record<SessionState, string>;
  otherRoomId: string;
  rng: Rng;
  /** Cases sent in each state. */
  cases: number;
}

/** Runs the cases in every state (the states side by side, each connection one message at a time). */
export async function runSignalSchemaFuzz(options: SignalFuzzOptions, figures: SignalFuzzFigures = emptySignalFigures()): Promise<SignalFuzzFigures> {
  const cases = pickCases(options.rng, options.cases);
  await Promise.all(SESSION_STATES.map(async (state) => {
    const conn = new StateConnection(options.baseUrl, options.app, state, options.rooms[state], options.otherRoomId);
    try {
      for (const c of cases) {
        const broken = await sendCase(conn, c, figures);
        figures.byState[state]++;
        figures.byCommand[c.cmd] = (figures.byCommand[c.cmd] ?? 0) + 1;
        if (broken) figures.violations.push(`${state} ${c.cmd} template ${c.template} ${c.path ? JSON.stringify(c.path) : '(root)'} ${c.mutation}: ${broken}`);
      }
    } finally {
      conn.close();
    }
  }));
  return figures;
}

export function emptySignalFigures(): SignalFuzzFigures {
  return { sent: 0, byState: { 'before-join': 0, joined: 0, 'after-leave': 0 }, byCommand: {}, codes: {}, invalid: 0, codedCloses: 0, violations: [] };
}

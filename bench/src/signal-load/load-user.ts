/**
 * One simulated user of the signalling load: joins a live-scene room (with the retry the admission asks
 * for), heartbeats every LIMITS.PING_INTERVAL_MS as the SDK does, toggles its publish flags (each change is a
 * publish-list push to everyone else in the room), switches role, and leaves.
 */
import { FLAG, LIMITS, PROTOCOL_VERSION, ROLE_CODE, SCENE_CODE, SERVER_CODE, TERMINAL_TYPE, type RoleCode } from '@conclave/protocol';
import { retryAfterMs } from './retry.js';
import { SignalClient, type Reply } from './signal-client.js';

/** Where a user goes and who it is. */
export interface UserPlan {
  serverUrl: string;
  sdkAppId: number;
  userId: string;
  userSig: string;
  roomId: number;
  role: RoleCode;
  /** Source address of the connection (127.x.y.z). */
  localAddress?: string;
}

/** The outcome of one join. */
export interface JoinOutcome {
  ok: boolean;
  /** From opening the WebSocket to the successful join reply, retries and their waits included, ms. */
  totalMs: number;
  /** The successful join request alone (send → reply), ms. */
  requestMs: number;
  /** "Retry later" answers followed. */
  retries: number;
  /** The failing code or error, when not ok. */
  failure?: string;
}

/** Gives up on a join after this many "retry later" answers. */
const MAX_JOIN_RETRIES = 20;

export class LoadUser {
  readonly plan: UserPlan;
  #client: SignalClient | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #flag = 0;
  role: RoleCode;
  /** Requests sent that failed (non-OK reply other than "retry later", or no reply). */
  failures = 0;
  /** What the last failure was. */
  lastFailure: string | undefined;

  constructor(plan: UserPlan) {
    this.plan = plan;
    this.role = plan.role;
  }

  get joined(): boolean {
    return this.#client?.open === true && this.#heartbeat !== undefined;
  }

  /** Everything this user received so far (replies and pushes), over its connections. */
  readonly received = { replies: 0, pushes: 0 };

  /** Connects and joins, retrying as told; starts the heartbeat when joined. */
  async join(): Promise<JoinOutcome> {
    const started = performance.now();
    let retries = 0;
    try {
      const client = await SignalClient.connect(this.plan.serverUrl, { localAddress: this.plan.localAddress });
      this.#client = client;
      let ticket: string | undefined;
      for (;;) {
        const sent = performance.now();
        const reply = await client.request('join', this.#joinData(ticket), LIMITS.JOIN_TIMEOUT_MS * 2);
        const requestMs = performance.now() - sent;
        if (reply.code === SERVER_CODE.OK) {
          this.#startHeartbeat();
          return { ok: true, totalMs: performance.now() - started, requestMs, retries };
        }
        const wait = retryAfterMs(reply);
        if (wait === undefined || retries >= MAX_JOIN_RETRIES) return this.#joinFailed(started, retries, `${reply.code} ${reply.message}`);
        retries++;
        // Back with the ticket that holds its place, as the SDK does; without it each retry queues anew.
        const handed = (reply.data as Record<string, unknown> | undefined)?.ticket;
        ticket = typeof handed === 'string' ? handed : undefined;
        await new Promise((resolve) => setTimeout(resolve, wait)); // the server said when to retry
      }
    } catch (error) {
      return this.#joinFailed(started, retries, error instanceof Error ? error.message : String(error));
    }
  }

  /** Toggles the audio bit of the publish flags (anchors only: audience may not announce any). */
  async toggleFlag(): Promise<boolean> {
    if (this.role !== ROLE_CODE.anchor) return false;
    const next = this.#flag === 0 ? FLAG.AUDIO : 0;
    const ok = await this.#request('mute-flag', { flag: next });
    if (ok) this.#flag = next;
    return ok;
  }

  /** Switches between anchor and audience. */
  async switchRole(): Promise<boolean> {
    const role = this.role === ROLE_CODE.anchor ? ROLE_CODE.audience : ROLE_CODE.anchor;
    const ok = await this.#request('switch-role', { role });
    if (ok) {
      this.role = role;
      if (role === ROLE_CODE.audience) this.#flag = 0;
    }
    return ok;
  }

  /** Leaves the room and closes the connection. */
  async leave(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    this.#stopHeartbeat();
    if (client.open) await this.#request('leave', {});
    client.close(1000);
    await client.closed();
    this.#collect(client);
    this.#client = undefined;
    this.#flag = 0;
    this.role = this.plan.role;
  }

  /** Replies and pushes received on the current connection plus earlier ones. */
  counts(): { replies: number; pushes: number } {
    const current = this.#client?.received ?? { replies: 0, pushes: 0 };
    return { replies: this.received.replies + current.replies, pushes: this.received.pushes + current.pushes };
  }

  #collect(client: SignalClient): void {
    this.received.replies += client.received.replies;
    this.received.pushes += client.received.pushes;
  }

  #joinFailed(started: number, retries: number, failure: string): JoinOutcome {
    this.failures++;
    this.lastFailure = `join: ${failure}`;
    if (this.#client) {
      this.#client.close(1000);
      this.#collect(this.#client);
      this.#client = undefined;
    }
    return { ok: false, totalMs: performance.now() - started, requestMs: 0, retries, failure };
  }

  async #request(...args: Parameters<SignalClient['request']>): Promise<boolean> {
    const client = this.#client;
    if (!client?.open) return false;
    let reply: Reply;
    try {
      reply = await client.request(...args);
    } catch (error) {
      this.failures++;
      this.lastFailure = `${args[0]}: ${error instanceof Error ? error.message : String(error)}`;
      return false;
    }
    if (reply.code === SERVER_CODE.OK) return true;
    if (retryAfterMs(reply) === undefined) {
      this.failures++;
      this.lastFailure = `${args[0]}: ${reply.code} ${reply.message}`;
    }
    return false;
  }

  #joinData(admissionTicket?: string) {
    return {
      ...(admissionTicket === undefined ? {} : { admissionTicket }),
      sdkAppId: this.plan.sdkAppId, userId: this.plan.userId, userSig: this.plan.userSig, roomId: String(this.plan.roomId),
      useStringRoomId: false, trtcRole: this.plan.role, trtcScene: SCENE_CODE.live, version: '5.17.1',
      protocolVersion: PROTOCOL_VERSION, ua: 'conclave-signal-load', terminalType: TERMINAL_TYPE,
    } as const;
  }

  #startHeartbeat(): void {
    // Spread the first beat over the interval so thousands of users do not beat in step.
    const beat = () => void this.#request('heartbeat', {});
    this.#heartbeat = setTimeout(() => {
      beat();
      this.#heartbeat = setInterval(beat, LIMITS.PING_INTERVAL_MS);
    }, Math.random() * LIMITS.PING_INTERVAL_MS);
  }

  #stopHeartbeat(): void {
    clearTimeout(this.#heartbeat);
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}

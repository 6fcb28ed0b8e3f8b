import type TRTC from '@conclave/sdk';

type TRTCInstance = ReturnType<typeof TRTC.create>;

/**
 * The demo's room-control messages, a custom message with its own cmdId (chat is 1): a raised or lowered hand,
 * an invitation on stage, a request to mute. Custom messages go to everyone in the room, so a message that
 * names a user is for that user only, and only that user's demo acts on it. Nothing here is enforced: another
 * app in the room may ignore a request (the server's admin API can remove a user, not mute one).
 *
 * An audience member in a live room cannot send custom messages (docs/behaviour.md, SPEC "Custom message"), so a
 * hand is raised by switching to anchor *without publishing* first (the SDK lets any audience member switch)
 * and then saying so; an anchor who publishes nothing is still shown as watching.
 */
export const CONTROL_CMD_ID = 2;

export type ControlMessage =
  | { readonly t: 'hand'; readonly up: boolean }
  | { readonly t: 'invite'; readonly to: string }
  | { readonly t: 'mute'; readonly to: string };

/** A control message from the bytes of a custom message; null for anything else. */
export function parseControl(data: ArrayBuffer): ControlMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(data));
  } catch {
    return null; // another app's custom message on the same command id: not ours, as documented above
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  if (m.t === 'hand' && typeof m.up === 'boolean') return { t: 'hand', up: m.up };
  if ((m.t === 'invite' || m.t === 'mute') && typeof m.to === 'string') return { t: m.t, to: m.to };
  return null;
}

/** What the room shows of these messages: a notice per event, in words built by the UI. */
export interface ControlNotice {
  readonly id: number;
  /** `hand`: someone raised a hand; `muted`: I was asked to mute (and am); `invited`: I am invited on stage. */
  readonly kind: 'hand' | 'muted' | 'invited';
  readonly userId: string;
}

export interface ControlSnapshot {
  /** Remote users whose hand is up. */
  readonly hands: ReadonlySet<string>;
  readonly notices: readonly ControlNotice[];
}

export interface ControlHandlers {
  /** Someone asked me to mute. */
  onMuteRequest(from: string): void;
  /** Someone invited me on stage; true when it is taken up at once (my hand was up). */
  onInvite(from: string): boolean;
}

const RETRY_MS = 1000;
const MAX_TRIES = 10;
/** While my hand is up it is said again now and then, for a host who joined later or missed it. */
const REPEAT_MS = 8000;

/** Sends and receives room-control messages; keeps who has a hand up and the notices to show. */
export class RoomControl {
  private readonly trtc: TRTCInstance;
  private readonly userId: string;
  private readonly handlers: ControlHandlers;
  private readonly listeners = new Set<() => void>();
  private snapshot: ControlSnapshot = { hands: new Set(), notices: [] };
  private nextId = 1;
  private myHand = false;
  private repeat: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(trtc: TRTCInstance, userId: string, handlers: ControlHandlers) {
    this.trtc = trtc;
    this.userId = userId;
    this.handlers = handlers;
    trtc.on('custom-message', (message) => {
      if (message.cmdId !== CONTROL_CMD_ID || this.closed) return;
      const control = parseControl(message.data);
      if (control) this.receive(message.userId, control);
    });
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): ControlSnapshot => this.snapshot;

  /** Says my hand is up or down (retried while the data link opens); while up, said again now and then. */
  setMyHand(up: boolean): void {
    this.myHand = up;
    clearInterval(this.repeat);
    this.repeat = up ? setInterval(() => this.send({ t: 'hand', up: true }, 1), REPEAT_MS) : undefined;
    this.send({ t: 'hand', up });
  }

  /** A new user entered: tell them my hand is up. */
  userEntered(): void {
    if (this.myHand) this.send({ t: 'hand', up: true });
  }

  /** A user left, or went on stage: their hand is down. */
  clearHand(userId: string): void {
    if (!this.snapshot.hands.has(userId)) return;
    const hands = new Set(this.snapshot.hands);
    hands.delete(userId);
    this.update({ hands, notices: this.snapshot.notices.filter((n) => !(n.kind === 'hand' && n.userId === userId)) });
  }

  /** Invites a user on stage; returns the SDK's refusal in words (e.g. I am in the audience), or null. */
  invite(userId: string): string | null {
    return this.sendNow({ t: 'invite', to: userId });
  }

  /** Asks a user to mute; returns the SDK's refusal in words, or null. */
  askToMute(userId: string): string | null {
    return this.sendNow({ t: 'mute', to: userId });
  }

  dismiss(id: number): void {
    this.update({ notices: this.snapshot.notices.filter((n) => n.id !== id) });
  }

  /** The room is left: no more sends. */
  close(): void {
    this.closed = true;
    clearInterval(this.repeat);
  }

  private receive(from: string, message: ControlMessage): void {
    if (message.t === 'hand') {
      if (message.up === this.snapshot.hands.has(from)) return;
      if (!message.up) {
        this.clearHand(from);
        return;
      }
      const hands = new Set(this.snapshot.hands).add(from);
      this.update({ hands });
      this.notify('hand', from);
      return;
    }
    if (message.to !== this.userId) return;
    if (message.t === 'mute') {
      this.handlers.onMuteRequest(from);
      this.notify('muted', from);
    } else if (!this.handlers.onInvite(from)) {
      this.notify('invited', from);
    }
  }

  private sendNow(message: ControlMessage): string | null {
    try {
      this.trtc.sendCustomMessage({ cmdId: CONTROL_CMD_ID, data: new TextEncoder().encode(JSON.stringify(message)).buffer });
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Sends, and tries again a few times while the SDK refuses (the data link may still be opening). */
  private send(message: ControlMessage, tries = MAX_TRIES): void {
    if (this.closed) return;
    if (message.t === 'hand' && message.up !== this.myHand) return;
    if (this.sendNow(message) !== null && tries > 1) setTimeout(() => this.send(message, tries - 1), RETRY_MS);
  }

  private notify(kind: ControlNotice['kind'], userId: string): void {
    const notices = [...this.snapshot.notices.filter((n) => !(n.kind === kind && n.userId === userId)), { id: this.nextId++, kind, userId }];
    this.update({ notices: notices.slice(-4) });
  }

  private update(change: Partial<ControlSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}

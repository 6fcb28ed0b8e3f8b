import type { PushMessage, ReplyMessage } from '@conclave/protocol';
import type { SignalDeps } from '../signal/signal-deps.js';
import { SignalSession } from '../signal/session.js';

/** A signalling session on a recording transport: what the client sends, and everything it receives. */
export function sessionClient(deps: SignalDeps) {
  const out: (ReplyMessage | PushMessage)[] = [];
  let closed: string | undefined;
  const session = new SignalSession(deps, { send: (t) => out.push(JSON.parse(t) as ReplyMessage | PushMessage), close: (_c, r) => { closed = r; } });
  let id = 0;
  return {
    session,
    out,
    get closed() { return closed; },
    pushes: (name: string) => out.filter((m): m is PushMessage => 'push' in m && m.push === name),
    async send(cmd: string, data: unknown): Promise<ReplyMessage> {
      const requestId = ++id;
      await session.handle(JSON.stringify({ id: requestId, cmd, data }));
      return out.find((m): m is ReplyMessage => 'id' in m && m.id === requestId)!;
    },
  };
}

import type { PushMessage, ReplyMessage } from '@conclave/protocol';
import type { SignalDeps } from '../../src/signal/signal-deps.js';
import { SignalSession } from '../../src/signal/session.js';

/** A signalling session on a recording transport (from `address`, when given): what the client sends, and everything it receives. */
export function sessionClient(deps: SignalDeps, address?: string) {
  const out: (ReplyMessage | PushMessage)[] = [];
  let closed: string | undefined;
  let closeCode: number | undefined;
  const session = new SignalSession(deps, {
    send: (t) => out.push(JSON.parse(t) as ReplyMessage | PushMessage),
    close: (c, r) => { closed = r; closeCode = c; },
    ...(address === undefined ? {} : { address }),
  });
  let id = 0;
  return {
    session,
    out,
    get closed() { return closed; },
    get closeCode() { return closeCode; },
    pushes: (name: string) => out.filter((m): m is PushMessage => 'push' in m && m.push === name),
    async send(cmd: string, data: unknown): Promise<ReplyMessage> {
      const requestId = ++id;
      await session.handle(JSON.stringify({ id: requestId, cmd, data }));
      return out.find((m): m is ReplyMessage => 'id' in m && m.id === requestId)!;
    },
  };
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addLogSink, type LogEntry } from '../log/logger.js';
import { SignalChannel, SignalChannelError } from './signal-channel.js';

/** A WebSocket whose server side the test scripts (the only part faked: no server in a unit test). */
class FakeSocket {
  static OPEN = 1;
  static CLOSED = 3;
  static last: FakeSocket | undefined;
  readonly OPEN = 1;
  readyState = 0;
  sent: { id: number; cmd: string }[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;

  constructor() {
    FakeSocket.last = this;
    setTimeout(() => {
      this.readyState = 1;
      this.onopen?.();
    }, 0);
  }

  send(text: string): void {
    this.sent.push(JSON.parse(text) as { id: number; cmd: string });
  }

  close(): void {
    this.readyState = 3;
  }

  /** The server sends `data`. */
  reply(data: unknown): void {
    this.onmessage?.({ data });
  }
}

describe('signalling messages the SDK cannot parse', () => {
  const lines: LogEntry[] = [];
  let remove: () => void;
  beforeEach(() => {
    vi.stubGlobal('WebSocket', FakeSocket);
    lines.length = 0;
    remove = addLogSink((entry) => lines.push(entry));
  });
  afterEach(() => {
    remove();
    vi.unstubAllGlobals();
  });

  it('are logged, and a request whose reply is unparsable fails at once (not at its time-out)', async () => {
    const channel = new SignalChannel('ws://server/signal');
    await channel.connect();
    const socket = FakeSocket.last!;
    const started = Date.now();
    const reply = channel.request('leave', {}, 60_000);
    const { id } = socket.sent.at(-1)!;
    socket.reply(`{"id":${id},"code":0,"data":{`);
    await expect(reply).rejects.toMatchObject({ name: 'SignalChannelError', reason: 'protocol', message: "unparsable reply to 'leave'" });
    await expect(reply).rejects.toBeInstanceOf(SignalChannelError);
    expect(Date.now() - started).toBeLessThan(1000);
    socket.reply('not json at all');
    socket.reply(new ArrayBuffer(3));
    socket.reply('null');
    const warnings = lines.filter((line) => line.level === 3).map((line) => line.text);
    expect(warnings).toHaveLength(4);
    expect(warnings[1]).toContain('not json at all');
    channel.close();
  });
});

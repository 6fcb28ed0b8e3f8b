import type { Page } from 'playwright-core';

/**
 * What one page went through after the server came back, in ms after it listened again (undefined: not seen):
 * the last probe (`/healthz`) answered and signalling socket opened before the rejoin (either may be negative), the room CONNECTED again, the
 * new uplink and downlink peer connections connected, and the first video frame decoded on a new link.
 */
export interface PageTimeline {
  probeMs?: number;
  socketMs?: number;
  rejoinMs: number;
  uplinkMs?: number;
  downlinkMs?: number;
  frameMs: number;
}

/** A peer connection the page made, as the in-page recorder saw it. */
interface RecordedLink {
  index: number;
  kind: 'uplink' | 'downlink' | 'data' | 'unknown';
  connectedAt?: number;
}

/**
 * Installed in the page once: every 10 ms it looks for peer connections the harness recorded (window.__pcs) that
 * it has not seen and notes when each reaches 'connected', with its kind read from its transceivers then
 * (sending: uplink; receiving only: downlink; none: the data link).
 */
const RECORDER = `(() => {
  if (window.__links) return;
  const links = window.__links = [];
  const kindOf = (pc) => {
    const transceivers = pc.getTransceivers();
    if (transceivers.length === 0) return 'data';
    if (transceivers.some((t) => (t.currentDirection || t.direction || '').includes('send'))) return 'uplink';
    return 'downlink';
  };
  const note = (pc, link) => {
    if (link.connectedAt === undefined && pc.connectionState === 'connected') { link.connectedAt = Date.now(); link.kind = kindOf(pc); }
  };
  setInterval(() => {
    for (let i = links.length; i < window.__pcs.length; i++) {
      const pc = window.__pcs[i];
      const link = { index: i, kind: 'unknown' };
      links.push(link);
      note(pc, link);
      pc.addEventListener('connectionstatechange', () => note(pc, link));
    }
  }, 10);
})()`;

/** Network and console marks of one page, recorded on this side (playwright's events, this machine's clock). */
export class TimelineRecorder {
  private readonly _probes: number[] = [];
  private readonly _sockets: number[] = [];
  private readonly _console: { at: number; text: string }[] = [];

  private constructor(readonly page: Page, readonly name: string) {
    // An opaque (no-cors) answer may show as a response without a finished request, or the reverse: either counts.
    page.on('response', (response) => {
      if (response.url().endsWith('/healthz')) this._probes.push(Date.now());
    });
    page.on('requestfinished', (request) => {
      if (request.url().endsWith('/healthz')) this._probes.push(Date.now());
    });
    page.on('websocket', (socket) => {
      if (socket.url().includes('/signal')) this._sockets.push(Date.now());
    });
    page.on('console', (message) => {
      const text = message.text();
      if (text.startsWith('[conclave]')) this._console.push({ at: Date.now(), text: text.slice(0, 200) });
      if (this._console.length > 400) this._console.splice(0, 200);
    });
  }

  static async attach(page: Page, name: string): Promise<TimelineRecorder> {
    await page.evaluate(RECORDER);
    return new TimelineRecorder(page, name);
  }

  /** The page's timeline after the server listened at `upAt`, counting only peer connections made after the first `made`. */
  async timeline(upAt: number, downAt: number, made: number, rejoinedAt: number, frameAt: number): Promise<PageTimeline> {
    // The socket that carried the rejoin: the last opened before CONNECTED (the banner that marks "listening" reaches
    // this process after the port opened, so under load it may come before it); the probe: the last answered before.
    const socketAt = this._sockets.filter((at) => at >= downAt && at <= rejoinedAt).sort((a, b) => b - a)[0];
    const links = await this.page.evaluate(() => (window as unknown as { __links: RecordedLink[] }).__links);
    const after = (at: number | undefined) => at === undefined ? undefined : at - upAt;
    const first = (kind: RecordedLink['kind']) => links.filter((l) => l.index >= made && l.kind === kind && l.connectedAt !== undefined)
      .map((l) => l.connectedAt!).sort((a, b) => a - b)[0];
    return {
      probeMs: after(this._probes.filter((at) => at >= downAt && socketAt !== undefined && at <= socketAt).sort((a, b) => b - a)[0]),
      socketMs: after(socketAt),
      rejoinMs: rejoinedAt - upAt,
      uplinkMs: after(first('uplink')),
      downlinkMs: after(first('downlink')),
      frameMs: frameAt - upAt,
    };
  }

  /** The SDK's console lines since `since`, each with its time after `upAt` (for an outage slower than its goal). */
  consoleSince(since: number, upAt: number): string[] {
    return this._console.filter((line) => line.at >= since).map((line) => `${line.at - upAt} ms ${line.text}`);
  }

  /** Peer connections the page made so far. */
  pcCount(): Promise<number> {
    return this.page.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.length);
  }
}

/** "probe 612 · socket 620 · in 700 · up 1010 · down 1200 · frame 1350" (ms after the server listened; – not seen). */
export function formatTimeline(t: PageTimeline): string {
  const ms = (v: number | undefined) => v === undefined ? '–' : String(v);
  return `probe ${ms(t.probeMs)} · socket ${ms(t.socketMs)} · in ${t.rejoinMs} · up ${ms(t.uplinkMs)} · down ${ms(t.downlinkMs)} · frame ${t.frameMs}`;
}

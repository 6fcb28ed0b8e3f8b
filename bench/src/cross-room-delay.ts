/**
 * CrossRoom added delay (docs/behaviour.md §7.5): an anchor publishes a canvas whose colour flips; an audience page
 * in its own room and one in the other room of a cross-room connection both play it, and each page stamps the
 * first presented frame (requestVideoFrameCallback) of each new colour. Both delays cover the same path (canvas
 * capture, browser encode, the engine, decode, render); the difference per flip is what crossing rooms adds
 * (embedded: nothing but another downlink group; Janus: the remote publisher's loopback hop). Both engines.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { join, watch, type SigSource } from '../../tests/e2e/src/harness/join.js';
import { TEST_APP } from '../../tests/e2e/src/harness/server.js';
import type { EngineName } from './engines.js';
import { ServerProcess } from './server-process.js';
import { progress, summarize, waitFor, type Summary } from './stats.js';
import type { Row } from './table.js';

export interface CrossRoomDelayResult {
  engine: EngineName;
  /** Colour flip → first frame of it presented in the anchor's own room, ms. */
  sameRoom: Summary;
  /** The same flip in the other room of the connection, ms. */
  crossRoom: Summary;
  /** Per flip: cross-room minus same-room, ms. */
  added: Summary;
}

/** Records, in the viewer page, when each new colour of the video inside `selector` is first presented. */
const SAMPLER = `(selector) => new Promise((resolve, reject) => {
  window.benchSeen = window.benchSeen || {};
  const seen = window.benchSeen[selector] = [];
  const deadline = Date.now() + 20000;
  const find = () => {
    const video = document.querySelector(selector + ' video');
    if (!video) { if (Date.now() > deadline) reject(new Error('no video in ' + selector)); else setTimeout(find, 50); return; }
    const canvas = document.createElement('canvas');
    canvas.width = 8; canvas.height = 8;
    const g = canvas.getContext('2d', { willReadFrequently: true });
    let last = '';
    const step = () => {
      g.drawImage(video, 0, 0, 8, 8);
      const [r, gr, b] = g.getImageData(4, 4, 1, 1).data;
      const colour = r > 150 && b < 90 && gr < 90 ? 'red' : b > 150 && r < 90 && gr < 90 ? 'blue' : '';
      if (colour && colour !== last) { last = colour; seen.push({ colour, at: Date.now() }); }
      video.requestVideoFrameCallback(step);
    };
    video.requestVideoFrameCallback(step);
    resolve();
  };
  find();
})`;

type Seen = { colour: string; at: number }[];
const seen = (page: Page, selector: string): Promise<Seen> => page.evaluate((key) => (window as unknown as { benchSeen: Record<string, Seen> }).benchSeen[key], selector);
/** The two views of the anchor in the viewer page: through its own room's client, through the other room's. */
const SAME = '#remote-anchor-main';
const CROSS = '#cross-anchor';

/** The anchor paints a canvas (flipped with `benchColour`) and publishes it. */
async function publishCanvas(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 360;
    const ctx = canvas.getContext('2d')!;
    const win = window as unknown as { benchColour: string; e2e: { client: { startLocalVideo(o: unknown): Promise<void> } } };
    win.benchColour = '#ff0000';
    // captureStream emits a frame per paint: repaint at 30 fps so the encoder always has a fresh frame.
    setInterval(() => { ctx.fillStyle = win.benchColour; ctx.fillRect(0, 0, 640, 360); }, 33);
    await win.e2e.client.startLocalVideo({ option: { videoTrack: canvas.captureStream(30).getVideoTracks()[0], profile: '360p' } });
  });
}

/**
 * One engine: two rooms, the canvas anchor connected with the other room's anchor, and one viewer page with
 * two clients, an audience of each room, so that both views of the anchor render under the same conditions
 * (a page in the background of a headless browser renders at 1 Hz: one page, in front, for both).
 */
async function measure(context: BrowserContext, app: AppHost, server: SigSource & { url: string }, engine: EngineName, flips: number): Promise<CrossRoomDelayResult> {
  const anchor = await app.open(context);
  const other = await app.open(context);
  const viewer = await app.open(context);
  try {
    const live = { scene: 'live' as const };
    const ok = (what: string, r: { ok: boolean }) => { if (!r.ok) throw new Error(`${what}: ${JSON.stringify(r)}`); };
    ok('anchor join', await join(anchor, server, 'anchor', { roomId: 2801 }, { ...live, role: 'anchor', publish: false }));
    await publishCanvas(anchor);
    ok('other anchor join', await join(other, server, 'other', { roomId: 2802 }, { ...live, role: 'anchor' }));
    ok('same-room viewer join', await join(viewer, server, 'same', { roomId: 2801 }, { ...live, role: 'audience', publish: false }));
    await anchor.addScriptTag({ url: `${server.url}/sdk/plugins/cross-room/cross-room.umd.js` });
    const started = await anchor.evaluate(async () => {
      const w = window as unknown as { e2e: { client: { use(p: unknown): void; startPlugin(n: string, o: unknown): Promise<void> } }; CrossRoom: unknown };
      w.e2e.client.use(w.CrossRoom);
      // The anchor's flags reach the server just after its publish: the first start may find it not publishing yet.
      for (let attempt = 0; ; attempt++) {
        try {
          await w.e2e.client.startPlugin('CrossRoom', { roomId: 2802, userId: 'other' });
          return 'ok';
        } catch (error) {
          if (attempt >= 20) return String(error);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    });
    if (started !== 'ok') throw new Error(`CrossRoom start failed: ${started}`);
    await waitFor('the anchor announced', () => viewer.evaluate(() => (window as unknown as { e2e: { eventsOf(t: string): { data: { userId: string } }[] } }).e2e.eventsOf('remote-video-available').some((e) => e.data.userId === 'anchor')), Boolean, { timeoutMs: 15_000 });
    await watch(viewer, 'anchor');
    // The second client of the page: an audience of the other room, playing the anchor there.
    const crossSig = await server.sig('cross');
    const crossed = await viewer.evaluate(async ({ sdkAppId, userSig }) => {
      const w = window as unknown as { TRTC: { create(): { on(e: string, f: (d: { userId: string }) => void): void; enterRoom(o: unknown): Promise<void>; startRemoteVideo(o: unknown): Promise<void> } } };
      const client = w.TRTC.create();
      const view = document.createElement('div');
      view.id = 'cross-anchor';
      view.style.cssText = 'width:320px;height:240px';
      document.body.appendChild(view);
      const available = new Promise<void>((resolve) => client.on('remote-video-available', (e) => { if (e.userId === 'anchor') resolve(); }));
      await client.enterRoom({ sdkAppId, userId: 'cross', userSig, roomId: 2802, scene: 'live', role: 'audience' });
      await available;
      await client.startRemoteVideo({ userId: 'anchor', streamType: 'main', view });
      return 'ok';
    }, { sdkAppId: TEST_APP.sdkAppId, userSig: crossSig }).catch((error: unknown) => String(error));
    if (crossed !== 'ok') throw new Error(`the other room's view failed: ${crossed}`);
    for (const selector of [SAME, CROSS]) {
      await viewer.evaluate(`(${SAMPLER})(${JSON.stringify(selector)})`);
      await waitFor(`red in ${selector}`, () => seen(viewer, selector), (s) => s.some((x) => x.colour === 'red'), { timeoutMs: 20_000, intervalMs: 50 });
    }
    const same: number[] = [];
    const cross: number[] = [];
    const added: number[] = [];
    for (let i = 0; i < flips; i++) {
      const colour = i % 2 === 0 ? 'blue' : 'red';
      const t = Date.now();
      await anchor.evaluate((c) => { (window as unknown as { benchColour: string }).benchColour = c; }, colour === 'blue' ? '#0000ff' : '#ff0000');
      const at = async (selector: string) => (await waitFor(`${colour} in ${selector}`, () => seen(viewer, selector), (s) => s.some((x) => x.colour === colour && x.at >= t), { timeoutMs: 10_000, intervalMs: 20 }))
        .find((x) => x.colour === colour && x.at >= t)!.at - t;
      const [s, c] = await Promise.all([at(SAME), at(CROSS)]);
      same.push(s);
      cross.push(c);
      added.push(c - s);
    }
    progress(`cross-room delay (${engine}): same room ${same.join(', ')} ms; other room ${cross.join(', ')} ms`);
    return { engine, sameRoom: summarize(same), crossRoom: summarize(cross), added: summarize(added) };
  } finally {
    for (const page of [anchor, other, viewer]) await page.close();
  }
}

/** Runs on each engine, one server after the other (`openApp` serves the app page for a server). */
export async function runCrossRoomDelay(context: BrowserContext, openApp: (serverUrl: string) => Promise<AppHost>,
  { engines = ['embedded', 'janus'] as EngineName[], flips = 12 } = {}): Promise<CrossRoomDelayResult[]> {
  const results: CrossRoomDelayResult[] = [];
  for (const engine of engines) {
    const server = await ServerProcess.start({ env: { CONCLAVE_ENGINE: engine } });
    const app = await openApp(server.url);
    try {
      results.push(await measure(context, app, server, engine, flips));
    } finally {
      await app.close();
      await server.close();
    }
  }
  return results;
}

export function crossRoomDelayRows(results: CrossRoomDelayResult[]): Row[] {
  const b = 'CrossRoom added delay';
  return results.flatMap((r) => [
    { benchmark: b, figure: r.added.median.toFixed(0), unit: `ms (median, ${r.engine})`, notes: `per colour flip, in one page with a client in each room: first frame presented through the other room − through the anchor's own (n=${r.added.count}, min ${r.added.min.toFixed(0)}, max ${r.added.max.toFixed(0)})` },
    { benchmark: b, figure: r.sameRoom.median.toFixed(0), unit: `ms own room (median, ${r.engine})`, notes: `canvas colour flip → first frame of it presented (rVFC) by an audience client of the anchor's room; p90 ${r.sameRoom.p90.toFixed(0)}` },
    { benchmark: b, figure: r.crossRoom.median.toFixed(0), unit: `ms other room (median, ${r.engine})`, notes: `the same flips by an audience client of the connected room; p90 ${r.crossRoom.p90.toFixed(0)}` },
  ]);
}

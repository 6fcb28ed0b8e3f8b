/**
 * Issue 27's benchmark, through the demo's UI in real Chromium: the time from opening the demo's URL to seeing
 * yourself in its pre-join preview; from clicking Join to your own tile on the stage; and, for a second user who
 * opened the host's invite link, from clicking Join to the host's first frame in the stage's tile.
 *
 * The server is a child of its own started with no app configured, as `npm start` on a fresh machine: it then
 * runs its dev app and offers it to the demo (GET /api/dev/app), which signs userSigs with it in the browser.
 * (The e2e harness gets the same by starting its server in dev mode; the bench's usual server has the test app
 * and no dev app, so the demo there cannot join.) Every page is a new user: a browser context of its own (empty
 * cache, nothing stored), 1440×900, camera and microphone granted.
 */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/src/harness/browser.js';
import { fakeCamera, y4m } from '../../tests/e2e/src/video-effects-helpers.js';
import { demoWatched, openWatchedPage, readStamps, waitForRoom, waitForStamp, waitUntilEncoding } from './demo-ui-page.js';
import { ServerProcess } from './server-process.js';
import { progress, summarize } from './stats.js';
import type { Row } from './table.js';

export interface DemoUiResult {
  /** Opening the demo's URL → the first frame of the pre-join preview (ms, one per iteration). */
  seeYourselfMs: number[];
  /** The host's click on Join → the first frame of its own tile on the stage. */
  ownTileMs: number[];
  /** The guest's click on Join (page opened from the host's invite link) → the host's first frame in its tile. */
  firstRemoteFrameMs: number[];
  /** The signals the stamps came from (rVFC unless the browser lacked it). */
  signals: string[];
  /** Steps on the way, ms after the same start as the time they belong to, one per iteration. */
  marks: {
    /** The join form shown, after opening the URL. */
    formShown: number[];
    /** The host's room view shown, after its click. */
    hostRoomView: number[];
    /** The guest's room view shown, after its click. */
    guestRoomView: number[];
    /** The host's tile in the guest's stage, after the guest's click. */
    remoteTileShown: number[];
    /** The SDK's `<video>` in that tile, after the guest's click. */
    remoteVideoElement: number[];
  };
}

/** BENCH_DEMO_ITERATIONS (5). */
export function demoUiIterations(): number {
  return Number(process.env.BENCH_DEMO_ITERATIONS ?? 5);
}

/** Chromium as the e2e harness launches it, with the fake camera reading a textured 640×480 y4m file. */
function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required', ...fakeCamera(y4m('textured', 640, 480))],
    ignoreDefaultArgs: ['--mute-audio'],
  });
}

/** A new user's browser context: nothing cached, camera and microphone allowed (as after the user's yes). */
async function newUser(browser: Browser, origin: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.grantPermissions(['camera', 'microphone'], { origin });
  return context;
}

/** One round: the host opens the demo, joins, shares its invite link; a guest opens it and joins. */
async function round(browser: Browser, serverUrl: string, roomId: string, result: DemoUiResult): Promise<string> {
  const hostContext = await newUser(browser, serverUrl);
  const guestContext = await newUser(browser, serverUrl);
  try {
    const host = await openWatchedPage(hostContext, demoWatched());
    const opened = Date.now();
    await host.goto(`${serverUrl}/`);
    const preview = await waitForStamp(host, 'preview', 20_000);
    const seeYourself = preview.at - opened;

    // The user keeps the generated name and picks a room, then joins.
    const hostId = await host.getByTestId('input-userid').inputValue();
    await host.getByTestId('input-roomid').fill(roomId);
    await host.getByTestId('join-button').click({ timeout: 10_000 });
    await waitForRoom(host, 20_000);
    const hostClick = await waitForStamp(host, 'joinClick', 1_000);
    const ownTile = (await waitForStamp(host, 'localTile', 20_000)).at - hostClick.at;
    await waitUntilEncoding(host, 30_000);

    // The invite link from the settings panel, opened without its autojoin so that the guest clicks Join.
    await host.getByTestId('toggle-settings').click();
    const invite = new URL(await host.getByTestId('invite-link').inputValue());
    await host.getByTestId('toggle-settings').click();
    invite.searchParams.set('autojoin', '0');

    const guest = await openWatchedPage(guestContext, demoWatched(hostId));
    await guest.goto(invite.toString());
    await waitForStamp(guest, 'preview', 20_000);
    await guest.getByTestId('join-button').click({ timeout: 10_000 });
    const remote = await waitForStamp(guest, 'remoteTile', 30_000);
    const guestClick = await waitForStamp(guest, 'joinClick', 1_000);
    const firstRemoteFrame = remote.at - guestClick.at;

    const hostStamps = await readStamps(host);
    const guestStamps = await readStamps(guest);
    const after = (stamps: Record<string, { at: number }>, name: string, start: number) => (stamps[name] ? stamps[name].at - start : Number.NaN);
    result.marks.formShown.push(after(hostStamps, 'joinForm', opened));
    result.marks.hostRoomView.push(after(hostStamps, 'roomView', hostClick.at));
    result.marks.guestRoomView.push(after(guestStamps, 'roomView', guestClick.at));
    result.marks.remoteTileShown.push(after(guestStamps, 'remoteTileShown', guestClick.at));
    result.marks.remoteVideoElement.push(after(guestStamps, 'remoteVideoElement', guestClick.at));
    result.seeYourselfMs.push(seeYourself);
    result.ownTileMs.push(ownTile);
    result.firstRemoteFrameMs.push(firstRemoteFrame);
    for (const how of [preview.how, remote.how]) if (!result.signals.includes(how)) result.signals.push(how);
    return `see yourself ${seeYourself} ms, Join → own tile ${ownTile} ms, Join → first remote frame ${firstRemoteFrame} ms`;
  } finally {
    await guestContext.close();
    await hostContext.close();
  }
}

/** `iterations` rounds, each in a room of its own, against a dev-app server child of this part's own. */
export async function runDemoUi({ iterations = demoUiIterations() }: { iterations?: number } = {}): Promise<DemoUiResult> {
  // Empty values count as unset (packages/server/src/config/config.ts): no app configured → the dev app.
  const server = await ServerProcess.start({ env: { CONCLAVE_SDKAPPID: '', CONCLAVE_SECRET_KEY: '', CONCLAVE_ADMIN_KEY: '', CONCLAVE_CONFIG: '' }, timeoutMs: 60_000 });
  let browser: Browser | undefined;
  try {
    if (!server.config.devMode) throw new Error('demo-ui: the server child did not start with its dev app');
    browser = await launch();
    const result: DemoUiResult = { seeYourselfMs: [], ownTileMs: [], firstRemoteFrameMs: [], signals: [],
      marks: { formShown: [], hostRoomView: [], guestRoomView: [], remoteTileShown: [], remoteVideoElement: [] } };
    for (let i = 0; i < iterations; i++) {
      const line = await round(browser, server.url, String(9700 + i), result);
      progress(`demo ui ${i + 1}/${iterations}: ${line}`);
    }
    return result;
  } finally {
    await browser?.close();
    await server.close();
  }
}

/** The median of the samples that were taken (NaN: the step was not seen), as text. */
function medianOf(values: readonly number[]): string {
  const seen = values.filter((v) => Number.isFinite(v));
  return seen.length > 0 ? summarize(seen).median.toFixed(0) : '–';
}

/** Rows: median and p90 (nearest rank) of each time; the p90 row's notes give the medians of the steps. */
export function demoUiRows(r: DemoUiResult): Row[] {
  const b = 'demo, through the UI';
  const rows = (values: number[], what: string, steps: string): Row[] => {
    const s = summarize(values);
    return [
      { benchmark: b, figure: s.median.toFixed(0), unit: 'ms (median)', notes: `n=${s.count}; ${what}` },
      { benchmark: b, figure: s.p90.toFixed(0), unit: 'ms (p90)', notes: `min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)}; medians of: ${steps}` },
    ];
  };
  const m = r.marks;
  return [
    ...rows(r.seeYourselfMs, `opening the demo URL (new user, empty cache) → the pre-join preview presents your camera (first frame by ${r.signals.join('/')})`,
      `join form shown ${medianOf(m.formShown)}`),
    ...rows(r.ownTileMs, 'clicking Join → your own tile on the stage presents your camera', `room view shown ${medianOf(m.hostRoomView)}`),
    ...rows(r.firstRemoteFrameMs, 'a guest who opened the host\'s invite link clicks Join → the host\'s first frame in its stage tile (host publishing)',
      `room view ${medianOf(m.guestRoomView)}, host's tile ${medianOf(m.remoteTileShown)}, its <video> ${medianOf(m.remoteVideoElement)}`),
  ];
}

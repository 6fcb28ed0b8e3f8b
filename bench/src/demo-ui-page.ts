import type { BrowserContext, Page } from 'playwright-core';

/**
 * What the demo-ui bench installs in each demo page before the demo's own scripts run: the time (page clock,
 * `Date.now()`, the same wall clock as the runner's) of the first frame presented by the first `<video>` matching
 * each of `frames` (`requestVideoFrameCallback`), of the first element matching each of `elements`, of the last
 * click on the Join button, and the page's RTCPeerConnections so their `getStats()` can say whether the page is
 * encoding video. Plain JavaScript in a string (as bench/src/page-helpers.ts does) so tsx's transform never
 * rewrites what runs in the page.
 */
function watcherScript({ frames, elements }: Watched): string {
  return `(() => {
  const watched = ${JSON.stringify(frames)};
  const elements = ${JSON.stringify(elements)};
  const stamps = {};
  const pcs = [];
  const NativePc = window.RTCPeerConnection;
  if (NativePc) {
    window.RTCPeerConnection = class extends NativePc {
      constructor(...args) { super(...args); pcs.push(this); }
    };
  }
  const hooked = new Map(Object.keys(watched).map((name) => [name, new WeakSet()]));
  const stamp = (name, how) => { if (!(name in stamps)) stamps[name] = { at: Date.now(), how }; };
  const scan = () => {
    for (const [name, selector] of Object.entries(elements)) if (!(name in stamps) && document.querySelector(selector)) stamp(name, 'shown');
    for (const [name, selector] of Object.entries(watched)) {
      if (name in stamps) continue;
      for (const video of document.querySelectorAll(selector)) {
        const seen = hooked.get(name);
        if (seen.has(video)) continue;
        seen.add(video);
        // The frame handed to the compositor: what the user sees. loadeddata only where rVFC is missing.
        if (typeof video.requestVideoFrameCallback === 'function') video.requestVideoFrameCallback(() => stamp(name, 'rVFC'));
        else video.addEventListener('loadeddata', () => stamp(name, 'loadeddata'), { once: true });
      }
    }
  };
  new MutationObserver(scan).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-testid', 'data-user-id'] });
  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('[data-testid="join-button"]')) stamps.joinClick = { at: Date.now(), how: 'click' };
  }, true);
  window.__demoBench = {
    stamps,
    async framesEncoded() {
      let frames = 0;
      for (const pc of pcs) {
        if (pc.connectionState === 'closed') continue;
        (await pc.getStats()).forEach((s) => { if (s.type === 'outbound-rtp' && s.kind === 'video') frames += s.framesEncoded ?? 0; });
      }
      return frames;
    },
  };
})();`;
}

/** A stamp the watcher took: when (page's `Date.now()`) and by which signal. */
export interface Stamp {
  at: number;
  how: 'rVFC' | 'loadeddata' | 'click' | 'shown';
}

/** Selectors of videos whose first presented frame is stamped, and of elements whose appearance is. */
export interface Watched {
  frames: Record<string, string>;
  elements: Record<string, string>;
}

/**
 * The demo's stable test ids the bench watches: the preview, the own tile and (given `remoteUserId`) that user's
 * tile; the join form and the room view appearing, and that user's tile and its `<video>` appearing.
 */
export function demoWatched(remoteUserId?: string): Watched {
  const watched: Watched = {
    frames: { preview: '[data-testid="preview-video"]', localTile: '[data-testid="local-tile"] video' },
    elements: { joinForm: '[data-testid="join-form"]', roomView: '[data-testid="room-view"]' },
  };
  if (remoteUserId !== undefined) {
    const tile = `[data-testid="remote-tile"][data-user-id=${JSON.stringify(remoteUserId)}]`;
    watched.frames.remoteTile = `${tile} video`;
    watched.elements.remoteTileShown = tile;
    watched.elements.remoteVideoElement = `${tile} video`;
  }
  return watched;
}

/** A fresh page in `context` (1440×900, the desktop) with the watcher installed for `watched`. */
export async function openWatchedPage(context: BrowserContext, watched: Watched): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.addInitScript(watcherScript(watched));
  return page;
}

/** The stamp named `name`, waited for (polled every 20 ms; the stamp itself is taken in the page) up to `timeoutMs`. */
export async function waitForStamp(page: Page, name: string, timeoutMs: number): Promise<Stamp> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stamp = (await page.evaluate(`window.__demoBench?.stamps[${JSON.stringify(name)}] ?? null`)) as Stamp | null;
    if (stamp) return stamp;
    if (Date.now() > deadline) throw new Error(`demo-ui: no '${name}' within ${timeoutMs} ms (${await pageAlerts(page)})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every stamp taken so far, by name. */
export async function readStamps(page: Page): Promise<Record<string, Stamp>> {
  return (await page.evaluate('window.__demoBench.stamps')) as Record<string, Stamp>;
}

/** Resolves once the page has encoded a video frame (getStats outbound-rtp framesEncoded), up to `timeoutMs`. */
export async function waitUntilEncoding(page: Page, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (((await page.evaluate('window.__demoBench.framesEncoded()')) as number) <= 0) {
    if (Date.now() > deadline) throw new Error(`demo-ui: the host encoded no video within ${timeoutMs} ms (${await pageAlerts(page)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits for the demo's room view; on a timeout the error carries what the page's alerts say. */
export async function waitForRoom(page: Page, timeoutMs: number): Promise<void> {
  try {
    await page.getByTestId('room-view').waitFor({ timeout: timeoutMs });
  } catch {
    throw new Error(`demo-ui: no room view within ${timeoutMs} ms (${await pageAlerts(page)})`);
  }
}

/** The text of the page's alerts (error explanations), for error messages. */
async function pageAlerts(page: Page): Promise<string> {
  const texts = await page.locator('[role="alert"]').allTextContents().catch(() => []);
  return texts.length > 0 ? `alerts: ${texts.join(' | ')}` : 'no alert shown';
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { fakeCamera, measure, senderVideoState, usePlugin, waitForFrames, y4m, type Region, type RegionFigures } from './video-effects-helpers.js';

// The centre of a textured, skin-toned fake camera (fine low-amplitude sinusoids).
const CENTRE: Region = { x: 0.25, y: 0.25, w: 0.5, h: 0.5 };

describe('video effects: BasicBeauty', () => {
  let fx: AppFixture;

  beforeAll(async () => {
    fx = await startAppFixture({}, fakeCamera(y4m('textured')));
  });
  afterAll(async () => {
    await stopAppFixture(fx ?? {});
  });

  it('BasicBeauty: brightness raises mean luma of the received frames, ruddy raises the red share, beauty lowers high-frequency energy of a textured source; all reversible', async () => {
    const roomId = 13003;
    const publisher = await fx.app.open(fx.browser.context);
    const receiver = await fx.app.open(fx.browser.context);
    expect((await join(publisher, fx.server, 'bb-pub', { roomId })).ok).toBe(true);
    expect((await join(receiver, fx.server, 'bb-sub', { roomId }, { publish: false })).ok).toBe(true);
    await usePlugin(publisher, fx.server.url, 'basic-beauty', 'BasicBeauty');
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): unknown[] } }).e2e.eventsOf('remote-video-available').length > 0, undefined, { timeout: 20_000 });
    await watch(receiver, 'bb-pub');
    // The baseline, once the encoder has settled on the texture (it sharpens as the bitrate ramps up).
    let base: RegionFigures | undefined;
    await waitForFrames(receiver, 'bb-pub', [CENTRE], ([f]) => {
      const settled = base !== undefined && Math.abs(f.laplacianVariance - base.laplacianVariance) < 0.1 * base.laplacianVariance && f.laplacianVariance > 20;
      base = f;
      return settled;
    }, 30_000);
    const [baseline] = await measure(receiver, 'bb-pub', [CENTRE]);
    const near = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance;

    // Brightness alone.
    expect(await call(publisher, 'startPlugin', 'BasicBeauty', { beauty: 0, brightness: 1, ruddy: 0 })).toMatchObject({ ok: true });
    const [bright] = await waitForFrames(receiver, 'bb-pub', [CENTRE], ([f]) => f.luma > baseline.luma + 15);
    expect(bright.luma).toBeGreaterThan(baseline.luma + 15);

    // Ruddy alone (a live update of the running effect).
    expect(await call(publisher, 'updatePlugin', 'BasicBeauty', { beauty: 0, brightness: 0, ruddy: 1 })).toMatchObject({ ok: true });
    const [rosy] = await waitForFrames(receiver, 'bb-pub', [CENTRE], ([f]) => f.redShare > baseline.redShare + 0.02 && near(f.luma, baseline.luma, 12));
    expect(rosy.redShare).toBeGreaterThan(baseline.redShare + 0.02);
    console.log(`BasicBeauty: baseline ${JSON.stringify(baseline)}; ruddy ${JSON.stringify(rosy)}`);

    // Smoothing alone.
    expect(await call(publisher, 'updatePlugin', 'BasicBeauty', { beauty: 1, brightness: 0, ruddy: 0 })).toMatchObject({ ok: true });
    // Ruddy is off: the red share is back nearer the baseline than half what ruddy added (smoothing itself moves
    // it by ~0.01: it averages the texture's light and dark pixels, whose red shares differ).
    const ruddyOff = Math.max(0.01, (rosy.redShare - baseline.redShare) / 2);
    const [smooth] = await waitForFrames(receiver, 'bb-pub', [CENTRE], ([f]) => f.laplacianVariance < baseline.laplacianVariance * 0.5 && near(f.redShare, baseline.redShare, ruddyOff))
      .catch((error: Error) => { throw new Error(`${error.message}; baseline ${JSON.stringify(baseline)}; ruddy ${JSON.stringify(rosy)}`); });
    expect(smooth.laplacianVariance).toBeLessThan(baseline.laplacianVariance * 0.5);

    // Reversible: after stop the frames are as before — within the encoder's drift over the test (its bitrate
    // changes the picture a little), well under what each effect adds (luma +15, red share +0.02).
    expect(await call(publisher, 'stopPlugin', 'BasicBeauty')).toMatchObject({ ok: true });
    const [after] = await waitForFrames(receiver, 'bb-pub', [CENTRE], ([f]) => near(f.luma, baseline.luma, 7) && near(f.redShare, baseline.redShare, 0.01)
      && f.laplacianVariance > baseline.laplacianVariance * 0.8).catch(async (error: Error) => {
      throw new Error(`${error.message}; baseline ${JSON.stringify(baseline)}; publisher ${await senderVideoState(publisher)}`);
    });
    expect(after.laplacianVariance).toBeGreaterThan(baseline.laplacianVariance * 0.8);
    await publisher.close();
    await receiver.close();
  });
});

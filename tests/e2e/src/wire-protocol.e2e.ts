/**
 * The versioned wire and the engine's pushes, from a real SDK in real Chromium against a real server (each
 * media engine): a join whose protocol version the server does not speak fails with an RtcError naming both
 * versions; a downlink the server drops is announced by a push and the SDK rebuilds it by itself (it no
 * longer guesses a replaced link from a changed ICE session).
 */
import type { Page } from 'playwright-core';
import { PROTOCOL_VERSION } from '@conclave/protocol';
import { describe, expect, it } from 'vitest';
import { eventsOf, media } from './harness/client-page.js';
import { useAppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';

/** Rewrites the page's next outgoing signalling messages matching `pattern` (before the SDK sends them). */
async function rewriteOutgoing(page: Page, pattern: string, replacement: string, times: number): Promise<void> {
  await page.evaluate(([source, to, count]) => {
    const send = WebSocket.prototype.send;
    let left = count as number;
    WebSocket.prototype.send = function (this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
      if (left > 0 && typeof data === 'string' && new RegExp(source as string).test(data)) {
        left--;
        return send.call(this, data.replace(new RegExp(source as string), to as string));
      }
      return send.call(this, data);
    };
  }, [pattern, replacement, times] as const);
}

describe('versioned wire and engine pushes', () => {
  const fx = useAppFixture();

  it('the protocol version refusal end to end: a join speaking a version the server does not support fails with an RtcError naming both versions', async () => {
    const page = await fx.app.open(fx.browser.context);
    // As an SDK from the future would send it.
    await rewriteOutgoing(page, '"protocolVersion":\\d+', '"protocolVersion":99', 1);
    const result = await join(page, fx.server, 'future', { roomId: 4101 }, { publish: false });
    expect(result).toMatchObject({ ok: false, isRtcError: true, code: 5400, extraCode: -1016 });
    expect(result.message).toContain(`this SDK speaks protocol version ${PROTOCOL_VERSION},`);
    expect(result.message).toContain(`protocol version 99 is not supported: this server speaks versions 1 to ${PROTOCOL_VERSION}`);
    await page.close();
  });

  it('a downlink the server drops is announced by a push and the SDK rebuilds it: the video decodes on a new downlink', async () => {
    const alice = await fx.app.open(fx.browser.context);
    const bob = await fx.app.open(fx.browser.context);
    const warnings: string[] = [];
    bob.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
    expect(await join(alice, fx.server, 'alice', { roomId: 4102 })).toEqual({ ok: true });
    // Bob's first downlink answer cannot be applied by the server: its downlink fails there.
    await rewriteOutgoing(bob, '"cmd":"downlink-answer","data":\\{"seq":(\\d+),"sdp":"[^"]*"', '"cmd":"downlink-answer","data":{"seq":$1,"sdp":"v=0\\r\\nm=audio 9 UDP/TLS/RTP/SAVPF 111\\r\\n"', 1);
    expect(await join(bob, fx.server, 'bob', { roomId: 4102 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(() => warnings.some((w) => /the server closed the downlink \(failed/.test(w)), { timeout: 20_000 }).toBe(true);
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await watch(bob, 'alice');
    await expect.poll(async () => (await media(bob)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    await expect.poll(async () => (await media(bob)).audioEnergy, { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
    await alice.close();
    await bob.close();
  });
});

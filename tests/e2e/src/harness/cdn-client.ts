import type { Page } from 'playwright-core';
import type { CallResult } from './client-page.js';

/** Loads the CDNStreaming plugin file (UMD, global CDNStreaming) from the server and registers it on the page's client. */
export async function useCdnPlugin(page: Page, serverUrl: string): Promise<void> {
  await page.addScriptTag({ url: `${serverUrl}/sdk/plugins/cdn-streaming/cdn-streaming.umd.js` });
  await page.evaluate(() => {
    const w = window as unknown as { CDNStreaming: unknown; e2e: { client: { use(p: unknown): void } } };
    w.e2e.client.use(w.CDNStreaming);
  });
}

/** startPlugin / updatePlugin / stopPlugin('CDNStreaming', options) in the page; the outcome or the RtcError's fields. */
export function cdn(page: Page, method: 'startPlugin' | 'updatePlugin' | 'stopPlugin', options: unknown): Promise<CallResult> {
  return page.evaluate(([m, o]) => (window as unknown as { e2e: { call(m: string, a: unknown[]): Promise<CallResult> } }).e2e.call(m, ['CDNStreaming', o]), [method, options] as const);
}

/** A layout rectangle in the plugin's option shape. */
export const rect = (userId: string, x: number, y: number, w: number, h: number, zOrder: number, streamType: 'main' | 'sub' = 'main') =>
  ({ fixedVideoUser: { userId }, fixedVideoStreamType: streamType, fillMode: 2, width: w, height: h, locationX: x, locationY: y, zOrder });

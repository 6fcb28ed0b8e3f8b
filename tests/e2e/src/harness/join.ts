import type { Page } from 'playwright-core';
import { TEST_APP, type TestServer } from './server.js';

export interface JoinResult {
  ok: boolean;
  name?: string;
  code?: number;
  extraCode?: number;
  message?: string;
  isRtcError?: boolean;
}

/** Joins a room from a page through the SDK's public API (publishing camera and microphone unless told not to). */
export async function join(page: Page, server: TestServer, userId: string, room: { roomId?: number; strRoomId?: string },
  options: { publish?: boolean; userSig?: string } = {}): Promise<JoinResult> {
  const userSig = options.userSig ?? await server.sig(userId);
  return page.evaluate((opts) => (window as unknown as { e2e: { join(o: unknown): Promise<JoinResult> } }).e2e.join(opts), {
    publish: options.publish,
    enter: { sdkAppId: TEST_APP.sdkAppId, userId, userSig, ...room },
  });
}

/** Starts rendering a remote user's video into a new element of the page. */
export async function watch(page: Page, userId: string): Promise<void> {
  await page.evaluate((id) => (window as unknown as { e2e: { watch(id: string): Promise<void> } }).e2e.watch(id), userId);
}

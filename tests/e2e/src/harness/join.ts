import type { Page } from 'playwright-core';
import { TEST_APP } from './server.js';

/** Anything that can make userSigs for the test app. */
export interface SigSource {
  sig(userId: string): Promise<string>;
}

export interface JoinResult {
  ok: boolean;
  name?: string;
  code?: number;
  extraCode?: number;
  message?: string;
  isRtcError?: boolean;
}

/** Joins a room from a page through the SDK's public API (publishing camera and microphone unless told not to). */
export async function join(page: Page, server: SigSource, userId: string, room: { roomId?: number; strRoomId?: string },
  options: { publish?: boolean; profile?: string; userSig?: string; scene?: 'rtc' | 'live'; role?: 'anchor' | 'audience'; reuse?: boolean; enter?: Record<string, unknown> } = {}): Promise<JoinResult> {
  const userSig = options.userSig ?? await server.sig(userId);
  return page.evaluate((opts) => (window as unknown as { e2e: { join(o: unknown): Promise<JoinResult> } }).e2e.join(opts), {
    publish: options.publish,
    profile: options.profile,
    reuse: options.reuse,
    enter: { sdkAppId: TEST_APP.sdkAppId, userId, userSig, ...room, ...(options.scene ? { scene: options.scene } : {}), ...(options.role ? { role: options.role } : {}), ...options.enter },
  });
}

/** Starts rendering a remote user's video into a new element of the page. */
export async function watch(page: Page, userId: string): Promise<void> {
  await page.evaluate((id) => (window as unknown as { e2e: { watch(id: string): Promise<void> } }).e2e.watch(id), userId);
}

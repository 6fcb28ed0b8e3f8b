import { startServer, type RunningServer } from '@conclave/server';
import { genUserSig } from '@conclave/usersig';

/** The test app. */
export const TEST_APP = { sdkAppId: 1400700001, secretKey: 'conclave-e2e-secret-key-0123456789' };

export interface TestServer extends RunningServer {
  /** A valid userSig for the test app. */
  sig(userId: string, options?: { expire?: number; now?: number; secretKey?: string }): Promise<string>;
}

/** The media engine the e2e suite runs against: CONCLAVE_E2E_ENGINE ('embedded' by default, or 'janus'). */
export const E2E_ENGINE: 'embedded' | 'janus' = process.env.CONCLAVE_E2E_ENGINE === 'janus' ? 'janus' : 'embedded';

/** Starts a server on a free loopback port with the test app and the suite's media engine. */
export async function startTestServer(overrides: Parameters<typeof startServer>[0] = {}): Promise<TestServer> {
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    apps: [TEST_APP],
    devMode: false,
    iceAddress: '127.0.0.1',
    logLevel: process.env.CONCLAVE_LOG_LEVEL ?? 'warn',
    engine: E2E_ENGINE,
    ...overrides,
    // Logs and bans in memory unless a test asks for a file.
    storage: { path: ':memory:', ...overrides.storage },
  }, {});
  return Object.assign(server, {
    sig: (userId: string, options: { expire?: number; now?: number; secretKey?: string } = {}) => genUserSig({
      sdkAppId: TEST_APP.sdkAppId,
      secretKey: options.secretKey ?? TEST_APP.secretKey,
      userId,
      expire: options.expire,
      now: options.now,
    }),
  });
}

import { useEffect, useState } from 'react';

/** The server's built-in development app (only exposed when the server runs with it). */
export interface DevApp {
  readonly sdkAppId: number;
  readonly secretKey: string;
}

export type DevAppState =
  | { readonly status: 'loading' }
  | { readonly status: 'available'; readonly app: DevApp }
  | { readonly status: 'unavailable' };

export const DEV_APP_URL = '/api/dev/app';
const TIMEOUT_MS = 5000;

function parseDevApp(body: unknown): DevApp | null {
  if (typeof body !== 'object' || body === null) return null;
  const { sdkAppId, secretKey } = body as { sdkAppId?: unknown; secretKey?: unknown };
  if (typeof sdkAppId !== 'number' || !Number.isSafeInteger(sdkAppId) || sdkAppId <= 0) return null;
  if (typeof secretKey !== 'string' || secretKey === '') return null;
  return { sdkAppId, secretKey };
}

/**
 * Asks the server for its dev app once. With it, the demo makes userSigs in the browser;
 * without it (404, not JSON, no server) the user pastes one.
 */
export function useDevApp(): DevAppState {
  const [state, setState] = useState<DevAppState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    let active = true;
    const load = async (): Promise<DevApp | null> => {
      const response = await fetch(DEV_APP_URL, {
        signal: controller.signal,
        headers: { Accept: 'application/json' },
        cache: 'no-store',
      });
      if (!response.ok) return null;
      return parseDevApp(await response.json());
    };
    void load()
      .catch(() => null) // unreachable, timed out or aborted: shown as 'unavailable' (the form asks for credentials)
      .then((app) => {
        if (active) setState(app ? { status: 'available', app } : { status: 'unavailable' });
      })
      .finally(() => clearTimeout(timer));
    return () => {
      active = false;
      clearTimeout(timer);
      controller.abort();
    };
  }, []);

  return state;
}

/** Makes a userSig with the dev app's key (loaded on demand: only dev mode needs it). */
export async function devUserSig(app: DevApp, userId: string): Promise<string> {
  const { genUserSig } = await import('@conclave/usersig');
  return genUserSig({ sdkAppId: app.sdkAppId, secretKey: app.secretKey, userId });
}

import { useCallback, useEffect, useState } from 'react';
import { AdminClient, devAdminCredentials } from '../admin/api';
import { getLang, translate } from '../i18n';
import type { RoomRef } from '../joinParams';

export interface HostTools {
  /** Set once the admin key is known (the dev app's, or one pasted in). */
  readonly client: AdminClient | null;
  readonly devMode: boolean;
  readonly error: string | null;
  /** Uses an admin key typed by the user. */
  readonly setAdminKey: (adminKey: string) => void;
  /** Removes a user from this room through the server's admin API (POST …/kick). */
  readonly kick: (userId: string) => Promise<void>;
}

/** The room's key in the admin API's paths: "1234" or "s:name". */
export function roomKey(room: RoomRef): string {
  return room.kind === 'number' ? String(room.roomId) : `s:${room.strRoomId}`;
}

/**
 * Host powers for whoever holds the app's admin key: with the server's dev app the key is at hand
 * (GET /api/dev/app), otherwise the host pastes it. The key stays in memory only.
 */
export function useHost(sdkAppId: number, room: RoomRef): HostTools {
  const [client, setClient] = useState<AdminClient | null>(null);
  const [devMode, setDevMode] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    void devAdminCredentials('').then((dev) => {
      if (cancelled || !dev || dev.sdkAppId !== sdkAppId) return;
      setDevMode(true);
      setClient(new AdminClient({ server: '', sdkAppId, adminKey: dev.adminKey }));
    });
    return () => {
      cancelled = true;
    };
  }, [sdkAppId]);

  const setAdminKey = useCallback((adminKey: string) => {
    setError(null);
    setClient(adminKey.trim() ? new AdminClient({ server: '', sdkAppId, adminKey: adminKey.trim() }) : null);
  }, [sdkAppId]);

  const kick = useCallback(async (userId: string) => {
    if (!client) return;
    setError(null);
    try {
      await client.kick(roomKey(room), userId);
    } catch (caught) {
      setError(translate(getLang(), 'host.kickFailed', { userId, reason: caught instanceof Error ? caught.message : String(caught) }));
    }
  }, [client, room]);

  return { client, devMode, error, setAdminKey, kick };
}

import { createHmac } from 'node:crypto';
import type { IceServerInfo } from '@conclave/protocol';
import type { TurnConfig } from '../config/config.js';
import { DEFAULT_TURN_TCP_INFO, type TurnTcpInfo } from '../config/network.js';

/**
 * TURN REST credentials as coturn's `use-auth-secret` checks them: the username is
 * `<expiry unix seconds>:<userId>`, the password base64(HMAC-SHA1(static-auth-secret, username)).
 * coturn refuses the credential once the expiry has passed, so a leaked one is only good until then.
 */
export function turnCredential(secret: string, userId: string, expiresAt: number): { username: string; credential: string } {
  const username = `${Math.floor(expiresAt)}:${userId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}

/** The iceServers scheduling hands a user: the configured TURN URLs with a credential valid for ttlSeconds. */
export function turnIceServers(turn: TurnConfig | undefined, userId: string, nowMs = Date.now()): IceServerInfo[] {
  if (!turn) return [];
  const { username, credential } = turnCredential(turn.secret, userId, nowMs / 1000 + turn.ttlSeconds);
  return [{ urls: turn.urls, username, credential }];
}

/**
 * The ICE part of a scheduling answer: TURN servers with fresh credentials (when configured) and the
 * app's transport policy ('relay' forces every peer connection of the app's clients through TURN).
 */
export function scheduledIce(config: { turn?: TurnConfig }, app: { iceTransportPolicy?: 'all' | 'relay' } | undefined, userId: string):
  { iceServers: IceServerInfo[]; iceTransportPolicy: 'all' | 'relay' } {
  return { iceServers: turnIceServers(config.turn, userId), iceTransportPolicy: app?.iceTransportPolicy ?? 'all' };
}

/**
 * Relay-switch thresholds for the schedule's config.useTurnTcpInfo (docs/behaviour.md §4): only when TURN is configured,
 * since the client's switch goes through it.
 */
export function scheduledTurnTcpInfo(turn: TurnConfig | undefined): { useTurnTcpInfo?: TurnTcpInfo } {
  return turn ? { useTurnTcpInfo: { ...DEFAULT_TURN_TCP_INFO, ...turn.useTurnTcpInfo } } : {};
}

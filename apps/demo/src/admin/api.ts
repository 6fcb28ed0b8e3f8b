import { getLang, translate } from '../i18n';
/**
 * A small typed client of the Conclave admin API (packages/server/openapi.json): every call names the
 * app in its path and sends the app's admin key as a bearer token. The key stays in memory only.
 */

export type { AdminAppInfo, AdminBan, AdminLog, AdminRoom, AdminUser } from '@conclave/protocol';
import type { AdminAppInfo, AdminBan, AdminLog, AdminRoom, AdminUser } from '@conclave/protocol';

export interface LogFilter {
  roomKey?: string;
  userId?: string;
  cmdType?: string;
  /** ISO date or ms. */
  from?: string;
  to?: string;
  before?: number;
  limit?: number;
}

/** A media job as the admin API lists it (the fields the demo reads). */
export interface AdminJob {
  readonly jobId: string;
  readonly kind: 'cdn-mix' | 'cdn-main' | 'cdn-sub' | 'record-mix' | 'record-stream';
  readonly roomKey: string;
  readonly state: 'starting' | 'running' | 'restarting' | 'stopped' | 'failed';
  readonly lastError: string | null;
}

/** An error answer of the admin API: HTTP status, the server's code, its message. */
export class AdminApiError extends Error {
  readonly status: number;
  readonly code: number;

  constructor(status: number, code: number, message: string) {
    super(message);
    this.name = 'AdminApiError';
    this.status = status;
    this.code = code;
  }
}

export interface AdminCredentials {
  /** Server origin, e.g. https://rtc.example.com ('' = this page's origin). */
  server: string;
  sdkAppId: number;
  adminKey: string;
}

export class AdminClient {
  readonly #credentials: AdminCredentials;

  constructor(credentials: AdminCredentials) {
    this.#credentials = credentials;
  }

  get sdkAppId(): number {
    return this.#credentials.sdkAppId;
  }

  async #call<T>(path: string, init: { method?: 'GET' | 'POST' | 'DELETE'; body?: unknown; query?: Record<string, string | number | undefined> } = {}): Promise<T> {
    const { server, sdkAppId, adminKey } = this.#credentials;
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined && v !== '') query.set(k, String(v));
    const url = `${server.replace(/\/$/, '')}/admin/v1/apps/${sdkAppId}${path}${query.size > 0 ? `?${query}` : ''}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${adminKey}`, ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        cache: 'no-store',
      });
    } catch (error) {
      throw new AdminApiError(0, 0, translate(getLang(), 'admin.unreachable', { reason: error instanceof Error ? error.message : String(error) }));
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new AdminApiError(response.status, 0, translate(getLang(), 'admin.noJson', { status: response.status }));
    }
    if (!response.ok) {
      const { code, message } = body as { code?: unknown; message?: unknown };
      throw new AdminApiError(response.status, typeof code === 'number' ? code : 0, typeof message === 'string' ? message : `HTTP ${response.status}`);
    }
    return body as T;
  }

  app(): Promise<AdminAppInfo> {
    return this.#call('');
  }

  async rooms(): Promise<AdminRoom[]> {
    return (await this.#call<{ rooms: AdminRoom[] }>('/rooms')).rooms;
  }

  async users(roomKey: string): Promise<AdminUser[]> {
    return (await this.#call<{ users: AdminUser[] }>(`/rooms/${encodeURIComponent(roomKey)}/users`)).users;
  }

  kick(roomKey: string, userId: string, reason?: string): Promise<{ kicked: boolean }> {
    return this.#call(`/rooms/${encodeURIComponent(roomKey)}/users/${encodeURIComponent(userId)}/kick`, { method: 'POST', body: reason ? { reason } : {} });
  }

  ban(roomKey: string, userId: string, seconds: number, reason?: string): Promise<{ banned: boolean; until: string }> {
    return this.#call(`/rooms/${encodeURIComponent(roomKey)}/users/${encodeURIComponent(userId)}/ban`, { method: 'POST', body: { seconds, ...(reason ? { reason } : {}) } });
  }

  unban(roomKey: string, userId: string): Promise<{ unbanned: boolean }> {
    return this.#call(`/rooms/${encodeURIComponent(roomKey)}/users/${encodeURIComponent(userId)}/ban`, { method: 'DELETE' });
  }

  async bans(): Promise<AdminBan[]> {
    return (await this.#call<{ bans: AdminBan[] }>('/bans')).bans;
  }

  dismiss(roomKey: string): Promise<{ dismissed: boolean; users: string[] }> {
    return this.#call(`/rooms/${encodeURIComponent(roomKey)}/dismiss`, { method: 'POST' });
  }

  async jobs(): Promise<AdminJob[]> {
    return (await this.#call<{ jobs: AdminJob[] }>('/jobs')).jobs;
  }

  stopJob(jobId: string): Promise<{ stopped: boolean }> {
    return this.#call(`/jobs/${encodeURIComponent(jobId)}`, { method: 'DELETE' });
  }

  /** Records the room (one mixed MP4 by default) until it empties. */
  startRecording(roomKey: string, mode: 'mixed' | 'per-stream' = 'mixed'): Promise<{ recording: boolean }> {
    return this.#call(`/rooms/${encodeURIComponent(roomKey)}/recordings`, { method: 'POST', body: { mode } });
  }

  /** Stops recording the room (what startRecording started): its jobs end and are not started again. */
  stopRecording(roomKey: string): Promise<{ recording: boolean }> {
    return this.#call(`/rooms/${encodeURIComponent(roomKey)}/recordings`, { method: 'DELETE' });
  }

  logs(filter: LogFilter): Promise<{ logs: AdminLog[]; next: number | null }> {
    return this.#call('/logs', { query: { ...filter } });
  }
}

/** The dev app's admin key, when the server runs with its built-in dev app (GET /api/dev/app). */
export async function devAdminCredentials(server: string): Promise<{ sdkAppId: number; adminKey: string } | null> {
  try {
    const response = await fetch(`${server.replace(/\/$/, '')}/api/dev/app`, { cache: 'no-store' });
    if (!response.ok) return null;
    const body = (await response.json()) as { sdkAppId?: unknown; adminKey?: unknown };
    return typeof body.sdkAppId === 'number' && typeof body.adminKey === 'string' ? { sdkAppId: body.sdkAppId, adminKey: body.adminKey } : null;
  } catch {
    return null; // no dev app reachable: the page asks for the credentials instead
  }
}

import { getLang, translate } from '../i18n';
import { AdminApiError } from './api';

/** A message for the person at the page: what happened, and the server's code when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof AdminApiError) return error.code ? translate(getLang(), 'admin.withCode', { message: error.message, code: error.code }) : error.message;
  return error instanceof Error ? error.message : String(error);
}

/** One line of feedback after an action. */
export type Notice = { kind: 'ok' | 'error'; text: string } | null;

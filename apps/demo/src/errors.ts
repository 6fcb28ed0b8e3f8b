/** What the demo shows of an error: an SDK `RtcError` carries `code` and `extraCode`. */
export interface ErrorInfo {
  readonly code?: number;
  readonly extraCode?: number;
  readonly message: string;
}

/** Reads the fields of an `RtcError` (or any thrown value) without depending on its class. */
export function describeError(error: unknown): ErrorInfo {
  if (typeof error === 'object' && error !== null) {
    const fields = error as { code?: unknown; extraCode?: unknown; message?: unknown };
    const code = typeof fields.code === 'number' ? fields.code : undefined;
    const extraCode = typeof fields.extraCode === 'number' ? fields.extraCode : undefined;
    const message =
      typeof fields.message === 'string' && fields.message !== '' ? fields.message : String(error);
    return { code, extraCode, message };
  }
  return { message: String(error) };
}

/** A device the explanation is about. */
export type DeviceWord = 'camera' | 'microphone' | 'camera and microphone' | 'screen';

/** DOMException names of getUserMedia and the SDK's DEVICE_ERROR extraCodes (5301–5307) they map to. */
const DEVICE_EXTRA: Record<string, number> = {
  NotFoundError: 5301, NotAllowedError: 5302, NotReadableError: 5303, OverconstrainedError: 5304,
  InvalidStateError: 5305, SecurityError: 5306, AbortError: 5307,
};

/**
 * What went wrong, in words a user can act on (the codes stay in the notice's data attributes for
 * support): a denied camera says how to allow it, a busy one to close the other app, and so on.
 */
export function explainError(error: unknown, device: DeviceWord = 'camera'): string {
  const info = describeError(error);
  const name = typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : '';
  const extra = info.extraCode ?? DEVICE_EXTRA[name];
  const the = `the ${device}`;
  switch (extra) {
    case 5301:
      return device === 'screen' ? 'No screen was chosen to share.' : `No ${device} was found. Plug one in, or join with it off.`;
    case 5302:
      return device === 'screen'
        ? 'Screen sharing was cancelled or blocked by the browser.'
        : `Your browser blocked ${the}. Allow it for this site (the icon at the left of the address bar), then try again.`;
    case 5303:
      return `${capital(the)} is in use by another app or could not start. Close other apps that use it, then try again.`;
    case 5304:
      return `${capital(the)} cannot give the chosen resolution. Choose another device or a lower profile.`;
    case 5306:
      return `This page may not use ${the}: open it over HTTPS (or on localhost).`;
    case 5307:
      return `Starting ${the} was interrupted. Try again.`;
    case 5501:
      return 'The media server cannot be reached: a firewall may block the connection.';
    case 5502:
      return 'The connection was lost and could not be restored. Leave and join again.';
    default:
      break;
  }
  if (info.code === 5400 || (info.extraCode !== undefined && info.extraCode < 0)) {
    if (info.extraCode === -100018) return 'The server did not accept your sign-in (the userSig is wrong or expired).';
    return `The server refused: ${info.message}`;
  }
  if (info.code === 5200) return `This browser cannot do this: ${info.message}`;
  return info.message;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

import { getLang, translate, type Lang, type MessageKey } from './i18n';

/** What the demo shows of an error: an SDK `RtcError` carries `code` and `extraCode`; a DOMException its `name`. */
export interface ErrorInfo {
  readonly code?: number;
  readonly extraCode?: number;
  readonly message: string;
  readonly name?: string;
}

/** Reads the fields of an `RtcError` (or any thrown value) without depending on its class. */
export function describeError(error: unknown): ErrorInfo {
  if (typeof error === 'object' && error !== null) {
    const fields = error as { code?: unknown; extraCode?: unknown; message?: unknown; name?: unknown };
    const code = typeof fields.code === 'number' ? fields.code : undefined;
    const extraCode = typeof fields.extraCode === 'number' ? fields.extraCode : undefined;
    const message =
      typeof fields.message === 'string' && fields.message !== '' ? fields.message : String(error);
    const name = typeof fields.name === 'string' ? fields.name : undefined;
    return { code, extraCode, message, name };
  }
  return { message: String(error) };
}

/** A device the explanation is about. */
export type DeviceWord = 'camera' | 'microphone' | 'camera and microphone' | 'screen';

const DEVICE_KEY: Record<DeviceWord, MessageKey> = {
  camera: 'deviceWord.camera', microphone: 'deviceWord.microphone', 'camera and microphone': 'deviceWord.both', screen: 'deviceWord.screen',
};

/** DOMException names of getUserMedia and the SDK's DEVICE_ERROR extraCodes (5301–5307) they map to. */
const DEVICE_EXTRA: Record<string, number> = {
  NotFoundError: 5301, NotAllowedError: 5302, NotReadableError: 5303, OverconstrainedError: 5304,
  InvalidStateError: 5305, SecurityError: 5306, AbortError: 5307,
};

/** The message of each DEVICE_ERROR extraCode about a camera or microphone ({device} filled in). */
const DEVICE_MESSAGE: Record<number, MessageKey> = {
  5301: 'error.notFound', 5302: 'error.blocked', 5303: 'error.busy', 5304: 'error.constraint', 5306: 'error.insecure', 5307: 'error.aborted',
};

/**
 * What went wrong, in words a user can act on, in `lang` (the codes stay in the notice's data attributes
 * for support): a denied camera says how to allow it, a busy one to close the other app, and so on.
 * Takes the thrown value or its `describeError` fields.
 */
export function explainError(error: unknown, device: DeviceWord = 'camera', lang: Lang = getLang()): string {
  const info = describeError(error);
  const t = (key: MessageKey, vars?: Readonly<Record<string, string>>) => translate(lang, key, vars);
  const extra = info.extraCode ?? (info.name ? DEVICE_EXTRA[info.name] : undefined);
  if (device === 'screen' && extra === 5301) return t('error.noScreen');
  if (device === 'screen' && extra === 5302) return t('error.screenBlocked');
  const deviceMessage = extra === undefined ? undefined : DEVICE_MESSAGE[extra];
  if (deviceMessage) return t(deviceMessage, { device: t(DEVICE_KEY[device]) });
  if (extra === 5501) return t('error.unreachable');
  if (extra === 5502) return t('error.lost');
  if (info.code === 5400 || (info.extraCode !== undefined && info.extraCode < 0)) {
    if (info.extraCode === -100018) return t('error.userSig');
    return t('error.refused', { message: info.message });
  }
  if (info.code === 5200) return t('error.unsupported', { message: info.message });
  return info.message;
}

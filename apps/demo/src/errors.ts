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

/** One line, e.g. `5400 (extraCode -100018): userSig expired`. */
export function formatError(info: ErrorInfo): string {
  const codes: string[] = [];
  if (info.code !== undefined) codes.push(`code ${info.code}`);
  if (info.extraCode !== undefined) codes.push(`extraCode ${info.extraCode}`);
  return codes.length > 0 ? `[${codes.join(', ')}] ${info.message}` : info.message;
}

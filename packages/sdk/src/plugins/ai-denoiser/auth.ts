import { ERROR_CODE } from '../../constants/error-code.js';
import type { PluginContext } from '../../plugin-api/index.js';

/** docs/behaviour.md §7: the authorisation reply (`status` 1 = authorised). */
interface AuthReply {
  data?: { errCode?: number; errMsg?: string; sign?: string; status?: number | string };
}

/** docs/behaviour.md §8's denoise authorisation reasons, worded as the original words them. */
const REASON: Record<number, string> = {
  1: 'Please check your params.',
  2: 'You need to buy packages.',
  3: 'Server is invalid. Please contact our engineer.',
  4: 'Your packages is not active.',
  5: 'Your packages is expired.',
  6: 'Your version is not supported.',
};

/** Denoise credentials (startPlugin('AIDenoiser', …)). */
export interface DenoiseCredentials {
  sdkAppId: number;
  userId: string;
  userSig: string;
}

/**
 * Asks the server's /api/v1/audioAiAuth whether this app may denoise: a POST with the fields as form data, so the
 * userSig stays out of URLs (and the access logs and Referer headers that keep them); the server also answers the
 * original's GET. A form body is a CORS "simple" request: no preflight. Rejects with INVALID_PARAMETER carrying the
 * reason (1 check params … 6 version), or with the all-requests-failed message.
 */
export async function authorise(ctx: PluginContext, credentials: DenoiseCredentials): Promise<void> {
  const timestamp = String(Date.now()).slice(0, -3);
  const form = new URLSearchParams({ sdkAppId: String(credentials.sdkAppId), userId: credentials.userId, userSig: credentials.userSig, timestamp });
  let reply: AuthReply;
  try {
    const response = await fetch(`${ctx.serverOrigin}/api/v1/audioAiAuth`, { method: 'POST', body: form });
    reply = await response.json() as AuthReply;
  } catch (error) {
    throw ctx.errors({ code: ERROR_CODE.OPERATION_FAILED, message: `Init RTCAudioProcessor failed. All authorisation requests failed: ${String(error)}`, functionName: 'startPlugin' });
  }
  const data = reply.data ?? {};
  if (String(data.status) === '1') return;
  const errCode = data.errCode ?? 3;
  const reason = REASON[errCode] ?? REASON[3];
  const message = data.errMsg ? `Init RTCAudioProcessor failed. Reason: ${data.errMsg}. ${reason}` : `Init RTCAudioProcessor failed, ${reason}`;
  ctx.log.info(`AIDenoiser: ${credentials.userId} not authorised (${errCode}): ${message}`);
  throw Object.assign(ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, message, functionName: 'startPlugin' }), { authCode: errCode });
}

import { SERVER_CODE } from '@conclave/protocol';
import { EngineError } from '../engine/media-engine.js';
import { HttpError } from '../http/respond.js';

/** An engine failure as the HTTP answer of a WHEP or WHIP request. */
export function engineStatus(error: unknown, what: string): HttpError {
  if (error instanceof HttpError) return error;
  const failure = EngineError.from(error, 'negotiation-failed');
  switch (failure.reason) {
    case 'not-joined':
    case 'not-published':
      return new HttpError(404, SERVER_CODE.STREAM_NOT_EXIST, `${what}: the stream is not published (${failure.message})`);
    case 'negotiation-failed':
      return new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `${what}: the offer could not be answered (${failure.message})`);
    case 'unavailable':
    case 'closed':
      return new HttpError(503, SERVER_CODE.MEDIA_UNAVAILABLE, `${what}: the media engine is not available (${failure.message})`);
    default:
      return new HttpError(409, SERVER_CODE.INVALID_PARAMETER, `${what}: refused (${failure.message})`);
  }
}

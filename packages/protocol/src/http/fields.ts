/** Field schemas shared by the HTTP endpoints' schemas. */
import { z } from 'zod';
import { LIMITS } from '../limits.js';

/** A positive integer written as decimal text (query and form fields). */
export const positiveIntText = z.string().regex(/^\d{1,10}$/, 'must be a positive integer').refine((v) => Number(v) > 0, 'must be a positive integer');
/** A date-time as ISO 8601 text. */
export const dateTime = z.string().meta({ format: 'date-time' });
/** A user id in an HTTP request (lenient like signalling's). */
export const httpUserId = z.string().min(1).max(LIMITS.MAX_USER_ID_LENGTH * 4);

/** Reply of the log upload, the statistics beacon and every HTTP error: `code` 0 is success. */
export const endpointReply = z.object({
  code: z.int().meta({ description: "0 for success, else a code of @conclave/protocol's catalogue (SERVER_CODE, HTTP_CODE)." }),
  message: z.string(),
}).meta({ id: 'Error' });

import { createHmac } from 'node:crypto';

/** What the media-token key is derived for (a new version would make every earlier token invalid). */
const MEDIA_TOKEN_LABEL = 'conclave media token v1';

/**
 * The key the server's media tokens (WHEP play and WHIP publish tokens, mintMediaToken) are signed with:
 * HMAC-SHA256(app secret, label), as base64 text. A token is a privateMapKey in every other respect, but since
 * its HMAC is not made with the app's secret, no check of a userSig or of a privateMapKey accepts it: whoever
 * holds a play token can play, and nothing else. A separate key rather than a marker in the document because a
 * marker would have to be checked everywhere a credential is, and any place that forgot would take the token;
 * with a separate key every check fails closed, including other TLSSigAPIv2 verifiers of the app's credentials.
 * @param secretKey - the app's secret key
 * @returns the media-token key
 */
export function mediaTokenKey(secretKey: string): string {
  return createHmac('sha256', secretKey).update(MEDIA_TOKEN_LABEL).digest('base64');
}

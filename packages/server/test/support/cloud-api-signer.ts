import { createRequire } from 'node:module';
import { canonicalHeader, tc3Date, tc3Signature } from '../../src/cloud-api/tc3-signature.js';

/**
 * tencentcloud-sdk-nodejs's own TC3 signer: the Authorization its clients send (SignedHeaders `content-type;host`,
 * the host name without its port). Its clients always stamp the current time; tests that capture, replay or
 * age a request sign with it directly.
 */
export const sdkSigner = (createRequire(import.meta.url)('tencentcloud-sdk-nodejs/tencentcloud/common/sign.js') as {
  default: { sign3(args: { method: string; url: string; payload: unknown; timestamp: number; service: string; secretId: string; secretKey: string; headers: Record<string, string> }): string };
}).default;

/** A cloud API key pair. */
export interface CloudKey {
  secretId: string;
  secretKey: string;
}

/**
 * The headers of a TC3-HMAC-SHA256-signed cloud API request (POST /, trtc 2019-07-22), signed over `signed`
 * (header names; default `content-type;x-tc-timestamp`, plus `x-tc-action` when `signAction`). The signature
 * is computed with the server's own signer, so tests can sign what the official SDK does not (X-TC-Action).
 */
export function cloudApiHeaders(key: CloudKey, action: string, body: string, opts: { timestamp?: number; signAction?: boolean } = {}): Record<string, string> {
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const values: Record<string, string> = { 'content-type': 'application/json', 'x-tc-action': action, 'x-tc-timestamp': String(timestamp) };
  const signed = ['content-type', ...(opts.signAction ? ['x-tc-action'] : []), 'x-tc-timestamp'];
  const date = tc3Date(timestamp);
  const signature = tc3Signature({
    method: 'POST', path: '/', query: '', payload: Buffer.from(body), timestamp, date, service: 'trtc',
    signedHeaders: signed, canonicalHeaders: signed.map((name) => canonicalHeader(name, values[name])),
  }, key.secretKey);
  return {
    ...values, 'x-tc-version': '2019-07-22',
    authorization: `TC3-HMAC-SHA256 Credential=${key.secretId}/${date}/trtc/tc3_request, SignedHeaders=${signed.join(';')}, Signature=${signature}`,
  };
}


import { Client as TrtcClient } from 'tencentcloud-sdk-nodejs/tencentcloud/services/trtc/v20190722/trtc_client.js';

/** A TencentCloud API key pair (SecretId, SecretKey). */
export interface TrtcKey {
  secretId: string;
  secretKey: string;
}

/**
 * The official tencentcloud-sdk-nodejs trtc client, unchanged but for its endpoint: the server at `serverUrl`
 * (`http://host:port`), over http. `reqTimeoutSeconds`: its request time-out (the client's default, 60 s, unless set).
 */
export function officialTrtcClient(serverUrl: string, key: TrtcKey, reqTimeoutSeconds?: number): TrtcClient {
  const httpProfile = { endpoint: serverUrl.replace(/^http:\/\//, ''), protocol: 'http://', ...(reqTimeoutSeconds === undefined ? {} : { reqTimeout: reqTimeoutSeconds }) };
  return new TrtcClient({ credential: key, region: 'ap-guangzhou', profile: { httpProfile } });
}

/** The API error a call of the official client was refused with (both empty when it succeeded). */
export async function trtcRefusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
    return { code: '', message: '' };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return { code: String(code), message: String(message) };
  }
}

/** The API error code a call of the official client was refused with ('' when it succeeded). */
export async function trtcRefusalCode(call: Promise<unknown>): Promise<string> {
  return (await trtcRefusal(call)).code;
}

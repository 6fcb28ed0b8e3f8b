/**
 * One WHEP playback (RFC 9725) from the browser: a receive-only RTCPeerConnection whose offer (sent once ICE
 * gathering is complete; Conclave's server takes no trickle) is POSTed to the player URL, the 201's answer applied
 * and its Location kept for the DELETE that ends the session.
 */

/** How long ICE gathering may take before the offer goes with the candidates found so far. */
const GATHER_TIMEOUT_MS = 3000;

/** Why a WHEP exchange failed: the HTTP status (0 when the server could not be reached) and the server's message. */
export class WhepFailure extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'WhepFailure';
  }
}

/**
 * The WHEP endpoint and bearer token of a player URL. A `webrtc://` URL (the original player's scheme) means
 * https; the token is the URL's `access_token` query parameter (RFC 6750 §2.3), sent as `Authorization: Bearer`.
 */
export function endpointOf(url: string): { endpoint: string; token: string | undefined } {
  const parsed = new URL(url.replace(/^webrtc:\/\//i, 'https://'));
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`unsupported URL scheme ${parsed.protocol}`);
  const token = parsed.searchParams.get('access_token') ?? undefined;
  parsed.searchParams.delete('access_token');
  return { endpoint: parsed.toString(), token };
}

export class WhepSession {
  readonly pc: RTCPeerConnection;
  readonly stream = new MediaStream();
  private _resource: string | undefined;

  private constructor(pc: RTCPeerConnection) {
    this.pc = pc;
  }

  /** Negotiates with the WHEP endpoint of `url`; rejects with a WhepFailure. */
  static async open(url: string): Promise<WhepSession> {
    const { endpoint, token } = endpointOf(url);
    const session = new WhepSession(new RTCPeerConnection({ bundlePolicy: 'max-bundle' }));
    const { pc } = session;
    pc.addTransceiver('audio', { direction: 'recvonly' });
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.ontrack = (event) => session.stream.addTrack(event.track);
    try {
      await pc.setLocalDescription(await pc.createOffer());
      await gathered(pc);
      let res: Response;
      try {
        res = await fetch(endpoint, {
          method: 'POST', body: pc.localDescription!.sdp,
          headers: { 'content-type': 'application/sdp', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        });
      } catch (error) {
        throw new WhepFailure(0, `the WHEP server could not be reached: ${error instanceof Error ? error.message : String(error)}`);
      }
      const body = await res.text();
      if (res.status !== 201) throw new WhepFailure(res.status, `the WHEP server refused (${res.status}): ${messageOf(body)}`);
      const location = res.headers.get('location');
      if (location) session._resource = new URL(location, endpoint).toString();
      await pc.setRemoteDescription({ type: 'answer', sdp: body });
      return session;
    } catch (error) {
      pc.close();
      throw error instanceof WhepFailure ? error : new WhepFailure(0, `WHEP negotiation failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Ends the session: DELETE on its resource (best effort), then closes the connection. */
  close(): void {
    if (this._resource) void fetch(this._resource, { method: 'DELETE' }).catch(() => undefined); // best effort, as documented above
    this._resource = undefined;
    this.pc.close();
  }
}

/** The server's `{message}` of a JSON refusal, else the body's start. */
function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON
  }
  return body.slice(0, 200) || 'no reason given';
}

function gathered(pc: RTCPeerConnection): Promise<void> {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    const timer = setTimeout(resolve, GATHER_TIMEOUT_MS);
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState !== 'complete') return;
      clearTimeout(timer);
      resolve();
    });
  });
}

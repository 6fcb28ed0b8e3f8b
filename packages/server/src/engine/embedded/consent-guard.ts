import type { RTCDtlsTransport } from 'werift';

/** Media from the browser this recent proves the path alive. */
const ALIVE_MS = 1000;

/** The parts of werift's ICE connection (not in its typings' public surface) the guard uses. */
interface IceConnection {
  state: string;
  consentFresh: boolean;
  setState(state: string): void;
  queryConsent(): void;
  stateChanged: { subscribe(listener: (state: string) => void): { unSubscribe(): void } };
}

/**
 * werift fails an ICE connection whose consent checks (RFC 7675) went unanswered for 30 s, and from then on sends
 * nothing on it — no PLI, NACK, receiver report or transport-cc — while the browser, whose own checks werift still
 * answers, keeps sending media: an uplink's video flows on to its subscribers but their key-frame requests never
 * reach the publisher, so a picture lost downstream stays frozen until the publisher's next natural key frame
 * (issue 30's soak stalls looked like this; uplink-feedback.test.ts shows the mechanism). Authenticated SRTP
 * from the browser within the last second proves the path alive: such a failure is undone (connected again,
 * consent checks restarted). A browser really gone sends nothing, so its link stays failed. Returns the stop.
 */
export function guardConsentWhileMediaComes(transport: RTCDtlsTransport): () => void {
  let lastRtpAt = -Infinity;
  const rtp = transport.onRtp.subscribe(() => { lastRtpAt = performance.now(); });
  const connection = transport.iceTransport.connection as unknown as IceConnection;
  const state = connection.stateChanged.subscribe((next) => {
    if (next !== 'failed' || performance.now() - lastRtpAt > ALIVE_MS) return;
    // Deferred: every listener (the ICE transport, the peer connection) first sees 'failed', then 'connected'.
    queueMicrotask(() => {
      if (connection.state !== 'failed') return;
      connection.consentFresh = true;
      connection.setState('connected');
      connection.queryConsent();
    });
  });
  return () => {
    rtp.unSubscribe();
    state.unSubscribe();
  };
}

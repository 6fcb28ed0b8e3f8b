import type { RTCDtlsTransport, RTCPeerConnection } from 'werift';
import { linkState, type LinkState } from './peer-factory.js';

/**
 * Packets from the browser this recent prove the path alive. A downlink carries only the browser's RTCP (receiver
 * reports about every second, feedback while media flows), so the window is a few of its intervals.
 */
const ALIVE_MS = 3000;

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
 * answers, keeps sending: an uplink's video flows on to its subscribers but their key-frame requests never
 * reach the publisher, so a picture lost downstream stays frozen until the publisher's next natural key frame
 * (issue 30's soak stalls looked like this; uplink-feedback.test.ts shows the mechanism); a downlink is dropped
 * and rebuilt. Each consent check waits 500 ms for its answer, so a host busy enough to hold Node's event loop
 * that long at each check fails links whose browsers are there (seen on downlinks in the 12-user e2e on a loaded
 * host, every ~35 s). Authenticated SRTP or SRTCP from the browser within ALIVE_MS proves the path alive: such a
 * failure is undone (connected again, consent checks restarted). A browser really gone sends nothing, so its link
 * stays failed. Listeners see 'failed' first, then 'connected' (a microtask later). Returns the stop.
 */
export function guardConsentWhileBrowserSends(transport: RTCDtlsTransport): () => void {
  let lastPacketAt = -Infinity;
  const seen = () => { lastPacketAt = performance.now(); };
  const rtp = transport.onRtp.subscribe(seen);
  const rtcp = transport.onRtcp.subscribe(seen);
  const connection = transport.iceTransport.connection as unknown as IceConnection;
  const state = connection.stateChanged.subscribe((next) => {
    if (next !== 'failed' || performance.now() - lastPacketAt > ALIVE_MS) return;
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
    rtcp.unSubscribe();
    state.unSubscribe();
  };
}

/** The state of a link the server sends on (a subscriber's downlink, a playback link), as `watchSendLink` reads it. */
export interface SendLinkWatch {
  /** 'failed' as soon as werift says so, even while the guard may still undo it. */
  readonly state: LinkState;
  /** Installs the consent guard on the link's (bundled) transport, once negotiation has made it; again is a no-op. */
  guard(): void;
  /** Removes the guard (the link is closed). */
  stop(): void;
}

/**
 * Watches a server-sending link: `changed` hears 'connected' (again after a failure the guard undid), 'closed',
 * and 'failed' only once it stands a task later, after the consent guard had its say. werift never turns a peer
 * connection's state back from 'failed' (nor reports the next failure then), so ICE's own state is read too.
 */
export function watchSendLink(pc: RTCPeerConnection, changed: (state: LinkState) => void): SendLinkWatch {
  let state: LinkState = 'connecting';
  let stopGuard: (() => void) | undefined;
  const set = (next: LinkState) => {
    if (next === state) return;
    state = next;
    if (next !== 'failed') changed(next);
    else setTimeout(() => { if (state === 'failed') changed('failed'); }, 0);
  };
  pc.connectionStateChange.subscribe((next) => set(linkState(next)));
  pc.iceConnectionStateChange.subscribe((ice) => {
    if (ice === 'failed') set('failed');
    else if ((ice === 'connected' || ice === 'completed') && state === 'failed') set('connected');
  });
  return {
    get state() { return state; },
    guard() {
      const transport = pc.dtlsTransports[0];
      if (transport && !stopGuard) stopGuard = guardConsentWhileBrowserSends(transport);
    },
    stop() { stopGuard?.(); },
  };
}

/** The longest the data link's negotiation waits for the downlink (docs/architecture.md "Media path"). */
export const DATA_LINK_WAIT_MAX_MS = 1000;

/** The part of a peer connection the wait reads (an RTCPeerConnection in the SDK). */
export interface LinkLike {
  readonly connectionState: RTCPeerConnectionState;
  addEventListener(type: 'connectionstatechange', listener: () => void): void;
  removeEventListener(type: 'connectionstatechange', listener: () => void): void;
}

const settingUp = (link: LinkLike) => link.connectionState === 'new' || link.connectionState === 'connecting';

/**
 * Resolves once the downlink is set up: a task from now (subscriptions made on the join's events start theirs
 * within that task), at once when there is no downlink or it is not being set up, else when it leaves
 * `new`/`connecting` (connected, failed or closed), or after `maxWaitMs` at most.
 *
 * Why: two links set up side by side (the downlink and the data link, both made at join) share the server's and
 * the page's CPU for their ICE checks and DTLS handshakes, and the first remote frame waits for the downlink's.
 * The data link carries no media, so its negotiation goes second.
 */
export function afterDownlinkSetUp(downlink: () => LinkLike | undefined, maxWaitMs = DATA_LINK_WAIT_MAX_MS): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(() => {
      const link = downlink();
      if (!link || !settingUp(link)) {
        resolve();
        return;
      }
      const done = () => {
        clearTimeout(timer);
        link.removeEventListener('connectionstatechange', changed);
        resolve();
      };
      const changed = () => {
        if (!settingUp(link)) done();
      };
      const timer = setTimeout(done, maxWaitMs);
      link.addEventListener('connectionstatechange', changed);
    }, 0);
  });
}

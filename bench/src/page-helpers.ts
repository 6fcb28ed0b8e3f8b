import type { Page } from 'playwright-core';

/**
 * Bench-only in-page helpers, installed next to the harness's window.e2e. Kept as plain JavaScript
 * in a string (like the harness's page script) so the bundler never rewrites what runs in the page.
 */
const BENCH_SCRIPT = `
window.bench = {
  /**
   * Joins without publishing and measures, with performance.now(), from just before enterRoom() to the
   * first frame of publisherId's main video rendered in the view the app gave startRemoteVideo().
   * startRemoteVideo is called from the client's own remote-video-available event, as an app does.
   * With preconnect, callExperimentalAPI('preconnect') has completed before the clock starts.
   */
  async firstFrame(enter, publisherId, timeoutMs, preconnect) {
    const client = TRTC.create();
    window.e2e.client = client;
    window.e2e.record(client);
    // callExperimentalAPI('preconnect') first, as an app does while its user is still on the pre-join screen:
    // scheduling and the signalling socket are warmed before the clock starts.
    if (preconnect) {
      const { sdkAppId, userId, userSig, roomId } = enter;
      await client.callExperimentalAPI('preconnect', { enable: true, sdkAppId, userId, userSig, roomId });
    }
    const view = document.createElement('div');
    view.id = 'remote-' + publisherId + '-main';
    view.style.cssText = 'width:320px;height:240px';
    document.body.appendChild(view);
    const marks = { trace: {} };
    let t0 = 0;
    const since = () => performance.now() - t0;
    // The path, first occurrence of each step (ms since enterRoom): scheduling, WebSocket open, each
    // command sent (>cmd) and replied (<cmd), each push (!push), link states.
    const trace = (name) => { if (t0 > 0 && marks.trace[name] === undefined) marks.trace[name] = Math.round(since()); };
    const NativeWebSocket = window.WebSocket;
    window.WebSocket = class extends NativeWebSocket {
      constructor(...args) {
        super(...args);
        const cmds = new Map();
        this.addEventListener('open', () => trace('ws open'));
        this.addEventListener('message', (event) => {
          try {
            const msg = JSON.parse(event.data);
            if (msg.push) trace('!' + msg.push); else if (cmds.has(msg.id)) trace('<' + cmds.get(msg.id));
          } catch { /* not ours */ }
        });
        const send = this.send.bind(this);
        this.send = (data) => {
          try { const msg = JSON.parse(data); if (msg.cmd) { cmds.set(msg.id, msg.cmd); trace('>' + msg.cmd); } } catch { /* not ours */ }
          return send(data);
        };
      }
    };
    const nativeFetch = window.fetch;
    window.fetch = (...args) => { trace('fetch'); return nativeFetch(...args).then((r) => { trace('fetch reply'); return r; }); };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no remote frame within ' + timeoutMs + ' ms; marks ' + JSON.stringify(marks))), timeoutMs);
      const fail = (error) => { clearTimeout(timer); reject(error); };
      const onVideoElement = (video) => {
        marks.videoElement = since();
        video.requestVideoFrameCallback((_now, meta) => {
          marks.firstFrame = since();
          window.WebSocket = NativeWebSocket;
          window.fetch = nativeFetch;
          marks.firstFramePresented = meta.presentationTime - t0;
          marks.width = meta.width;
          marks.height = meta.height;
          clearTimeout(timer);
          resolve(marks);
        });
      };
      const observer = new MutationObserver(() => {
        const video = view.querySelector('video');
        if (video) { observer.disconnect(); onVideoElement(video); }
      });
      observer.observe(view, { childList: true, subtree: true });
      // Note when the SDK's peer connections (recorded by the harness in window.__pcs) connect.
      window.__pcs.push = function (...pcs) {
        for (const pc of pcs) {
          // The downlink is the connection with transceivers (the data link has none).
          const kind = () => (pc.getTransceivers().length > 0 ? 'downlink' : 'other');
          let dtlsWatched = false;
          pc.addEventListener('iceconnectionstatechange', () => {
            if (pc.iceConnectionState === 'checking') trace(kind() + ' ice checking');
            if (pc.iceConnectionState === 'connected') trace(kind() + ' ice connected');
            // The DTLS transport's own states and the ICE pair selection, to split ICE from DTLS.
            const dtls = pc.getTransceivers()[0]?.receiver.transport ?? pc.sctp?.transport;
            if (!dtls || dtlsWatched) return;
            dtlsWatched = true;
            dtls.addEventListener('statechange', () => trace(kind() + ' dtls ' + dtls.state));
            dtls.iceTransport.addEventListener('selectedcandidatepairchange', () => trace(kind() + ' pair selected'));
          });
          pc.addEventListener('connectionstatechange', () => {
            if (pc.connectionState !== 'connected') return;
            trace(kind() + ' connected');
            if (kind() !== 'downlink' || marks.pcConnected !== undefined) return;
            marks.pcConnected = since();
            pollInbound(pc);
          });
        }
        return Array.prototype.push.apply(this, pcs);
      };
      client.on(TRTC.EVENT.TRACK, ({ userId, streamType }) => {
        if (userId === publisherId && streamType === 'main' && marks.track === undefined) marks.track = since();
      });
      // From connection to first frame, poll the connection's stats (every 20 ms, stopping at the first
      // rendered frame) for when the first video packet arrived.
      const pollInbound = async (pc) => {
        while (marks.firstFrame === undefined && pc.connectionState === 'connected') {
          const at = since();
          (await pc.getStats()).forEach((s) => {
            if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
            if (marks.firstPacket === undefined && s.packetsReceived > 0) marks.firstPacket = at;
            if (s.keyFramesDecoded > 0) trace('key frame decoded (poll)');
            marks.plisSent = s.pliCount || 0;
          });
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      let entered;
      client.on(TRTC.EVENT.REMOTE_VIDEO_AVAILABLE, ({ userId, streamType }) => {
        if (userId !== publisherId || streamType !== 'main' || marks.videoAvailable !== undefined) return;
        marks.videoAvailable = since();
        const start = () => client.startRemoteVideo({ userId, streamType, view }).then(() => { marks.startRemoteVideo = since(); }, fail);
        // The SDK announces users already in the room before enterRoom() resolves, and startRemoteVideo()
        // refuses to run until it has; an app has to wait for enterRoom() then.
        if (marks.enterRoom === undefined) { marks.availableBeforeEntered = true; entered.then(start, fail); } else start();
      });
      t0 = performance.now();
      marks.t0Epoch = performance.timeOrigin + t0;
      entered = client.enterRoom(enter).then(() => { marks.enterRoom = since(); });
      entered.catch(fail);
    });
  },
  /** Leaves the room, giving up after timeoutMs. */
  async leave(timeoutMs) {
    const client = window.e2e.client;
    if (!client) return;
    await Promise.race([client.exitRoom().catch(() => undefined), new Promise((r) => setTimeout(r, timeoutMs))]);
  },
  /** What the page sends on its uplink(s). */
  async sent() {
    const out = { framesEncoded: 0, keyFramesEncoded: 0, plisReceived: 0, videoBytes: 0, audioBytes: 0, frameWidth: 0, frameHeight: 0, framesPerSecond: 0, targetBitrate: 0, qualityLimitationReason: '' };
    for (const pc of window.__pcs) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((s) => {
        if (s.type !== 'outbound-rtp') return;
        if (s.kind === 'audio') out.audioBytes += s.bytesSent || 0;
        if (s.kind !== 'video') return;
        out.framesEncoded += s.framesEncoded || 0;
        out.keyFramesEncoded += s.keyFramesEncoded || 0;
        out.plisReceived += s.pliCount || 0;
        out.videoBytes += s.bytesSent || 0;
        out.frameWidth = Math.max(out.frameWidth, s.frameWidth || 0);
        out.frameHeight = Math.max(out.frameHeight, s.frameHeight || 0);
        out.framesPerSecond = Math.max(out.framesPerSecond, s.framesPerSecond || 0);
        out.targetBitrate += s.targetBitrate || 0;
        out.qualityLimitationReason = out.qualityLimitationReason || s.qualityLimitationReason || '';
      });
    }
    return out;
  },
  /** Width of each remote video the page renders, keyed by view id. */
  remoteVideos() {
    return [...document.querySelectorAll('[id^="remote-"]')].map((view) => {
      const video = view.querySelector('video');
      return { view: view.id, width: video ? video.videoWidth : 0 };
    });
  },
};
`;

/** Marks of one first-frame measurement, ms since just before enterRoom(). */
export interface FirstFrameMarks {
  enterRoom?: number;
  videoAvailable?: number;
  /** The SDK's 'track' event for the publisher's main video (downlink negotiated). */
  track?: number;
  /** First of the page's peer connections reached 'connected' (ICE + DTLS done). */
  pcConnected?: number;
  /** First poll (20 ms period) that saw a received video packet. */
  firstPacket?: number;
  /** PLIs the subscriber had sent when the first frame was rendered. */
  plisSent?: number;
  startRemoteVideo?: number;
  videoElement?: number;
  /** remote-video-available fired before enterRoom() resolved (startRemoteVideo then waited for it). */
  availableBeforeEntered?: boolean;
  /** First occurrence of each step of the path, ms: fetch (scheduling), ws open, >cmd sent, <cmd replied, !push received, link states. */
  trace: Record<string, number>;
  /** The clock's start (performance.timeOrigin + t0), ms since the epoch: lines up the path with server logs. */
  t0Epoch?: number;
  firstFrame: number;
  firstFramePresented: number;
  width: number;
  height: number;
}

/** What a page sends (outbound-rtp, summed over its uplink streams). */
export interface SentFigures {
  framesEncoded: number;
  keyFramesEncoded: number;
  /** PLIs the publisher received (from the server). */
  plisReceived: number;
  videoBytes: number;
  audioBytes: number;
  frameWidth: number;
  frameHeight: number;
  framesPerSecond: number;
  /** Encoder target bitrate, bit/s. */
  targetBitrate: number;
  qualityLimitationReason: string;
}

interface BenchWindow {
  bench: {
    firstFrame(enter: unknown, publisherId: string, timeoutMs: number, preconnect: boolean): Promise<FirstFrameMarks>;
    leave(timeoutMs: number): Promise<void>;
    sent(): Promise<SentFigures>;
    remoteVideos(): { view: string; width: number }[];
  };
}

export async function installBenchHelpers(page: Page): Promise<void> {
  await page.addScriptTag({ content: BENCH_SCRIPT });
}

export const firstFrame = (page: Page, enter: Record<string, unknown>, publisherId: string, timeoutMs: number, preconnect = false): Promise<FirstFrameMarks> =>
  page.evaluate(([e, id, t, p]) => (window as unknown as BenchWindow).bench.firstFrame(e, id, t, p), [enter, publisherId, timeoutMs, preconnect] as const);

export const leave = (page: Page, timeoutMs = 3_000): Promise<void> =>
  page.evaluate((t) => (window as unknown as BenchWindow).bench.leave(t), timeoutMs);

export const sent = (page: Page): Promise<SentFigures> =>
  page.evaluate(() => (window as unknown as BenchWindow).bench.sent());

export const remoteVideos = (page: Page): Promise<{ view: string; width: number }[]> =>
  page.evaluate(() => (window as unknown as BenchWindow).bench.remoteVideos());

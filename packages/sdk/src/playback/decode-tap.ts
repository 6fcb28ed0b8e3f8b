/**
 * The decoder fallback's hook in the core: when the schedule turns `videoDecodeFallback` on, each
 * received video m-line gets an RTCRtpScriptTransform as its track arrives — Chromium takes a receiver's
 * transform only before its first frame, and downlink m-lines are reused across users, so it cannot wait for
 * a decode failure. The transform runs in one tiny worker per page and passes every frame through untouched;
 * the TRTCVideoDecoder plugin (loaded lazily) opens a tap on a remote track and then also gets a copy of each
 * encoded frame on a MessagePort, and can ask for a key frame through it. Frames keep flowing to the built-in
 * decoder: dropping them makes Chromium's receiver ask the sender for a key frame several times a second.
 */

/** The tap worker: pass-through transforms; a port attached to one gets copies of its frames. */
const WORKER = `const taps=new Map();
onrtctransform=({transformer:t})=>{const tap={t,port:null};taps.set(t.options.id,tap);
t.readable.pipeThrough(new TransformStream({transform(f,c){if(tap.port){const m=f.getMetadata(),d=f.data.slice(0);
tap.port.postMessage({data:d,key:f.type==='key',timestamp:f.timestamp,width:m.width||0,height:m.height||0,mimeType:m.mimeType||''},[d]);}c.enqueue(f);}}))
.pipeTo(t.writable).catch(()=>{});};
onmessage=({data})=>{const tap=taps.get(data.id);if(!tap)return;if(tap.port)tap.port.close();tap.port=data.port||null;
if(tap.port)tap.port.onmessage=(e)=>{if(e.data==='key'&&tap.t.sendKeyFrameRequest)tap.t.sendKeyFrameRequest().catch(()=>{});};};`;

let enabled = false;
let worker: Worker | undefined;
let nextId = 0;
/** Receivers tapped in the worker, by transform id. */
const taps = new Map<RTCRtpReceiver, number>();

/** A receiver whose frames are piped on the main thread (SEI's encoded streams): the port, once opened. */
interface PipedTap {
  port: MessagePort | undefined;
  /** A key frame is wanted (the decoder opened or asked): delta frames are withheld now and then until one comes. */
  wantKey: boolean;
  /** When a delta frame was last withheld (performance.now()). */
  lastAsk: number;
}

/** How often, at most, a delta frame is withheld to make the receiver ask for a key frame. */
const KEY_ASK_INTERVAL_MS = 1000;
const pipedTaps = new Map<RTCRtpReceiver, PipedTap>();

/** Forgets receivers of closed connections (a reconnection replaces the downlink, not the page). */
function prune(): void {
  for (const map of [taps, pipedTaps] as Map<RTCRtpReceiver, unknown>[]) {
    for (const receiver of map.keys()) if (receiver.transport?.state === 'closed') map.delete(receiver);
  }
}

/** An encoded video frame as the main-thread encoded streams hand it over. */
interface EncodedVideoFrame {
  data: ArrayBuffer;
  type?: string;
  timestamp: number;
  getMetadata?: () => { width?: number; height?: number; mimeType?: string };
}

type ScriptTransformCtor = new (worker: Worker, options: { id: number }) => unknown;

/** Turns the tap on or off for receivers whose track arrives from now on (the schedule's videoDecodeFallback). */
export function setDecodeTap(on: boolean): void {
  enabled = on && typeof (globalThis as { RTCRtpScriptTransform?: unknown }).RTCRtpScriptTransform === 'function';
}

/** Installs the pass-through tap on a video receiver whose track just arrived, when the tap is on. */
export function installDecodeTap(receiver: RTCRtpReceiver): void {
  if (!enabled || taps.has(receiver)) return;
  prune();
  const Transform = (globalThis as unknown as { RTCRtpScriptTransform: ScriptTransformCtor }).RTCRtpScriptTransform;
  worker ??= new Worker(URL.createObjectURL(new Blob([WORKER], { type: 'text/javascript' })));
  const id = ++nextId;
  (receiver as unknown as { transform: unknown }).transform = new Transform(worker, { id });
  taps.set(receiver, id);
}

/**
 * Opens the tap of the receiver playing `track`: a port that gets each encoded frame (`{data, key, timestamp,
 * width, height, mimeType}`) and takes `'key'` (ask for a key frame). Opening again replaces the previous port;
 * closing the port stops the copies. Undefined when the track's receiver has no tap.
 */
export function openDecodeTap(track: MediaStreamTrack): MessagePort | undefined {
  for (const [receiver, tap] of pipedTaps) {
    if (receiver.track !== track) continue;
    const channel = new MessageChannel();
    tap.port?.close();
    // Main-thread encoded streams have no sendKeyFrameRequest: withholding a delta frame makes the browser's
    // receiver miss a reference and ask the sender for a key frame itself (PLI), which the decoder needs to start.
    tap.port = channel.port2;
    tap.wantKey = true;
    tap.port.onmessage = (event: MessageEvent<unknown>) => {
      if (event.data === 'key') tap.wantKey = true;
    };
    return channel.port1;
  }
  for (const [receiver, id] of taps) {
    if (receiver.track !== track || !worker) continue;
    const channel = new MessageChannel();
    worker.postMessage({ id, port: channel.port2 }, [channel.port2]);
    return channel.port1;
  }
  return undefined;
}

/**
 * For a video receiver that SEI already pipes on the main thread (a receiver takes one transform, so the
 * worker tap cannot go there too): the pipe calls the returned function with each frame, which sends a copy
 * to the tap's port once the decoder opened it, and returns false for a frame the pipe must not pass on (a
 * delta frame withheld to get a key frame). Undefined when the tap is off.
 */
export function pipedDecodeTap(receiver: RTCRtpReceiver): ((frame: EncodedVideoFrame) => boolean) | undefined {
  if (!enabled) return undefined;
  prune();
  const tap: PipedTap = { port: undefined, wantKey: false, lastAsk: -Infinity };
  pipedTaps.set(receiver, tap);
  return (frame) => {
    if (!tap.port) return true;
    if (frame.type === 'key') {
      tap.wantKey = false;
    } else if (tap.wantKey) {
      const now = performance.now();
      if (now - tap.lastAsk >= KEY_ASK_INTERVAL_MS) {
        tap.lastAsk = now;
        return false;
      }
    }
    const meta = frame.getMetadata?.() ?? {};
    const data = frame.data.slice(0);
    tap.port.postMessage({ data, key: frame.type === 'key', timestamp: frame.timestamp, width: meta.width ?? 0, height: meta.height ?? 0, mimeType: meta.mimeType ?? '' }, [data]);
    return true;
  };
}

/** docs/behaviour.md §8: decode failure checks run 5 s after subscribe. */
export const DECODE_CHECK_MS = 5000;

/** Starts the fallback decoder for a remote track when it is this client's; true when it was. */
export type DecodeFallbackStarter = (track: MediaStreamTrack, userId: string, streamType: 'main' | 'sub') => boolean;
const starters = new Set<DecodeFallbackStarter>();

/** Registers a client's way to start TRTCVideoDecoder (the core never imports the plugin); returns the removal. */
export function onDecodeFailure(starter: DecodeFallbackStarter): () => void {
  starters.add(starter);
  return () => starters.delete(starter);
}

/**
 * Checks a tapped remote video 5 s after it starts playing: frames arrive but none decoded (the browser's
 * pipeline cannot decode the stream) → the client that plays it starts the fallback decoder. Returns the cancel.
 */
export function checkDecode(track: MediaStreamTrack, userId: string, streamType: 'main' | 'sub'): () => void {
  const timer = setTimeout(() => {
    const receiver = [...taps.keys(), ...pipedTaps.keys()].find((r) => r.track === track);
    if (!receiver || track.readyState === 'ended') return;
    void receiver.getStats().then((stats) => {
      let received = 0;
      let decoded = 0;
      stats.forEach((s: { type: string; framesReceived?: number; framesDecoded?: number }) => {
        if (s.type !== 'inbound-rtp') return;
        received += s.framesReceived ?? 0;
        decoded += s.framesDecoded ?? 0;
      });
      if (received === 0 || decoded > 0) return;
      for (const start of starters) if (start(track, userId, streamType)) return;
    }, () => undefined); // no stats from a receiver that closed: nothing to check
  }, DECODE_CHECK_MS);
  return () => clearTimeout(timer);
}

/**
 * A call measured on a bad network (issue 43): publishers and a viewer, each browser in its own network namespace
 * or on the host, any SDK behind a CallDriver (Conclave's here, LiveKit's in bench/src/network-livekit.ts), and
 * scenarios of impairments (harness/impair.ts) on the viewer's and the publisher's links. A scenario's window is
 * the spoken sentences (harness/speech.ts) played once from the speaking publisher while the viewer's page samples
 * what it gets (harness/call-quality.ts) and records the audio it plays; the recognizer scores the recording.
 */
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser.js';
import { markQuality, startQuality, stopQuality, videoTotals, type CallQuality } from './call-quality.js';
import { ImpairedLink, runSchedule, type Impairment, type ScheduleStep } from './impair.js';
import { NetNamespace } from './netns.js';
import { playSpeech, startRecording, stopRecording, transcribe, wordAccuracy, type Speech } from './speech.js';

/** One browser of the call: on the host (no namespace) or in a namespace of its own with an impairable link. */
export interface Side {
  browser: LaunchedBrowser;
  ns?: NetNamespace;
  link?: ImpairedLink;
  /** The host address the browser reaches the server and the app's pages on. */
  hostIp: string;
}

export interface PublishOptions {
  roomId: number;
  /** Camera: 640×480 15 fps unless told ('480p'); '720p' for 1280×720. */
  profile: '480p' | '720p' | '240p';
  small: boolean;
  /** The speaker publishes the speech as its microphone (installSpeech's track); the others no audio. */
  speech?: Speech;
}

/** How one SDK (Conclave's, LiveKit's) opens publishers and viewers; the pages it opens are measured alike. */
export interface CallDriver {
  readonly engine: string;
  /** Chromium flags a side's browser needs (e.g. the insecure origins treated as secure). */
  browserArgs(hostIp: string): Promise<string[]>;
  publish(side: Side, userId: string, options: PublishOptions): Promise<Page>;
  /** Joins without publishing and receives every publisher's camera (main stream) and audio; resolves once each video decodes. */
  view(side: Side, userId: string, options: { roomId: number; publishers: string[] }): Promise<Page>;
  close(): Promise<void>;
}

/** Opens a side: a browser in namespace `nsIndex` (with a default route to the host, so it reaches every host address), or on the host. */
export async function openSide(driver: CallDriver, nsIndex?: number): Promise<Side> {
  if (nsIndex === undefined) return { browser: await launchBrowser(await driver.browserArgs('127.0.0.1')), hostIp: '127.0.0.1' };
  const ns = NetNamespace.create(nsIndex);
  addDefaultRoute(ns);
  const link = ImpairedLink.create(ns);
  const browser = await launchBrowser(await driver.browserArgs(ns.hostIp), ns.chromiumWrapper());
  return { browser, ns, link, hostIp: ns.hostIp };
}

export async function closeSide(side: Side | undefined): Promise<void> {
  await side?.browser.close();
  side?.link?.close();
  side?.ns?.destroy();
}

function addDefaultRoute(ns: NetNamespace): void {
  ns.exec('ip', ['route', 'replace', 'default', 'via', ns.hostIp]);
}

/** Impairments of a scenario: per link (the viewer's, the speaking publisher's) and direction, or a schedule. */
export interface Scenario {
  name: string;
  viewer?: { up?: Impairment; down?: Impairment };
  publisher?: { up?: Impairment; down?: Impairment };
  /** Steps on the viewer's link during the window; a step with `mark` marks the viewer's window (recovery times). */
  schedule?: (ScheduleStep & { mark?: string })[];
}

/** A call set up for measuring: its pages and sides. */
export interface Call {
  driver: CallDriver;
  viewer: Page;
  viewerSide: Side;
  speaker: Page;
  speakerSide: Side;
  speech: Speech;
}

export interface Measured {
  scenario: string;
  engine: string;
  quality: CallQuality;
  transcript: string;
  /** Word accuracy against the spoken text. */
  accuracy: number;
  /** The page's figures summed over its videos (videoTotals). */
  video: ReturnType<typeof videoTotals>;
  /** Concealed share and dropouts of the speaker's audio (the loudest received audio stream). */
  audio: { concealedRatio: number; dropouts: number; dropoutMs: number };
  /** Recovery after each mark (ms, worst stream; undefined: some stream never recovered). */
  recoverMs: Record<string, number | undefined>;
  /** The speaking publisher's main video as it sends it at the end of the window (why a stream got small or slow). */
  sender: SenderVideo | undefined;
  /** Packets the impairments dropped over the window (the links' counters), per link and direction. */
  dropped: { viewerUp: number; viewerDown: number; speakerUp: number };
  /** When each step of the measurement ended (ms after it began): the window's own timing. */
  phases: Record<string, number>;
}

async function impair(side: Side, links: { up?: Impairment; down?: Impairment } | undefined): Promise<void> {
  if (!side.link) {
    if (links?.up || links?.down) throw new Error('this side has no impairable link (not in a namespace)');
    return;
  }
  await side.link.set('up', links?.up ?? {});
  await side.link.set('down', links?.down ?? {});
}

/**
 * Runs one scenario: impairments on, the sentences spoken, the viewer's window and recording over them (plus
 * `tailMs` for the path's delay), impairments off. The recognizer runs after the window (unless `transcribe: false`).
 */
export async function measure(call: Call, scenario: Scenario, tailMs = 1200, options: { transcribe?: boolean } = {}): Promise<Measured> {
  const t0 = performance.now();
  const phases: Record<string, number> = {};
  const phase = (name: string) => { phases[name] = Math.round(performance.now() - t0); };
  await impair(call.viewerSide, scenario.viewer);
  if (scenario.publisher) await impair(call.speakerSide, scenario.publisher);
  phase('impaired');
  await startQuality(call.viewer);
  await startRecording(call.viewer);
  await playSpeech(call.speaker);
  phase('speaking');
  const windowMs = call.speech.seconds * 1000 + tailMs;
  const schedule = scenario.schedule && call.viewerSide.link
    ? runSchedule(call.viewerSide.link, scenario.schedule, (step) => {
      const mark = (step as { mark?: string }).mark;
      if (mark) void markQuality(call.viewer, mark);
    })
    : Promise.resolve();
  await Promise.all([schedule, new Promise((resolve) => setTimeout(resolve, windowMs))]);
  phase('spoken');
  const quality = await stopQuality(call.viewer);
  const pcm = await stopRecording(call.viewer);
  const sender = await senderVideo(call.speaker);
  phase('stopped');
  const dropped = {
    viewerUp: await call.viewerSide.link?.droppedPackets('up') ?? 0,
    viewerDown: await call.viewerSide.link?.droppedPackets('down') ?? 0,
    speakerUp: await call.speakerSide.link?.droppedPackets('up') ?? 0,
  };
  await impair(call.viewerSide, undefined);
  if (call.speakerSide.link) await impair(call.speakerSide, undefined);
  // Without the recognizer (a quick test that asserts no words), the transcript is empty and the accuracy 0.
  const transcript = options.transcribe === false ? '' : await transcribe(pcm, call.speech.text);
  phase('transcribed');
  const speakerAudio = [...quality.audio].sort((a, b) => b.kbit - a.kbit)[0];
  const recoverMs: Record<string, number | undefined> = {};
  for (const name of Object.keys(quality.marks)) {
    const times = quality.video.map((v) => v.recoverMs[name]);
    recoverMs[name] = times.some((t) => t === undefined) ? undefined : Math.max(0, ...(times as number[]));
  }
  return {
    scenario: scenario.name,
    engine: call.driver.engine,
    quality,
    transcript,
    accuracy: wordAccuracy(call.speech.text, transcript),
    video: videoTotals(quality),
    audio: { concealedRatio: speakerAudio?.concealedRatio ?? 1, dropouts: speakerAudio?.dropouts ?? 0, dropoutMs: speakerAudio?.dropoutMs ?? 0 },
    recoverMs,
    phases,
    dropped,
    sender,
  };
}

/** The publisher's view of its biggest outgoing video layer (getStats outbound-rtp). */
export interface SenderVideo {
  width: number;
  fps: number;
  /** Chromium's reason the encoder is held back: 'cpu', 'bandwidth', 'other' or 'none'. */
  limitation: string;
  /** Seconds spent so far limited by cpu and by bandwidth. */
  cpuLimitedS: number;
  bandwidthLimitedS: number;
  nacks: number;
  plis: number;
  /** The encoder's target (kbit/s), the sender's bandwidth estimate. */
  targetKbit: number;
}

async function senderVideo(page: Page): Promise<SenderVideo | undefined> {
  return page.evaluate(async () => {
    type Out = { type: string; kind?: string; frameWidth?: number; framesPerSecond?: number; qualityLimitationReason?: string;
      qualityLimitationDurations?: Record<string, number>; nackCount?: number; pliCount?: number; targetBitrate?: number; bytesSent?: number };
    let best: Out | undefined;
    for (const pc of (window as unknown as { __pcs?: RTCPeerConnection[] }).__pcs ?? []) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((s: Out) => {
        if (s.type === 'outbound-rtp' && s.kind === 'video' && (s.frameWidth ?? 0) >= (best?.frameWidth ?? 0)) best = s;
      });
    }
    if (!best) return undefined;
    return {
      width: best.frameWidth ?? 0, fps: best.framesPerSecond ?? 0, limitation: best.qualityLimitationReason ?? 'none',
      cpuLimitedS: best.qualityLimitationDurations?.cpu ?? 0, bandwidthLimitedS: best.qualityLimitationDurations?.bandwidth ?? 0,
      nacks: best.nackCount ?? 0, plis: best.pliCount ?? 0, targetKbit: (best.targetBitrate ?? 0) / 1000,
    };
  });
}

/** Waits (bounded) until every received video of the page decodes again, e.g. after a scenario. */
export async function waitForVideo(page: Page, timeoutMs = 20_000): Promise<boolean> {
  const frames = () => page.evaluate(async () => {
    const out: number[] = [];
    for (const pc of (window as unknown as { __pcs?: RTCPeerConnection[] }).__pcs ?? []) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number }) => { if (s.type === 'inbound-rtp' && s.kind === 'video') out.push(s.framesDecoded ?? 0); });
    }
    return out;
  });
  const deadline = Date.now() + timeoutMs;
  let before = await frames();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 700));
    const now = await frames();
    if (now.length > 0 && now.length === before.length && now.every((n, i) => n > before[i]!)) return true;
    before = now;
  }
  return false;
}

/** Sets up a call: publishers (the first speaks) and a viewer watching them all. */
export async function openCall(driver: CallDriver, sides: { viewer: Side; speaker: Side; others?: Side }, options: {
  roomId: number; publishers: number; profile: PublishOptions['profile']; small: boolean; speech: Speech;
}): Promise<Call & { publishers: Page[] }> {
  const ids = Array.from({ length: options.publishers }, (_, i) => `cam${i + 1}`);
  const publishers: Page[] = [];
  for (const [i, id] of ids.entries()) {
    const side = i === 0 ? sides.speaker : sides.others ?? sides.speaker;
    publishers.push(await driver.publish(side, id, { roomId: options.roomId, profile: options.profile, small: options.small, speech: i === 0 ? options.speech : undefined }));
  }
  const viewer = await driver.view(sides.viewer, 'viewer', { roomId: options.roomId, publishers: ids });
  return { driver, viewer, viewerSide: sides.viewer, speaker: publishers[0]!, speakerSide: sides.speaker, speech: options.speech, publishers };
}

/** Closes a call's pages (its sides stay open for the next call). */
export async function closeCall(call: { viewer: Page; publishers: Page[] } | undefined): Promise<void> {
  // A page that is already gone (its browser closed by a failed call) has nothing left to close.
  for (const page of [call?.viewer, ...(call?.publishers ?? [])]) await page?.close().catch(() => undefined);
}


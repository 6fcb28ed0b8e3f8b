import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginContext } from '../../plugin-api/index.js';
import { deviceOf, LevelMeter, playTestTone, standIn } from './checks.js';
import { DetectorDialog, para, type Choice } from './dialog.js';
import { NETWORK_TEST_SECONDS, runNetworkTest, type TestClient } from './network.js';
import type { DeviceDetectorOptions, DeviceDetectorResult } from './options.js';
import { textFor, type DetectorText } from './text.js';

/** Ends the run: the × button or stop(). */
class Closed extends Error {}

/**
 * The DeviceDetector plugin (trtc-sdk-v5's plugins/device-detector): the pre-call check dialog. Camera (a live
 * preview, mirrored unless `cameraDetect.mirror` is false), microphone (a live level meter), speaker (a test
 * tone), each answered by the user (yes / no, or skip with `allowSkip`, default true); then, with
 * `networkDetect`, a real uplink and downlink test through the server (network.ts); then a report. start
 * resolves with the original's result shape when the user finishes, or undefined when the dialog is closed
 * (× or stopPlugin). `language`: 'en', 'zh' or 'auto' (the browser's).
 */
export class DeviceDetector {
  static readonly Name = 'DeviceDetector';
  private readonly _ctx: PluginContext;
  private _dialog: DetectorDialog | undefined;
  private _closed = false;
  private readonly _cleanups: (() => void)[] = [];

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  private _check(options: unknown): DeviceDetectorOptions {
    const fail = (message: string) => this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.TYPE, message, functionName: 'startPlugin' });
    if (options === undefined || options === null) return {};
    if (typeof options !== 'object') throw fail('DeviceDetectorOptions must be an object');
    const o = options as DeviceDetectorOptions;
    if (o.language !== undefined && !['auto', 'zh', 'en'].includes(o.language)) throw fail("language must be 'auto', 'zh' or 'en'");
    const n = o.networkDetect;
    if (n !== undefined && (typeof n !== 'object' || n === null || typeof n.sdkAppId !== 'number' || typeof n.userId !== 'string' || typeof n.userSig !== 'string')) {
      throw fail('networkDetect needs sdkAppId (number), userId and userSig (strings)');
    }
    return o;
  }

  /** Opens the dialog and resolves with the result when the user finishes (undefined if closed). */
  async start(options?: DeviceDetectorOptions): Promise<DeviceDetectorResult | undefined> {
    const o = this._check(options);
    if (this._dialog) throw this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, message: 'DeviceDetector is already open', functionName: 'startPlugin' });
    const text = textFor(o.language);
    const steps = [text.camera, text.microphone, text.speaker, ...(o.networkDetect ? [text.network] : []), text.report];
    this._closed = false;
    this._dialog = new DetectorDialog(text.title, text.close, steps, () => this._close());
    try {
      const camera = await this._camera(text, o.cameraDetect?.mirror !== false, o.allowSkip !== false);
      const microphone = await this._microphone(text, o.allowSkip !== false);
      const speaker = await this._speaker(text, o.allowSkip !== false);
      const network = o.networkDetect ? await this._network(text, o.networkDetect, steps.length - 2) : { isSuccess: false, result: { quality: 0, rtt: 0 } };
      const result: DeviceDetectorResult = { camera, microphone, speaker, network };
      await this._report(text, result, Boolean(o.networkDetect), steps.length - 1);
      return result;
    } catch (error) {
      if (error instanceof Closed) return undefined;
      throw error;
    } finally {
      this._release();
    }
  }

  /** Closes the dialog (start resolves undefined). */
  stop(): Promise<void> {
    this._close();
    return Promise.resolve();
  }

  destroy(): void {
    this._close();
  }

  private _close(): void {
    this._closed = true;
    this._dialog?.cancel('close');
  }

  private _release(): void {
    for (const cleanup of this._cleanups.splice(0)) cleanup();
    this._dialog?.close();
    this._dialog = undefined;
  }

  /** Asks a step's question; the × button ends the run. */
  private async _ask(step: string, index: number, content: Node[], allowSkip: boolean, text: DetectorText): Promise<boolean | undefined> {
    const choices: Choice[] = [{ label: text.no, key: 'no' }, { label: text.yes, key: 'yes', primary: true }];
    if (allowSkip) choices.unshift({ label: text.skip, key: 'skip' });
    const answer = await this._dialog!.ask(step, index, content, choices);
    if (answer === 'close' || this._closed) throw new Closed();
    return answer === 'skip' ? undefined : answer === 'yes';
  }

  private async _capture(constraints: MediaStreamConstraints): Promise<MediaStreamTrack | undefined> {
    try {
      const stream = await navigator.mediaDevices.getUserMedia(constraints);
      const track = stream.getTracks()[0];
      this._cleanups.push(() => track.stop());
      return track;
    } catch (error) {
      this._ctx.log.warn('DeviceDetector: capture failed:', error);
      return undefined;
    }
  }

  private async _camera(text: DetectorText, mirror: boolean, allowSkip: boolean): Promise<DeviceDetectorResult['camera']> {
    const track = await this._capture({ video: true });
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.autoplay = true;
    if (mirror) video.style.transform = 'scaleX(-1)';
    if (track) video.srcObject = new MediaStream([track]);
    const answer = await this._ask('camera', 0, [video, para(track ? text.cameraAsk : text.noDevice)], allowSkip, text);
    track?.stop();
    return { isSuccess: Boolean(track) && answer === true, device: await deviceOf(track, 'videoinput') };
  }

  private async _microphone(text: DetectorText, allowSkip: boolean): Promise<DeviceDetectorResult['microphone']> {
    const track = await this._capture({ audio: true });
    const meter = document.createElement('div');
    meter.className = 'dd-meter';
    const bar = document.createElement('div');
    meter.append(bar);
    let timer: ReturnType<typeof setInterval> | undefined;
    if (track) {
      const level = new LevelMeter(track);
      timer = setInterval(() => {
        const value = level.level();
        bar.style.width = `${Math.round(value * 100)}%`;
        meter.dataset.level = value.toFixed(3);
      }, 100);
      this._cleanups.push(() => {
        clearInterval(timer);
        level.close();
      });
    }
    const answer = await this._ask('microphone', 1, [meter, para(track ? text.microphoneAsk : text.noDevice)], allowSkip, text);
    clearInterval(timer);
    track?.stop();
    return { isSuccess: Boolean(track) && answer === true, device: await deviceOf(track, 'audioinput') };
  }

  private async _speaker(text: DetectorText, allowSkip: boolean): Promise<DeviceDetectorResult['speaker']> {
    const play = document.createElement('button');
    play.textContent = text.play;
    play.dataset.dd = 'play';
    play.addEventListener('click', () => {
      play.dataset.played = 'true';
      playTestTone().catch((error: unknown) => this._ctx.log.warn('DeviceDetector: the test tone failed:', error));
    });
    const answer = await this._ask('speaker', 2, [play, para(text.speakerAsk)], allowSkip, text);
    const devices = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[]); // no list: the stand-in names the kind
    return { isSuccess: answer === true, device: devices.find((d) => d.kind === 'audiooutput') ?? standIn('audiooutput') };
  }

  private async _network(text: DetectorText, info: NonNullable<DeviceDetectorOptions['networkDetect']>, index: number): Promise<DeviceDetectorResult['network']> {
    const status = para(text.networkRunning(NETWORK_TEST_SECONDS));
    this._dialog!.show('network', index, [status]);
    // Test clients of the app's own TRTC class (its public create()), on the same server.
    const TRTCClass = (this._ctx.client as { constructor: { create(options?: object): TestClient } }).constructor;
    const network = await runNetworkTest(() => TRTCClass.create(), info, NETWORK_TEST_SECONDS, (left) => {
      status.textContent = text.networkRunning(left);
      if (this._closed) throw new Closed();
    }, (...args) => { if (!this._closed) this._ctx.log.warn(...args); });
    if (this._closed) throw new Closed();
    return network;
  }

  private async _report(text: DetectorText, result: DeviceDetectorResult, withNetwork: boolean, index: number): Promise<void> {
    const table = document.createElement('table');
    const row = (name: string, value: string, ok: boolean) => {
      const tr = table.insertRow();
      tr.insertCell().textContent = name;
      const cell = tr.insertCell();
      cell.textContent = value;
      cell.className = ok ? 'dd-ok' : 'dd-bad';
    };
    for (const [name, part] of [[text.camera, result.camera], [text.microphone, result.microphone], [text.speaker, result.speaker]] as const) {
      row(`${name}${part.device.label ? ` (${part.device.label})` : ''}`, part.isSuccess ? text.passed : text.failed, part.isSuccess);
    }
    if (withNetwork) {
      row(text.networkQuality, text.qualityNames[result.network.result.quality] ?? String(result.network.result.quality), result.network.isSuccess);
      row(text.rtt, `${result.network.result.rtt} ms`, result.network.isSuccess);
    }
    const answer = await this._dialog!.ask('report', index, [table], [{ label: text.finish, key: 'finish', primary: true }]);
    if (answer === 'close') throw new Closed();
  }
}

import { CDN_CODE, SERVER_CODE, type CdnPublishMode } from '@conclave/protocol';
import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginContext, PluginSignalFailure } from '../../plugin-api/index.js';
import { toStartData, type CDNStreamingOptions } from './options.js';

/** How long the server may take to start a job (it waits until the RTMP ingest receives media). */
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;

const NAMES: Record<number, string> = Object.fromEntries(Object.entries(CDN_CODE).map(([name, code]) => [code, name]));

/**
 * The CDNStreaming plugin (trtc-sdk-v5's plugins/cdn-streaming): publishes the caller's main or sub stream,
 * or a server-side mix of several users, to an RTMP ingest (`target.url`, or the server's default ingest plus
 * `target.streamId`). Start, update and stop of one publish mode run one after another.
 */
export class CDNStreaming {
  static readonly Name = 'CDNStreaming';
  static readonly TYPE = Object.freeze({
    PublishMode: Object.freeze({
      PublishMainStreamToCDN: 'PublishMainStreamToCDN',
      PublishSubStreamToCDN: 'PublishSubStreamToCDN',
      PublishMixStreamToCDN: 'PublishMixStreamToCDN',
    } as const),
  });
  private readonly _ctx: PluginContext;
  private readonly _queues = new Map<string, Promise<unknown>>();

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Starts publishing (a mix starts its transcoding job); resolves when the ingest receives media. */
  start(options: CDNStreamingOptions): Promise<void> {
    return this._run(options, 'startPlugin', 'cdn-start');
  }

  /** Changes a running publish: a mix's layout and users apply live, on the same RTMP connection. */
  update(options: CDNStreamingOptions): Promise<void> {
    return this._run(options, 'updatePlugin', 'cdn-update');
  }

  /** Stops publishing in `options.target.publishMode`. */
  stop(options: CDNStreamingOptions): Promise<void> {
    const mode = (options as Partial<CDNStreamingOptions> | undefined)?.target?.publishMode;
    const modes = Object.values(CDNStreaming.TYPE.PublishMode) as string[];
    if (typeof mode !== 'string' || !modes.includes(mode)) {
      return Promise.reject(this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.RANGE, message: `target.publishMode must be one of ${modes.join(', ')}`, functionName: 'stopPlugin' }));
    }
    return this._serial(mode, async () => {
      this._needJoined('stopPlugin');
      try {
        await this._ctx.signal.request('cdn-stop', { publishMode: mode }, STOP_TIMEOUT_MS);
      } catch (error) {
        throw this._failure(error, 'stopPlugin', mode === 'PublishMixStreamToCDN' ? CDN_CODE.STOP_MIX_TRANSCODE_FAILED : CDN_CODE.STOP_PUBLISH_CDN_FAILED);
      }
      this._ctx.log.info(`CDNStreaming: ${mode} stopped`);
    });
  }

  private _run(options: CDNStreamingOptions, functionName: string, cmd: 'cdn-start' | 'cdn-update'): Promise<void> {
    let data;
    try {
      data = toStartData(options, this._ctx.room().userId, functionName, this._ctx.errors);
    } catch (error) {
      return Promise.reject(error);
    }
    const mode: CdnPublishMode = data.publishMode;
    return this._serial(mode, async () => {
      this._needJoined(functionName);
      try {
        const reply = await this._ctx.signal.request(cmd, data, START_TIMEOUT_MS) as { url?: string };
        this._ctx.log.info(`CDNStreaming: ${mode} ${cmd === 'cdn-start' ? 'started' : 'updated'} → ${reply.url ?? ''}`);
      } catch (error) {
        throw this._failure(error, functionName, mode === 'PublishMixStreamToCDN' ? CDN_CODE.START_MIX_TRANSCODE_FAILED : CDN_CODE.START_PUBLISH_CDN_FAILED);
      }
    });
  }

  private _needJoined(functionName: string): void {
    if (!this._ctx.signal.joined()) {
      throw this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, extraCode: EXTRA_CODE.NOT_JOINED, message: 'please call enterRoom() before using CDNStreaming', functionName });
    }
  }

  /** Server refusals as RtcErrors: bad parameters stay INVALID_PARAMETER; the rest name docs/behaviour.md §8's failure. */
  private _failure(error: unknown, functionName: string, fallback: number): Error {
    const { code, message } = error as PluginSignalFailure;
    if (code === SERVER_CODE.INVALID_PARAMETER) return this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.RANGE, message, functionName });
    const failure = NAMES[code] ? code : fallback;
    return this._ctx.errors({ code: ERROR_CODE.SERVER_ERROR, extraCode: failure, message: `${NAMES[failure]}: ${message}`, functionName });
  }

  private _serial(mode: string, task: () => Promise<void>): Promise<void> {
    const previous = this._queues.get(mode) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(task); // the previous task's caller got its failure
    this._queues.set(mode, next);
    return next;
  }

  /** Nothing to release: the server ends the jobs when this user leaves the room. */
  destroy(): void {
    this._queues.clear();
  }
}

import { CDN_CODE, SERVER_CODE, type CdnPublishMode } from '@conclave/protocol';
import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginContext, PluginSignalFailure } from '../context/index.js';
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
  readonly #ctx: PluginContext;
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(context: PluginContext) {
    this.#ctx = context;
  }

  /** Starts publishing (a mix starts its transcoding job); resolves when the ingest receives media. */
  start(options: CDNStreamingOptions): Promise<void> {
    return this.#run(options, 'startPlugin', 'cdn-start');
  }

  /** Changes a running publish: a mix's layout and users apply live, on the same RTMP connection. */
  update(options: CDNStreamingOptions): Promise<void> {
    return this.#run(options, 'updatePlugin', 'cdn-update');
  }

  /** Stops publishing in `options.target.publishMode`. */
  stop(options: CDNStreamingOptions): Promise<void> {
    const mode = (options as Partial<CDNStreamingOptions> | undefined)?.target?.publishMode;
    const modes = Object.values(CDNStreaming.TYPE.PublishMode) as string[];
    if (typeof mode !== 'string' || !modes.includes(mode)) {
      return Promise.reject(this.#ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.RANGE, message: `target.publishMode must be one of ${modes.join(', ')}`, functionName: 'stopPlugin' }));
    }
    return this.#serial(mode, async () => {
      this.#needJoined('stopPlugin');
      try {
        await this.#ctx.signal.request('cdn-stop', { publishMode: mode }, STOP_TIMEOUT_MS);
      } catch (error) {
        throw this.#failure(error, 'stopPlugin', mode === 'PublishMixStreamToCDN' ? CDN_CODE.STOP_MIX_TRANSCODE_FAILED : CDN_CODE.STOP_PUBLISH_CDN_FAILED);
      }
      this.#ctx.log.info(`CDNStreaming: ${mode} stopped`);
    });
  }

  #run(options: CDNStreamingOptions, functionName: string, cmd: 'cdn-start' | 'cdn-update'): Promise<void> {
    let data;
    try {
      data = toStartData(options, this.#ctx.room().userId, functionName, this.#ctx.errors);
    } catch (error) {
      return Promise.reject(error);
    }
    const mode: CdnPublishMode = data.publishMode;
    return this.#serial(mode, async () => {
      this.#needJoined(functionName);
      try {
        const reply = await this.#ctx.signal.request(cmd, data, START_TIMEOUT_MS) as { url?: string };
        this.#ctx.log.info(`CDNStreaming: ${mode} ${cmd === 'cdn-start' ? 'started' : 'updated'} → ${reply.url ?? ''}`);
      } catch (error) {
        throw this.#failure(error, functionName, mode === 'PublishMixStreamToCDN' ? CDN_CODE.START_MIX_TRANSCODE_FAILED : CDN_CODE.START_PUBLISH_CDN_FAILED);
      }
    });
  }

  #needJoined(functionName: string): void {
    if (!this.#ctx.signal.joined()) {
      throw this.#ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, extraCode: EXTRA_CODE.NOT_JOINED, message: 'please call enterRoom() before using CDNStreaming', functionName });
    }
  }

  /** Server refusals as RtcErrors: bad parameters stay INVALID_PARAMETER; the rest name SPEC §8's failure. */
  #failure(error: unknown, functionName: string, fallback: number): Error {
    const { code, message } = error as PluginSignalFailure;
    if (code === SERVER_CODE.INVALID_PARAMETER) return this.#ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.RANGE, message, functionName });
    const failure = NAMES[code] ? code : fallback;
    return this.#ctx.errors({ code: ERROR_CODE.SERVER_ERROR, extraCode: failure, message: `${NAMES[failure]}: ${message}`, functionName });
  }

  #serial(mode: string, task: () => Promise<void>): Promise<void> {
    const previous = this.#queues.get(mode) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(task);
    this.#queues.set(mode, next);
    return next;
  }

  /** Nothing to release: the server ends the jobs when this user leaves the room. */
  destroy(): void {
    this.#queues.clear();
  }
}

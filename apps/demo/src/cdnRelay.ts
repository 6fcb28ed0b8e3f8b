import type TRTC from '@conclave/sdk';
import { explainError } from './errors';

type TRTCInstance = ReturnType<typeof TRTC.create>;

export interface CdnSnapshot {
  /** The RTMP ingest set in Settings ('' = none: no relay offered). */
  readonly url: string;
  readonly state: 'off' | 'starting' | 'on' | 'stopping';
  /** The last failure, in words (e.g. the ingest cannot be reached: 16453). */
  readonly error: string | null;
}

const MODE = 'PublishMainStreamToCDN';
const RTMP_URL = /^rtmps?:\/\/[^\s/]+\/\S+$/;

/**
 * Relays my camera and microphone to a CDN (any RTMP ingest) with the SDK's CDNStreaming plugin, imported on
 * first use. The URL is a setting of this page; start resolves once the ingest receives media.
 */
export class CdnRelay {
  private readonly trtc: TRTCInstance;
  private readonly listeners = new Set<() => void>();
  private registered = false;
  private snapshot: CdnSnapshot = { url: '', state: 'off', error: null };

  constructor(trtc: TRTCInstance) {
    this.trtc = trtc;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): CdnSnapshot => this.snapshot;

  /** Sets the ingest URL; answers whether it is an rtmp:// or rtmps:// URL the plugin takes ('' clears it). */
  setUrl(url: string): boolean {
    const trimmed = url.trim();
    this.update({ url: trimmed, error: null });
    return trimmed === '' || RTMP_URL.test(trimmed);
  }

  async toggle(): Promise<void> {
    const { state, url } = this.snapshot;
    if (state === 'starting' || state === 'stopping') return;
    const starting = state === 'off';
    if (starting && !RTMP_URL.test(url)) return;
    this.update({ state: starting ? 'starting' : 'stopping', error: null });
    try {
      if (starting) {
        if (!this.registered) {
          this.trtc.use((await import('@conclave/sdk/plugins/cdn-streaming')).CDNStreaming);
          this.registered = true;
        }
        await this.trtc.startPlugin('CDNStreaming', { target: { publishMode: MODE, url } });
      } else {
        await this.trtc.stopPlugin('CDNStreaming', { target: { publishMode: MODE } });
      }
      this.update({ state: starting ? 'on' : 'off' });
    } catch (error) {
      this.update({ state: starting ? 'off' : 'on', error: explainError(error) });
    }
  }

  private update(change: Partial<CdnSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}

import { log } from '../log/logger.js';

/** The schedule's useTurnTcpInfo: when the media path is slow enough to try TURN (docs/behaviour.md §3, §4). */
export interface RttThresholds {
  /** Media round trip must exceed signalling's times this. */
  rttRatioThreshold: number;
  /** Media round trip must exceed this many ms. */
  rttThreshold: number;
  /** Media loss (%) that, sustained for `lossCount` checks (5) while signalling is fast, switches too; unset: no loss rule. */
  loss?: number;
  lossCount?: number;
}

/** Signalling round trip under which media loss is the UDP path's own (the original's default, docs/behaviour.md §4.9). */
export const LOSS_SIGNAL_RTT_MS = 100;
/** How long a switch is remembered for the client's address (7 days, as the original). */
export const RELAY_MEMORY_MS = 7 * 864e5;
const MEMORY_KEY = 'TRTC_WEB_FORCE_TURN_CLIENT_IP';

/** The remembered switch (localStorage): the next join from the same address starts on TURN/TCP (docs/behaviour.md §4.9). */
export const relayMemory = {
  has(ip: string | undefined): boolean {
    try {
      // Only a truthy address is stored; an entry without its time is no memory (NaN compares false).
      const saved = JSON.parse(localStorage.getItem(MEMORY_KEY) ?? '{}') as { clientIp?: string; updatedAt?: number };
      return saved.clientIp === ip && Date.now() - Number(saved.updatedAt) < RELAY_MEMORY_MS;
    } catch {
      return false; // no storage, or not ours to read: nothing remembered
    }
  },
  set(ip: string | undefined, remember: boolean): void {
    try {
      if (remember && ip) localStorage.setItem(MEMORY_KEY, JSON.stringify({ clientIp: ip, updatedAt: Date.now() }));
      else localStorage.removeItem(MEMORY_KEY);
    } catch {
      log.debug('relay not remembered');
    }
  },
};

/** Consecutive slow checks before relay is tried (docs/behaviour.md §4). */
export const RELAY_SLOW_CHECKS = 5;
/** A check every signalling ping (docs/behaviour.md §9: ping interval 2 s). */
export const RELAY_CHECK_INTERVAL_MS = 2000;
/** Links not connected this long after the switch: the relay failed (docs/behaviour.md §9). */
export const RELAY_SWITCH_TIMEOUT_MS = 10_000;

/**
 * The relay-switch rule (docs/behaviour.md §4): a check is slow when the media path's round trip exceeds signalling's
 * by the ratio threshold and is above the time threshold; 5 slow checks in a row trigger the switch. A
 * check without both figures (no new answer since the last) neither counts nor breaks the series.
 */
export class RelayRttRule {
  private readonly _thresholds: RttThresholds;
  private _slow = 0;
  private _lossy = 0;

  constructor(thresholds: RttThresholds) {
    this._thresholds = thresholds;
  }

  /** Feeds one check; true when this check completes a series of slow (or lossy, with a fast signalling) checks. */
  check(mediaRttMs: number | undefined, signalRttMs: number | undefined, lossPct?: number): boolean {
    const { rttRatioThreshold, rttThreshold, loss, lossCount = RELAY_SLOW_CHECKS } = this._thresholds;
    if (signalRttMs === undefined) return false;
    if (mediaRttMs !== undefined) this._slow = mediaRttMs > rttThreshold && mediaRttMs > Math.max(signalRttMs, 1) * rttRatioThreshold ? this._slow + 1 : 0;
    if (loss !== undefined && lossPct !== undefined) this._lossy = lossPct > loss && signalRttMs < LOSS_SIGNAL_RTT_MS ? this._lossy + 1 : 0;
    return this._slow >= RELAY_SLOW_CHECKS || this._lossy >= lossCount;
  }
}

/** Keeps the TURN URLs over TCP (turn:…?transport=tcp, turns:) when any exist: the point of the switch is a UDP path slower than TCP. */
export function preferTurnTcp(servers: readonly RTCIceServer[]): RTCIceServer[] {
  const isTcp = (url: string) => url.startsWith('turns:') || /[?&]transport=tcp\b/i.test(url);
  const tcp = servers.flatMap((server) => {
    const urls = (Array.isArray(server.urls) ? server.urls : [server.urls]).filter(isTcp);
    return urls.length > 0 ? [{ ...server, urls }] : [];
  });
  return tcp.length > 0 ? tcp : [...servers];
}

/** What the relay switch reads and drives. */
export interface RelaySwitchHost {
  /** The schedule's thresholds; undefined: no switching. */
  thresholds(): RttThresholds | undefined;
  /** True when a TURN server is known (nothing to switch to otherwise). */
  hasTurn(): boolean;
  /** True when the links already go through relay whatever this switch says (the app or the schedule forces it). */
  relayImposed(): boolean;
  /** Round trip of the media path (the uplink's or downlink's selected pair), undefined when unknown. */
  mediaRttMs(): Promise<number | undefined>;
  /** Media loss (%) of the last statistics, undefined before any. */
  lossPct(): number | undefined;
  /** Round trip of signalling (its ping), undefined when unknown. */
  signalRttMs(): number | undefined;
  /** The media links now, to check after the switch time-out. */
  links(): RTCPeerConnection[];
  /** Rebuilds every link with the policy relayForced now gives. */
  rebuild(): void;
}

/** Where the switch stands: never tried, on relay, or back after a failed relay. */
export type RelaySwitchState = 'direct' | 'relay' | 'fallback';

/**
 * Relay switching (docs/behaviour.md §4): checks the media path against signalling every 2 s; after 5 slow checks in a
 * row the links are rebuilt through TURN, once per session. A forced relay whose link fails, or whose links
 * are not connected 10 s after the switch, switches back to direct (all candidates).
 */
export class RelaySwitch {
  private readonly _host: RelaySwitchHost;
  private _state: RelaySwitchState = 'direct';
  private _rule: RelayRttRule | undefined;
  private _timer: ReturnType<typeof setInterval> | undefined;
  private _timeout: ReturnType<typeof setTimeout> | undefined;
  private _checking = false;
  private _ip: string | undefined;

  constructor(host: RelaySwitchHost) {
    this._host = host;
  }

  get state(): RelaySwitchState {
    return this._state;
  }

  /** True while the links must go through relay because of this switch. */
  get relayForced(): boolean {
    return this._state === 'relay';
  }

  /**
   * A join was answered, with the client's address: a switch remembered for it puts the links (built after the
   * join) on relay at once.
   */
  joined(clientIp: string | undefined): void {
    this._ip = clientIp;
    if (this._state !== 'direct' || this._host.relayImposed() || !this._host.hasTurn() || !this._host.thresholds() || !relayMemory.has(clientIp)) return;
    log.warn(`relay remembered for ${clientIp}`);
    this._toRelay(false);
  }

  /** Starts the checks (after a join); a repeated start keeps the running ones. */
  start(): void {
    if (this._timer) return;
    this._timer = setInterval(() => void this._check(), RELAY_CHECK_INTERVAL_MS);
  }

  /** Stops the checks and the switch time-out (the room is left). The state is kept: relay is tried once. */
  stop(): void {
    clearInterval(this._timer);
    clearTimeout(this._timeout);
    this._timer = undefined;
    this._timeout = undefined;
  }

  /**
   * A link failed or closed: when relay is forced by this switch it switches back and returns true
   * (the caller does not rebuild); false otherwise.
   */
  linkFailed(): boolean {
    if (this._state !== 'relay') return false;
    this._switchBack('a relayed link failed');
    return true;
  }

  private async _check(): Promise<void> {
    if (this._state !== 'direct' || this._checking || this._host.relayImposed() || !this._host.hasTurn()) return;
    const thresholds = this._host.thresholds();
    if (!thresholds) return;
    this._rule ??= new RelayRttRule(thresholds);
    this._checking = true;
    try {
      const media = await this._host.mediaRttMs();
      const signal = this._host.signalRttMs();
      const loss = this._host.lossPct();
      if (this._state === 'direct' && this._rule.check(media, signal, loss)) {
        log.warn(`rtt ${media}/${signal} ms, loss ${loss} %: switching the links to relay`);
        this._toRelay(true);
      }
    } catch (error) {
      log.debug('relay check failed:', error);
    } finally {
      this._checking = false;
    }
  }

  private _toRelay(rebuild: boolean): void {
    this._state = 'relay';
    if (rebuild) this._host.rebuild();
    clearTimeout(this._timeout);
    this._timeout = setTimeout(() => {
      this._timeout = undefined;
      if (this._state !== 'relay') return;
      const links = this._host.links();
      if (links.every((pc) => pc.connectionState === 'connected')) {
        log.info('links connected through relay');
        relayMemory.set(this._ip, true);
        return;
      }
      this._switchBack(`links not connected ${RELAY_SWITCH_TIMEOUT_MS} ms after the switch`);
    }, RELAY_SWITCH_TIMEOUT_MS);
  }

  private _switchBack(reason: string): void {
    this._state = 'fallback';
    clearTimeout(this._timeout);
    this._timeout = undefined;
    log.warn(`relay failed (${reason}): switching the links back to direct`);
    relayMemory.set(this._ip, false);
    this._host.rebuild();
  }
}

import { log } from '../log/logger.js';

/** The schedule's useTurnTcpInfo: when the media path is slow enough to try TURN (SPEC §3, §4). */
export interface RttThresholds {
  /** Media round trip must exceed signalling's times this. */
  rttRatioThreshold: number;
  /** Media round trip must exceed this many ms. */
  rttThreshold: number;
}

/** Consecutive slow checks before relay is tried (SPEC §4). */
export const RELAY_SLOW_CHECKS = 5;
/** A check every signalling ping (SPEC §9: ping interval 2 s). */
export const RELAY_CHECK_INTERVAL_MS = 2000;
/** Links not connected this long after the switch: the relay failed (SPEC §9). */
export const RELAY_SWITCH_TIMEOUT_MS = 10_000;

/**
 * The relay-switch rule (SPEC §4): a check is slow when the media path's round trip exceeds signalling's
 * by the ratio threshold and is above the time threshold; 5 slow checks in a row trigger the switch. A
 * check without both figures (no new answer since the last) neither counts nor breaks the series.
 */
export class RelayRttRule {
  readonly #thresholds: RttThresholds;
  #slow = 0;

  constructor(thresholds: RttThresholds) {
    this.#thresholds = thresholds;
  }

  /** Feeds one check; true when this check completes the series of slow checks. */
  check(mediaRttMs: number | undefined, signalRttMs: number | undefined): boolean {
    const { rttRatioThreshold, rttThreshold } = this.#thresholds;
    if (mediaRttMs === undefined || signalRttMs === undefined) return false;
    const slow = mediaRttMs > rttThreshold && mediaRttMs > Math.max(signalRttMs, 1) * rttRatioThreshold;
    this.#slow = slow ? this.#slow + 1 : 0;
    return this.#slow >= RELAY_SLOW_CHECKS;
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
 * Relay switching (SPEC §4): checks the media path against signalling every 2 s; after 5 slow checks in a
 * row the links are rebuilt through TURN, once per session. A forced relay whose link fails, or whose links
 * are not connected 10 s after the switch, switches back to direct (all candidates).
 */
export class RelaySwitch {
  readonly #host: RelaySwitchHost;
  #state: RelaySwitchState = 'direct';
  #rule: RelayRttRule | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #timeout: ReturnType<typeof setTimeout> | undefined;
  #checking = false;

  constructor(host: RelaySwitchHost) {
    this.#host = host;
  }

  get state(): RelaySwitchState {
    return this.#state;
  }

  /** True while the links must go through relay because of this switch. */
  get relayForced(): boolean {
    return this.#state === 'relay';
  }

  /** Starts the checks (after a join); a repeated start keeps the running ones. */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.#check(), RELAY_CHECK_INTERVAL_MS);
  }

  /** Stops the checks and the switch time-out (the room is left). The state is kept: relay is tried once. */
  stop(): void {
    clearInterval(this.#timer);
    clearTimeout(this.#timeout);
    this.#timer = undefined;
    this.#timeout = undefined;
  }

  /**
   * A link failed or closed: when relay is forced by this switch it switches back and returns true
   * (the caller does not rebuild); false otherwise.
   */
  linkFailed(): boolean {
    if (this.#state !== 'relay') return false;
    this.#switchBack('a relayed link failed');
    return true;
  }

  async #check(): Promise<void> {
    if (this.#state !== 'direct' || this.#checking || this.#host.relayImposed() || !this.#host.hasTurn()) return;
    const thresholds = this.#host.thresholds();
    if (!thresholds) return;
    this.#rule ??= new RelayRttRule(thresholds);
    this.#checking = true;
    try {
      const media = await this.#host.mediaRttMs();
      const signal = this.#host.signalRttMs();
      if (this.#state === 'direct' && this.#rule.check(media, signal)) this.#switchToRelay(media, signal);
    } catch (error) {
      log.debug('relay check failed:', error);
    } finally {
      this.#checking = false;
    }
  }

  #switchToRelay(media: number | undefined, signal: number | undefined): void {
    this.#state = 'relay';
    log.warn(`media round trip ${Math.round(media ?? 0)} ms vs signalling ${Math.round(signal ?? 0)} ms for ${RELAY_SLOW_CHECKS} checks: switching the links to relay`);
    this.#host.rebuild();
    clearTimeout(this.#timeout);
    this.#timeout = setTimeout(() => {
      this.#timeout = undefined;
      if (this.#state !== 'relay') return;
      const links = this.#host.links();
      if (links.length > 0 && links.every((pc) => pc.connectionState === 'connected')) {
        log.info('links connected through relay');
        return;
      }
      this.#switchBack(`links not connected ${RELAY_SWITCH_TIMEOUT_MS} ms after the switch`);
    }, RELAY_SWITCH_TIMEOUT_MS);
  }

  #switchBack(reason: string): void {
    this.#state = 'fallback';
    clearTimeout(this.#timeout);
    this.#timeout = undefined;
    log.warn(`relay failed (${reason}): switching the links back to direct`);
    this.#host.rebuild();
  }
}

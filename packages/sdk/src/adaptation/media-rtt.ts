/** The fields of the stats entries read here. */
interface PairStat {
  type: string;
  id: string;
  selectedCandidatePairId?: string;
  nominated?: boolean;
  state?: string;
  currentRoundTripTime?: number;
  totalRoundTripTime?: number;
  responsesReceived?: number;
  localCandidateId?: string;
  candidateType?: string;
  protocol?: string;
  relayProtocol?: string;
}

/** The selected candidate pair of a connection's stats: the transport's choice, else the nominated succeeded pair. */
export function selectedPair(stats: readonly PairStat[]): PairStat | undefined {
  const byId = new Map(stats.map((s) => [s.id, s]));
  for (const s of stats) {
    if (s.type === 'transport' && s.selectedCandidatePairId) {
      const pair = byId.get(s.selectedCandidatePairId);
      if (pair) return pair;
    }
  }
  return stats.find((s) => s.type === 'candidate-pair' && s.nominated === true && s.state === 'succeeded');
}

/** The totals of a pair at the previous read. */
interface Totals {
  pairId: string;
  total: number;
  responses: number;
}

/**
 * Round trips of connections' selected candidate pairs (STUN consent checks), as the mean over the
 * responses received since the previous read of the same connection: one late answer does not linger as
 * currentRoundTripTime does between checks, and no new answer means no figure.
 */
export class MediaRttMeter {
  private readonly _previous = new WeakMap<RTCPeerConnection, Totals>();

  /** The mean round trip in ms since the last read of `pc`, undefined when unknown (first read, no new answer, not connected). */
  async read(pc: RTCPeerConnection): Promise<number | undefined> {
    if (pc.connectionState !== 'connected') return undefined;
    const stats: PairStat[] = [];
    (await pc.getStats()).forEach((s: PairStat) => stats.push(s));
    return this.update(pc, selectedPair(stats));
  }

  /** Folds a read pair into the totals of `pc` and returns the mean round trip of its new answers in ms. */
  update(pc: RTCPeerConnection, pair: PairStat | undefined): number | undefined {
    if (!pair || typeof pair.totalRoundTripTime !== 'number' || typeof pair.responsesReceived !== 'number') return undefined;
    const now: Totals = { pairId: pair.id, total: pair.totalRoundTripTime, responses: pair.responsesReceived };
    const before = this._previous.get(pc);
    this._previous.set(pc, now);
    if (!before || before.pairId !== now.pairId || now.responses <= before.responses) return undefined;
    return (now.total - before.total) / (now.responses - before.responses) * 1000;
  }
}

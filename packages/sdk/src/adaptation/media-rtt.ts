/** The fields of the stats entries read here. */
interface PairStat {
  type: string;
  id: string;
  selectedCandidatePairId?: string;
  nominated?: boolean;
  state?: string;
  currentRoundTripTime?: number;
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

/** Round trip of a connection's selected candidate pair in ms (STUN consent checks), undefined when unknown. */
export async function mediaRttMs(pc: RTCPeerConnection): Promise<number | undefined> {
  if (pc.connectionState !== 'connected') return undefined;
  const stats: PairStat[] = [];
  (await pc.getStats()).forEach((s: PairStat) => stats.push(s));
  const rtt = selectedPair(stats)?.currentRoundTripTime;
  return typeof rtt === 'number' ? rtt * 1000 : undefined;
}

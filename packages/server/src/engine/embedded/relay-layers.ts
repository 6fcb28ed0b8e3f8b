import type { SubscriptionWants } from '../media-engine.js';

/** Which streams of a relayed source the importing node needs now (its local subscriptions' wants, together). */
export interface RelayLayers {
  audio: boolean;
  big: boolean;
  small: boolean;
  aux: boolean;
}

/** The label of the relay link's data channel, on which the importer tells the exporter its RelayLayers. */
export const RELAY_LAYERS_CHANNEL = 'conclave-relay-layers';

/** Before the importer says: everything, so media flows at once. */
export const ALL_LAYERS: Readonly<RelayLayers> = Object.freeze({ audio: true, big: true, small: true, aux: true });

/**
 * What a set of subscriptions needs of a source: audio if one wants it, the big video if one wants it, the small one
 * if one wants it alone (a subscriber wanting both gets the big, as chooseLayer picks), the auxiliary if one wants it.
 */
export function relayLayersOf(wants: Iterable<SubscriptionWants>, relayed: Iterable<RelayLayers> = []): RelayLayers {
  const layers: RelayLayers = { audio: false, big: false, small: false, aux: false };
  for (const want of wants) {
    layers.audio ||= want.audio;
    layers.big ||= want.bigVideo;
    layers.small ||= want.smallVideo && !want.bigVideo;
    layers.aux ||= want.auxVideo;
  }
  // Exports of the source to further nodes (a relay node) need what their importers need.
  for (const more of relayed) {
    layers.audio ||= more.audio;
    layers.big ||= more.big;
    layers.small ||= more.small;
    layers.aux ||= more.aux;
  }
  return layers;
}

/**
 * The data channel's one message (engine to engine, both Conclave's: it never reaches a client), written here once:
 * four booleans. `parseRelayLayers` takes only that shape; anything else is undefined.
 */
export function serializeRelayLayers(layers: RelayLayers): string {
  return JSON.stringify({ audio: layers.audio, big: layers.big, small: layers.small, aux: layers.aux });
}

export function parseRelayLayers(message: string): RelayLayers | undefined {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return undefined; // not JSON: not a message of ours; the caller counts it as refused
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { audio, big, small, aux } = value as Record<string, unknown>;
  if (typeof audio !== 'boolean' || typeof big !== 'boolean' || typeof small !== 'boolean' || typeof aux !== 'boolean') return undefined;
  return { audio, big, small, aux };
}

import type { AdminObserver } from '../admin/admin-observer.js';
import type { CloudApiObserver } from '../cloud-api/cloud-api-observer.js';
import type { SignalObserver } from '../signal/signal-observer.js';
import type { Metrics } from './metrics.js';

/** The observers the metrics follow (docs/architecture.md "Observers"). */
export interface ObservedParts {
  signal: SignalObserver;
  admin: AdminObserver;
  cloudApi: CloudApiObserver;
}

/**
 * Subscribes `metrics` to the parts' observers: signalling's messages, refusals and closed connections, the admin
 * and cloud APIs' actions. The parts tell their observers and never call the metrics. Returns the unsubscribe.
 */
export function observeParts(metrics: Metrics, parts: ObservedParts): () => void {
  const stops = [
    parts.signal.on((event) => {
      switch (event.type) {
        case 'message': metrics.signalMessage(); break;
        case 'refused': metrics.error('signal', event.code); break;
        case 'connection-refused':
          metrics.connectionRefused(event.reason);
          metrics.error('signal', event.code);
          break;
        case 'connection-closed': metrics.connectionClosed(event.reason); break;
      }
    }),
    parts.admin.on((event) => metrics.adminAction(event.action)),
    parts.cloudApi.on((event) => metrics.adminAction(`cloudapi.${event.action}`)),
  ];
  return () => { for (const stop of stops) stop(); };
}

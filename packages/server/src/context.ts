import { Authenticator } from './auth/authenticator.js';
import { CallbackDispatcher } from './callbacks/callback-dispatcher.js';
import type { Cluster } from './cluster/cluster.js';
import type { ServerConfig } from './config/config.js';
import type { MediaEngine } from './engine/media-engine.js';
import { DataLinks, type DataLinkPort } from './data-link/data-links.js';
import { ConnectionTracker } from './limits/connection-tracker.js';
import { JoinAdmission } from './limits/join-admission.js';
import { CustomMessageLimiter, KeyedRateLimiter } from './limits/rate-limiter.js';
import { JobManager } from './jobs/job-manager.js';
import { MixImages } from './jobs/mix-images.js';
import { TranscriberManager } from './transcriber/transcriber-manager.js';
import { recognizerFromEnv } from './transcriber/line-recognizer.js';
import type { Recognizer } from './transcriber/recognizer.js';
import { RecordingManager } from './recording/recording-manager.js';
import { createLogger, type Logger } from './log/logger.js';
import { Metrics } from './ops/metrics.js';
import { Observer } from './lifecycle/observer.js';
import type { AdminEvent, AdminObserver } from './admin/admin-observer.js';
import type { CloudApiEvent, CloudApiObserver } from './cloud-api/cloud-api-observer.js';
import type { SignalEvent, SignalObserver } from './signal/signal-observer.js';
import { BanList } from './room/ban-list.js';
import { recordCalls } from './room/call-records.js';
import { RoomRegistry } from './room/room.js';
import { CrossRooms } from './room/cross-room.js';
import { MixStreams } from './whep/mix-streams.js';
import { Store } from './store/store.js';

/** What every part of a running server shares. */
export interface ServerContext {
  config: ServerConfig;
  auth: Authenticator;
  rooms: RoomRegistry;
  engine: MediaEngine;
  /** Every participant's data link (custom messages): owned by signalling, the same for every engine. */
  dataLinks: DataLinkPort;
  /** Releases what a participant holds outside its room: media links, data link, message limits. Never throws. */
  releaseParticipant(participantId: string): void;
  logger: Logger;
  /** The embedded database: logs and bans. */
  store: Store;
  /** Admin-API bans. */
  bans: BanList;
  metrics: Metrics;
  /** Signalling's observer: messages, refusals, closed connections (the metrics subscribe). */
  signalObserver: SignalObserver;
  /** The admin API's observer: its actions. */
  adminObserver: AdminObserver;
  /** The cloud API's observer: its actions. */
  cloudApiObserver: CloudApiObserver;
  /** Open signalling connections per client address. */
  connections: ConnectionTracker;
  /** Joins and reconnections admitted at a bounded rate (limits.joinsPerSecond, limits.joinBurst). */
  admission: JoinAdmission;
  /** The custom / SEI message limit per sender (for whoever relays such messages). */
  customMessages: CustomMessageLimiter;
  /** Log uploads and statistics beacons per client address. */
  uploads: KeyedRateLimiter;
  /** Set when this server is a node of a Redis cluster (CONCLAVE_REDIS_URL). */
  cluster?: Cluster;
  /** Media jobs: mix transcodes, CDN relays, recordings. */
  jobs: JobManager;
  /** Recordings: started by configuration or the admin API; files in the recordings folder. */
  recordings: RecordingManager;
  /** Mix background images, a folder per app (uploaded through the admin API). */
  mixImages: MixImages;
  /** Event callbacks: room and media events queued in the store and POSTed to each app's callback URL. */
  callbacks: CallbackDispatcher;
  /** Stops writing call records (before the store closes: sessions still leaving then write nothing). */
  stopRecordingCalls: () => void;
  /** Live transcription robots (RealtimeTranscriber). */
  transcribers: TranscriberManager;
  /** Cross-room connections between anchors of two rooms (the CrossRoom plugin). */
  crossRooms: CrossRooms;
  /** CDN mixes with a streamId, played over WHEP. */
  mixStreams: MixStreams;
}

/** Builds a server context from a configuration and a media engine (opens the store; throws StoreError). */
export function createContext(config: ServerConfig, parts: { engine: MediaEngine; logger?: Logger; recognizer?: Recognizer }): ServerContext {
  const store = Store.open(config.storage.path);
  const rooms = new RoomRegistry();
  const connections = new ConnectionTracker();
  const { limits } = config;
  const logger = parts.logger ?? createLogger(config.logLevel);
  const metrics = new Metrics({ rooms, engine: parts.engine, connections: () => connections.total });
  const jobs = new JobManager({ engine: parts.engine, rooms, logger, limits: { perUser: limits.jobsPerUser, perApp: limits.jobsPerApp, perNode: limits.jobsPerNode } });
  // A listener's failure (a metrics bug) is logged; the part that told goes on.
  const listenerFailed = (part: string) => (err: unknown, event: { type: string }) => logger.error({ err, part, event: event.type }, 'an observer listener failed');
  const observers = {
    signal: new Observer<SignalEvent>(listenerFailed('signal')),
    admin: new Observer<AdminEvent>(listenerFailed('admin')),
    cloudApi: new Observer<CloudApiEvent>(listenerFailed('cloud-api')),
  };
  // The metrics follow the parts' observers (docs/architecture.md "Observers"); the parts never call them.
  observers.signal.on((event) => {
    switch (event.type) {
      case 'message': metrics.signalMessage(); break;
      case 'refused': metrics.error('signal', event.code); break;
      case 'connection-refused':
        metrics.connectionRefused(event.reason);
        metrics.error('signal', event.code);
        break;
      case 'connection-closed': metrics.connectionClosed(event.reason); break;
    }
  });
  observers.admin.on((event) => metrics.adminAction(event.action));
  observers.cloudApi.on((event) => metrics.adminAction(`cloudapi.${event.action}`));
  metrics.trackJobs(() => jobs.snapshot());
  metrics.trackLogStorage(() => store.logBytes().total);
  const net = {
    iceAddress: config.iceAddress, ...(config.mediaPorts ? { icePortRange: config.mediaPorts } : {}), ...(config.announcedAddress ? { announcedAddress: config.announcedAddress } : {}),
  };
  const dataLinks = new DataLinks(net);
  rooms.events.onListenerError((err, event) => logger.error({ err, event: event.type, room: event.roomKey }, 'a room event listener failed'));
  const stopRecordingCalls = recordCalls(rooms.events, store.callRecords);
  // The room's end reaches the engine: what its members still hold there closes (docs/architecture.md "The media-engine contract").
  rooms.events.on((event) => {
    if (event.type !== 'room-dismissed') return;
    parts.engine.endRoom(event.roomKey).catch((error: unknown) => logger.error({ err: error, room: event.roomKey }, 'media engine: ending a room failed'));
  });
  const recordings = new RecordingManager({ jobs, apps: config.apps, media: config.media, logger });
  const transcribers = new TranscriberManager({ engine: parts.engine, rooms, logger, recognizer: parts.recognizer ?? recognizerFromEnv(), limits });
  metrics.trackTranscribers(() => transcribers.snapshot());

  const auth = new Authenticator(config.apps, limits);
  const bans = new BanList(store);
  const customMessages = new CustomMessageLimiter(limits.customMessagesPerSecond, limits.customMessageBytesPerSecond);
  return {
    dataLinks,
    releaseParticipant: (participantId) => {
      dataLinks.close(participantId);
      customMessages.forget(participantId);
      parts.engine.removeParticipant(participantId).catch((error: unknown) => logger.error({ err: error, participantId }, 'media engine: removing a participant failed'));
    },
    config,
    auth,
    rooms,
    engine: parts.engine,
    logger,
    store,
    bans,
    metrics,
    signalObserver: observers.signal,
    adminObserver: observers.admin,
    cloudApiObserver: observers.cloudApi,
    connections,
    admission: new JoinAdmission({ perSecond: limits.joinsPerSecond, burst: limits.joinBurst }),
    customMessages,
    uploads: new KeyedRateLimiter({ amount: limits.logUploadsPerMinute, windowMs: 60_000 }),
    jobs,
    recordings,
    mixImages: new MixImages(config.media.mixImagePath),
    stopRecordingCalls,
    callbacks: new CallbackDispatcher({ apps: config.apps, limits, queue: store.callbacks, events: rooms.events, recordings, logger, registry: metrics.registry }),
    transcribers,
    crossRooms: new CrossRooms({ rooms, engine: parts.engine, logger, clustered: config.redisUrl !== undefined, auth, bans, limits }),
    mixStreams: new MixStreams(net, jobs),
  };
}

/** Releases what createContext opened (not the engine). */
export function closeContext(ctx: ServerContext): void {
  ctx.callbacks.close();
  ctx.stopRecordingCalls();
  ctx.dataLinks.closeAll();
  ctx.mixStreams.close();
  ctx.recordings.close();
  ctx.metrics.close();
  ctx.store.close();
}

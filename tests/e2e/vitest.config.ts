import { defineConfig } from 'vitest/config';

/**
 * Real-browser scenarios, once per media engine (embedded and janus; CONCLAVE_E2E_ENGINE=<one> runs
 * only that one). Generous bounds; every wait is on a condition.
 *
 * Scheduling (two cores; run-e2e.mjs runs the phases): the light files of both engines first, one file at
 * a time by default (CONCLAVE_E2E_WORKERS=2 for two: each file starts its own server on free ports, so they
 * never meet, but two media files share the cores); then the heavy files
 * (many pages, GPU effects, media jobs, several nodes) one at a time, so a loaded machine does not starve
 * their media; then the fault files (resilience, recovery), which use fixed network-namespace names and
 * root iptables, one at a time, never beside anything else.
 */
const FAULT_FILES = ['src/resilience.e2e.ts', 'src/recovery.e2e.ts', 'src/adaptation-relay.e2e.ts', 'src/plugins-small-stream.e2e.ts', 'src/faults-*.e2e.ts',
  // Issue 43: impaired links in network namespaces (fixed names, root iptables and tc).
  'src/network-impair.e2e.ts', 'src/network-bad-links.e2e.ts'];
const HEAVY_FILES = [
  'src/media-plane.e2e.ts', 'src/cluster-nodes.e2e.ts', 'src/cluster-draining.e2e.ts', 'src/video-effects-*.e2e.ts',
  'src/cdn-streaming.e2e.ts', 'src/cdn-mix-background.e2e.ts', 'src/recording-mixed.e2e.ts', 'src/cloud-api-recording.e2e.ts', 'src/cloud-api-cdn.e2e.ts',
  // npm install + tsc + vite build of a fresh app: beside a media file it starved that file's server (CI).
  'src/npm-pack.e2e.ts', 'src/plugins-paths.e2e.ts', 'src/plugins-vb-color.e2e.ts', 'src/plugins-mixer-517.e2e.ts',
];
/**
 * Files whose subject does not depend on the media engine (the SDK's plugins and packaging, the demo, TLS,
 * cluster bookkeeping): they run in the embedded project only.
 */
const EMBEDDED_ONLY = [
  'src/npm-pack.e2e.ts', 'src/plugins-*.e2e.ts', 'src/video-effects-*.e2e.ts', 'src/demo*.e2e.ts', 'src/network-tls.e2e.ts',
  'src/cluster-admin.e2e.ts', 'src/cluster-draining.e2e.ts', 'src/video-decoder.e2e.ts',
  // A media job's supervision, the disk and the cluster's Redis do not depend on the media engine.
  'src/faults-recording.e2e.ts', 'src/faults-redis.e2e.ts',
  // A mix's background image and the server API's CDN and recording actions are the jobs' and the API's subjects; the
  // engine's part (forwarding RTP to a job) cdn-streaming and recording-mixed prove on each engine (~85 s on Janus).
  'src/cdn-mix-background.e2e.ts', 'src/cloud-api-cdn.e2e.ts', 'src/cloud-api-recording.e2e.ts',
  // The SDK's reconnection timing; a Janus restart adds Janus's own start-up (recovery.e2e.ts covers Janus).
  'src/reconnect-*.e2e.ts',
  // In-page SDK subjects: the runtime object libraries reach for, the canvas player's drawing, the SDK's reading
  // of compute pressure (the stream it keeps asking for is the subscription every other file checks per engine).
  'src/api-runtime.e2e.ts', 'src/canvas-player.e2e.ts', 'src/adaptation-pressure.e2e.ts',
  // The SDK's API and local capture (state machines, options, events, experimental calls, capture profiles): what
  // they prove is the SDK's. What the engine does with the media they send (profiles up to 1080p, small and sub
  // streams, mute, switches) the conformance suite and remote-media, media-plane, whep-playback, cross-room and
  // churn prove on each engine. On Janus they cost ~110 s of a CI run (issue 41, "CI that stays fast").
  'src/local-media.e2e.ts', 'src/api-contract.e2e.ts', 'src/api-options.e2e.ts', 'src/api-experimental.e2e.ts', 'src/api-events.e2e.ts',
  // Issue 40: 5.18's core additions (device lists, 5021, a screen profile changed live) are the SDK's; the AudioPlayer
  // file (plugins-audio-player.e2e.ts) is under plugins-*.
  'src/api-518.e2e.ts',
  // Issue 43: the harness's own self-test has no engine; the quick bad-network subset is run on one engine (the bench runs the table).
  'src/network-impair.e2e.ts', 'src/network-bad-links.e2e.ts',
];
/** Files one at a time (run-e2e.mjs's default): then an embedded project's files may share one process. */
const ONE_AT_A_TIME = Number(process.env.CONCLAVE_E2E_WORKERS ?? 1) <= 1;
const ENGINES = (process.env.CONCLAVE_E2E_ENGINE ? [process.env.CONCLAVE_E2E_ENGINE] : ['embedded', 'janus']);

/**
 * One project: the `include` files of `engine`, named `<engine>-<kind>` (run-e2e.mjs runs each kind in its own phase).
 *
 * Embedded projects, files one at a time: one worker process runs the project's files one after another and keeps
 * its loaded modules (playwright-core, the server and its dependencies); a fresh process per file spent ~2 s loading
 * them again (~100 s a CI run). Each file still starts and closes its own server, browser and pages. Janus projects
 * keep a process per file: they were not tried shared (the reason first seen, janus-process.ts watchParent's shell
 * killing a pid that might have been reused, is fixed: it checks the pid's start time); ~45 s more to gain.
 */
function project(engine: string, kind: 'light' | 'heavy' | 'faults', include: string[], exclude: string[]) {
  return {
    extends: true as const,
    test: {
      name: `${engine}-${kind}`, include, exclude, env: { CONCLAVE_E2E_ENGINE: engine },
      ...(engine === 'embedded' && ONE_AT_A_TIME ? { poolOptions: { forks: { singleFork: true, isolate: false } } } : {}),
    },
  };
}

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 60_000,
    environment: 'node',
    maxWorkers: Number(process.env.CONCLAVE_E2E_WORKERS ?? 2),
    minWorkers: 1,
    projects: ENGINES.flatMap((engine) => {
      const notHere = engine === 'embedded' ? [] : EMBEDDED_ONLY;
      return [
        project(engine, 'light', ['src/**/*.e2e.ts'], [...FAULT_FILES, ...HEAVY_FILES, ...notHere]),
        project(engine, 'heavy', HEAVY_FILES, notHere),
        project(engine, 'faults', FAULT_FILES, notHere),
      ];
    }),
  },
});

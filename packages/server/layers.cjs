/**
 * The server's layer rules (docs/architecture.md "Layers"), checked by dependency-cruiser in
 * test/layers.test.ts: gateway → transports → domain → engine → base, never back; the composition root alone
 * knows every part. Paths are relative to the package folder.
 */
/** The folders of src/ in each layer (a new folder goes in one of these lists). */
const GATEWAY = ['gateway'];
const TRANSPORTS = ['signal', 'http', 'admin', 'ops', 'data-link', 'cloud-api', 'callbacks', 'whep'];
const DOMAIN = ['room', 'jobs', 'recording', 'cluster', 'auth', 'transcriber'];
const ENGINE = ['engine', 'webrtc'];
const BASE = ['config', 'log', 'limits', 'store', 'lifecycle', 'tls', 'turn', 'ids'];
const folders = (names) => `^src/(${names.join('|')})/`;

const LAYERS = {
  root: '^src/(server|context|cli|index)\\.ts$',
  gateway: folders(GATEWAY),
  transport: folders(TRANSPORTS),
  domain: folders(DOMAIN),
  engine: folders(ENGINE),
  base: folders(BASE),
};
/** werift, installed (node_modules) or not (a fixture tree: the bare name, unresolved). */
const WERIFT = '(^|/)node_modules/werift/|^werift$';
/** Test code: the test wing (packages/server/test/), and a test file or the old helpers' folder wherever one appears. */
const TESTS = '(^test/|\\.test\\.ts$|test-support/)';

/** A rule that `from` may not import `to`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from, pathNot: TESTS }, to: { path: to, pathNot: TESTS } });

module.exports = {
  forbidden: [
    forbid('no-root-imports', 'Only the composition root (server.ts, cli.ts, index.ts) knows the context and every part.', '^src/(?!(server|cli|index)\\.ts$)', LAYERS.root),
    forbid('gateway-from-root-only', 'Only the composition root mounts the gateway; what it mounts never imports it back.', '^src/(?!gateway/)(?!(server|cli|index)\\.ts$)', LAYERS.gateway),
    forbid('http-below-transports', 'http/ holds what the HTTP transports share: it imports none of them (only the metrics\' type).', '^src/http/', folders(TRANSPORTS.filter((name) => name !== 'http' && name !== 'ops'))),
    forbid('domain-not-transports', 'The domain never imports a transport (signalling, HTTP, admin, metrics, data links).', LAYERS.domain, LAYERS.transport),
    forbid('engine-not-above', 'The media engine never imports the domain or the transports.', LAYERS.engine, `${LAYERS.domain}|${LAYERS.transport}`),
    forbid('engine-not-wire', 'The media engine never imports the wire protocol (only its media facts, @conclave/protocol/media).', LAYERS.engine, 'protocol/(dist|src)/(?!media\\.)'),
    forbid('base-not-above', 'Base modules (config, log, limits, store, …) import nothing above them.', LAYERS.base, `${LAYERS.engine}|${LAYERS.domain}|${LAYERS.transport}`),
    forbid('werift-only-in-the-toolkit', 'werift is imported by the WebRTC toolkit alone (src/webrtc/); the engines, data links and WHEP use the toolkit (docs/architecture.md "The WebRTC toolkit").', '^src/(?!webrtc/)', WERIFT),
    forbid('toolkit-through-its-index', 'Outside src/webrtc/, the toolkit is used through its curated index.ts only.', '^src/(?!webrtc/)', '^src/webrtc/(?!index\\.ts$)'),
    forbid('toolkit-beneath-the-engines', 'The toolkit is beneath the engines and their contract: it imports nothing of src/engine/ (the contract takes LinkState from it), so no circle joins the two folders.', '^src/webrtc/', '^src/engine/'),
    forbid('engine-internals-private', "Outside src/engine/, an engine is used through its contract: of its folder only its front (embedded-engine.ts, janus-engine.ts) is imported.", '^src/(?!engine/)', '^src/engine/(embedded|janus)/(?!(embedded-engine|janus-engine)\\.ts$)'),
    forbid('embedded-not-janus', 'Neither engine imports the other: what both need is in the contract or the toolkit.', '^src/engine/embedded/', '^src/engine/janus/'),
    forbid('janus-not-embedded', 'Neither engine imports the other (the Janus playback relay uses the toolkit).', '^src/engine/janus/', '^src/engine/embedded/'),
    forbid('observed-not-calling-metrics', 'Signalling, the admin API and the cloud API tell their observers; the metrics subscribe (docs/architecture.md "Observers"): they import nothing of ops/, so no Deps of theirs carries Metrics.', '^src/(signal|admin|cloud-api)/', '^src/ops/'),
    forbid('ops-not-transports', 'The metrics read the domain and the engine and import no other transport: parts that still hand them a count import ops, never the reverse, so no circle goes through ops.', '^src/ops/', folders(TRANSPORTS.filter((name) => name !== 'ops'))),
    forbid('every-module-in-a-layer', 'Every folder of src/ belongs to a layer in layers.cjs.', '^src/', `^src/(?!(server|context|cli|index)\\.ts$)(?!(${[...GATEWAY, ...TRANSPORTS, ...DOMAIN, ...ENGINE, ...BASE].join('|')})/)`),
    // The test wing (docs/architecture.md "Testing"): tests import production code, never the reverse, and
    // none sits in src/ (a test file there is reported by its first import).
    { name: 'no-test-wing-imports', comment: 'Production code never imports test code (the test wing, test helpers, a test file).', severity: 'error', from: { path: '^src/', pathNot: TESTS }, to: { path: TESTS } },
    { name: 'no-test-file-in-src', comment: 'Test files sit in the test wing (packages/server/test/), not in src/.', severity: 'error', from: { path: '^src/.*\\.test\\.ts$' }, to: {} },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js'] },
  },
};

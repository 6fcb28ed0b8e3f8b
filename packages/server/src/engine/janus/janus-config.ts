import { accessSync, constants, existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, join } from 'node:path';

/** Where Debian's janus package puts its plugins and transports. */
export const DEBIAN_JANUS_LIB = '/usr/lib/x86_64-linux-gnu/janus';

/** Everything the generated configuration needs. */
export interface JanusConfigOptions {
  /** The temp folder holding the configuration and the plugin/transport links. */
  dir: string;
  /** Loopback port of the WebSocket API. */
  wsPort: number;
  /** Loopback port of the admin API over WebSocket (resource checks); none: no admin socket. */
  adminWsPort?: number;
  apiSecret: string;
  adminSecret: string;
  /** Only gather ICE candidates on this IPv4 address. */
  iceAddress?: string;
  /** UDP ports for ICE/RTP. */
  portRange?: [number, number];
  /** Public address advertised in candidates (1:1 NAT). */
  announcedAddress?: string;
  /** Janus event loops serving every handle's media (default: one per core). */
  eventLoops?: number;
}

/** Raised when Janus is not installed; the message names the Debian package. */
export class JanusMissingError extends Error {
  override name = 'JanusMissingError';
}

/** Finds the janus binary (CONCLAVE_JANUS_BIN, else PATH); throws JanusMissingError naming the package. */
export function findJanus(env: NodeJS.ProcessEnv = process.env): string {
  const candidates = env.CONCLAVE_JANUS_BIN ? [env.CONCLAVE_JANUS_BIN] : (env.PATH ?? '/usr/bin').split(delimiter).map((dir) => join(dir, 'janus'));
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // try the next one
    }
  }
  throw new JanusMissingError('CONCLAVE_ENGINE=janus needs the Janus WebRTC Server, which is not installed: apt-get install janus ' +
    '(Debian package `janus`), or set CONCLAVE_JANUS_URL to a running Janus');
}

/** The folder with Janus's plugins and transports (next to the binary's Debian layout, or CONCLAVE_JANUS_LIB). */
export function janusLibDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.CONCLAVE_JANUS_LIB ?? DEBIAN_JANUS_LIB;
  if (!existsSync(join(dir, 'plugins', 'libjanus_videoroom.so')) || !existsSync(join(dir, 'transports', 'libjanus_websockets.so'))) {
    throw new JanusMissingError(`Janus's VideoRoom plugin or WebSocket transport is missing under ${dir}: apt-get install janus (Debian package \`janus\`)`);
  }
  return dir;
}

const q = (value: string) => JSON.stringify(value);

/**
 * janus.jcfg: only our folders (the plugin and transport folders hold links to VideoRoom and the
 * WebSocket transport alone), secrets for the API and the admin API, no event handlers, full ICE,
 * half-trickle, our port range and address. Full ICE, not ICE-lite, for an earlier first frame: on the
 * subscriber links Janus offers it is the controlling agent and nominates the first pair that works
 * (libnice's aggressive nomination), so its DTLS starts ~20 ms after the browser's first check; ICE-lite
 * waited for Chromium's nomination, which comes one check interval (~50 ms) after the pair works. Janus
 * learns the browser's address from its checks (peer-reflexive), as the browser's answers carry no candidates.
 */
export function janusMainConfig(o: JanusConfigOptions): string {
  const nat = [
    'nice_debug = false',
    'ice_lite = false',
    'ice_nomination = "aggressive"',
    'ice_tcp = false',
    'ignore_mdns = true',
    // Janus never gathers on loopback interfaces: a loopback iceAddress (tests) means "this machine's interfaces".
    ...(o.iceAddress && !o.iceAddress.startsWith('127.') ? [`ice_enforce_list = ${q(o.iceAddress)}`] : ['ice_ignore_list = "vmnet"']),
    // Behind 1:1 NAT: host candidates carry the public address instead of the private one.
    ...(o.announcedAddress ? [`nat_1_1_mapping = ${q(o.announcedAddress)}`] : []),
  ];
  return [
    'general: {',
    `  configs_folder = ${q(o.dir)}`,
    `  plugins_folder = ${q(join(o.dir, 'plugins'))}`,
    `  transports_folder = ${q(join(o.dir, 'transports'))}`,
    `  events_folder = ${q(join(o.dir, 'none'))}`,
    `  loggers_folder = ${q(join(o.dir, 'none'))}`,
    '  debug_level = 3',
    // A fixed pool of event loops, one per core, instead of Janus's default thread per handle: fewer
    // CPU-seconds per forwarded packet (measured on 2 cores, ~10,200 vs ~8,200 packets per CPU-second); a
    // single loop costs a little less still (~10,500) but caps media at one core.
    `  event_loops = ${Math.max(1, Math.round(o.eventLoops ?? availableParallelism()))}`,
    '  debug_timestamps = true',
    `  api_secret = ${q(o.apiSecret)}`,
    `  admin_secret = ${q(o.adminSecret)}`,
    '  server_name = "conclave-janus"',
    '  session_timeout = 60',
    '  hide_dependencies = true',
    '}',
    'certificates: {}',
    `media: { ${o.portRange ? `rtp_port_range = "${o.portRange[0]}-${o.portRange[1]}"` : ''} }`,
    `nat: { ${nat.join(' ')} }`,
    'plugins: {}',
    'transports: {}',
    'loggers: {}',
    'events: { broadcast = false }',
    '',
  ].join('\n');
}

/**
 * The WebSocket transport: plain ws on loopback only, on our port; the admin API (guarded by the admin secret)
 * on a loopback port of its own when one is given, for the engine's resource checks (janus-admin.ts).
 */
export function janusWebSocketConfig(o: JanusConfigOptions): string {
  const admin = o.adminWsPort === undefined ? 'admin_ws = false' : `admin_ws = true admin_ws_port = ${o.adminWsPort} admin_ws_ip = "127.0.0.1"`;
  return [
    `general: { json = "compact" ws = true ws_port = ${o.wsPort} ws_ip = "127.0.0.1" wss = false }`,
    `admin: { ${admin} admin_wss = false }`,
    '',
  ].join('\n');
}

/**
 * VideoRoom: no static rooms (we create private ones per Conclave room), string ids off. No admin_key, so
 * neither room creation nor `rtp_forward` (lock_rtp_forward) asks for one: the API is loopback-only and
 * guarded by the API secret, and media jobs need `rtp_forward` (see janus-forwarder.ts).
 */
export function janusVideoRoomConfig(): string {
  return 'general: { }\n';
}

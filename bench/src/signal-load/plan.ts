/**
 * The shape of a signalling load: how many users in how many rooms, how fast they join, and what they do
 * once in (per second, across all users). Every figure has an environment knob for `npm run bench`.
 */

export interface LoadOptions {
  /** Connected users at the plateau. */
  users: number;
  /** Rooms they are spread over (evenly; every room is a live-scene room). */
  rooms: number;
  /** Anchors per room at the start (the rest join as audience). */
  anchorsPerRoom: number;
  /** Joins started per second during the ramp (and the leaves at the end). */
  joinRate: number;
  /** Heartbeats only: the cost of being connected. */
  idleSeconds: number;
  /** Heartbeats plus the activity below. */
  activeSeconds: number;
  /** Publish-flag changes per second (each a publish-list push to the rest of the room). */
  flagChangesPerSecond: number;
  /** Role switches (anchor ↔ audience) per second. */
  roleSwitchesPerSecond: number;
  /** Users leaving and joining again per second (their join latency is measured with everyone else connected). */
  rejoinsPerSecond: number;
  /** Connections per source address (127.x.y.z), below the server's per-address limit. */
  usersPerAddress: number;
  /** Pin the server to core 0 and this process to core 1 (taskset; BENCH_SIGNAL_PIN=1). Off by default: on a shared
   * host a pinned process waits for its one core while the other is free. */
  pin: boolean;
}

const num = (name: string, fallback: number): number => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number (got '${value}')`);
  return n;
};

/**
 * Defaults scaled from the user count: 20 users a room, 4 anchors each, joins at 180/s — under the node's default
 * admission rate (limits.joinsPerSecond 200), so the ramp measures joins, not the admission queue's waits (a storm
 * is join-storm's subject) — one user in 20 changing flags each second.
 */
export function loadOptions(users: number, overrides: Partial<LoadOptions> = {}): LoadOptions {
  return {
    users,
    rooms: Math.max(1, Math.round(users / 20)),
    anchorsPerRoom: 4,
    joinRate: 180,
    idleSeconds: 10,
    activeSeconds: 20,
    flagChangesPerSecond: users / 20,
    roleSwitchesPerSecond: users / 200,
    rejoinsPerSecond: users / 200,
    usersPerAddress: 40,
    pin: false,
    ...overrides,
  };
}

/** The options from the environment: BENCH_SIGNAL_USERS (5000), BENCH_SIGNAL_ROOMS, BENCH_SIGNAL_JOIN_RATE, … */
export function loadOptionsFromEnv(): LoadOptions {
  const users = num('BENCH_SIGNAL_USERS', 5000);
  const d = loadOptions(users);
  return loadOptions(users, {
    rooms: num('BENCH_SIGNAL_ROOMS', d.rooms),
    joinRate: num('BENCH_SIGNAL_JOIN_RATE', d.joinRate),
    idleSeconds: num('BENCH_SIGNAL_IDLE_SECONDS', d.idleSeconds),
    activeSeconds: num('BENCH_SIGNAL_ACTIVE_SECONDS', d.activeSeconds),
    flagChangesPerSecond: num('BENCH_SIGNAL_FLAGS_PER_SECOND', d.flagChangesPerSecond),
    roleSwitchesPerSecond: num('BENCH_SIGNAL_ROLE_SWITCHES_PER_SECOND', d.roleSwitchesPerSecond),
    rejoinsPerSecond: num('BENCH_SIGNAL_REJOINS_PER_SECOND', d.rejoinsPerSecond),
    pin: process.env.BENCH_SIGNAL_PIN === '1',
  });
}

/** Source address of user `index`'s connection: 127.1.0.1, 127.1.0.2, … `perAddress` users each. */
export function sourceAddress(index: number, perAddress: number): string {
  const k = Math.floor(index / perAddress) + 1;
  return `127.${1 + ((k >> 16) & 255)}.${(k >> 8) & 255}.${k & 255}`;
}

import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { RTMP_HOST_ENTRY } from '../config/schema.js';

/**
 * Where a media job may publish (docs/behaviour.md §5.5 "RTMP targets"): the app's configured RTMP hosts
 * (`apps[].rtmpHosts`) and the server's shared ingest, nothing else. Every refusal and every failure reaches
 * the client as one generic answer (CDN_FAILED), so a job can be used neither to reach hosts the operator did
 * not list nor to tell open, closed and filtered ports apart; the reason goes to the server's log.
 */

/** The one answer a client gets when an RTMP target is refused or its connection fails. */
export const CDN_FAILED = 'publishing to the CDN failed';

/** Why a target was refused (for the server's log only: never sent to a client). */
export class RtmpTargetRefused extends Error {
  override name = 'RtmpTargetRefused';
}

/** Resolves a host name to its addresses (dns.lookup: the system resolver the job's own connection uses). */
export type HostLookup = (host: string) => Promise<string[]>;

const DEFAULT_PORT = { rtmp: 1935, rtmps: 443 } as const;
/** How long a target's name may take to resolve. */
const LOOKUP_TIMEOUT_MS = 5000;

/**
 * A target's parts, read strictly: scheme, a host of letters, digits, dots and hyphens (or a bracketed IPv6
 * address), an optional port, then the path. No user info, no escapes, no backslashes: what this reads as the
 * host is what GStreamer's URI parser reads as the host.
 */
const TARGET = /^(rtmps?):\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?(\/[^\s\\#]*)$/;

/** Addresses a job never connects to unless the operator lists the address itself. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32]] as const) PRIVATE.addSubnet(net, prefix, 'ipv6');
/** IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4): the IPv4 address is what is reached. */
const EMBEDDED_V4 = [/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, /^64:ff9b::(\d+\.\d+\.\d+\.\d+)$/i];

/** True for loopback, private, link-local, CGNAT, documentation, multicast and reserved addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family !== 6) return true; // not an address: never connected to
  const lower = address.toLowerCase();
  for (const form of EMBEDDED_V4) {
    const inner = form.exec(lower)?.[1];
    if (inner) return isPrivateAddress(inner);
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) {
    const [hi, lo] = [parseInt(sixToFour[1], 16), parseInt(sixToFour[2], 16)];
    return isPrivateAddress(`${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`);
  }
  return PRIVATE.check(lower, 'ipv6');
}

const systemLookup: HostLookup = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RtmpTargetRefused(`its host did not resolve within ${ms} ms`)), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** The entry of `hosts` (each an RTMP_HOST_ENTRY; others never match) that names this host and port, if any. */
function matchingEntry(hosts: readonly string[], host: string, port: number, defaultPort: number): string | undefined {
  return hosts.find((raw) => {
    if (!RTMP_HOST_ENTRY.test(raw)) return false;
    const entry = raw.toLowerCase();
    const split = /^(.*?)(?::(\d{1,5}|\*))?$/.exec(entry);
    const name = split?.[1] ?? entry;
    const entryPort = split?.[2] ?? String(defaultPort);
    if (entryPort !== '*' && Number(entryPort) !== port) return false;
    return name.startsWith('*.') ? host.endsWith(name.slice(1)) && host.length > name.length - 1 : host === name;
  });
}

/**
 * Checks an RTMP target a client or the app's backend asked for: its host and port must be one of the app's
 * `hosts` (RTMP_HOST_ENTRY); a host named by an IP address
 * in the list is reached whatever the address; a host named by a name must resolve to public addresses only
 * (never loopback, private, link-local…). Throws RtmpTargetRefused with the reason.
 */
export async function checkRtmpTarget(url: string, hosts: readonly string[], resolve: HostLookup = systemLookup): Promise<void> {
  const parts = TARGET.exec(url);
  if (!parts) throw new RtmpTargetRefused('not a plain rtmp:// or rtmps:// URL');
  const scheme = parts[1] as keyof typeof DEFAULT_PORT;
  const host = parts[2].toLowerCase();
  const port = parts[3] === undefined ? DEFAULT_PORT[scheme] : Number(parts[3]);
  if (port < 1 || port > 65535) throw new RtmpTargetRefused(`port ${port} is out of range`);
  if (!matchingEntry(hosts, host, port, DEFAULT_PORT[scheme])) throw new RtmpTargetRefused(`${host}:${port} is not one of the app's rtmpHosts`);
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  // An address the operator listed is reached as listed (the tests' loopback nginx-rtmp, an operator's LAN CDN).
  if (isIP(literal) !== 0) return;
  // A listed name must not lead to an address the operator did not list (DNS that points inwards).
  const addresses = await withTimeout(resolve(host), LOOKUP_TIMEOUT_MS).catch((error: unknown) => {
    throw error instanceof RtmpTargetRefused ? error : new RtmpTargetRefused(`its host does not resolve: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (addresses.length === 0) throw new RtmpTargetRefused('its host resolves to no address');
  const inward = addresses.filter(isPrivateAddress);
  if (inward.length > 0) throw new RtmpTargetRefused(`${host} resolves to a non-public address (${inward.join(', ')})`);
}

/** `text` with every character but those `keep` matches written `.XX` (the hex of its UTF-8 bytes). */
function escaped(text: string, keep: RegExp): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => {
    const c = String.fromCharCode(byte);
    return byte < 0x80 && keep.test(c) ? c : `.${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

/**
 * How a room is named in a stream id on the shared ingest: an integer room as is, a string room as `s-` and
 * its id with every character but letters, digits and `-` escaped (escaped). Neither contains `_`, so
 * `<sdkAppId>_<room>_<name>` names one app's one room only, whatever the name.
 */
export function ingestRoomPart(roomRef: string): string {
  return roomRef.startsWith('s:') ? `s-${escaped(roomRef.slice(2), /[A-Za-z0-9-]/)}` : roomRef;
}

/** A userId as part of a stream id: letters, digits, `_` and `-` as they are (the original's default names), the rest escaped. */
export function ingestUserPart(userId: string): string {
  return escaped(userId, /[A-Za-z0-9_-]/);
}

/**
 * A stream's URL on the shared ingest (media.rtmpIngest): the ingest plus `<sdkAppId>_<room>_<name>`, so a
 * name chosen by one room's client (or one app's backend) never takes another room's or app's stream.
 */
export function ingestUrl(ingest: string, sdkAppId: number, roomRef: string, name: string): string {
  return `${ingest.endsWith('/') ? ingest : `${ingest}/`}${sdkAppId}_${ingestRoomPart(roomRef)}_${name}`;
}

import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * Which peers are reverse proxies whose X-Forwarded-For is believed (the `trustProxy` setting): false, none;
 * true, the direct peer whatever its address (one proxy in front); a list, the peers and forwarded hops whose
 * address is in one of these addresses or CIDR ranges (IPv4 or IPv6).
 */
export type ProxyTrust = boolean | readonly string[];

/** The address (without a port, IPv4-mapped IPv6 as IPv4) of one X-Forwarded-For entry; undefined if it is none. */
export function plainAddress(raw: string): string | undefined {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  if (value.toLowerCase().startsWith('::ffff:') && isIP(value.slice(7)) === 4) value = value.slice(7);
  return isIP(value) ? value : undefined;
}

/** Compiled lists (a configuration's list is compiled once). */
const compiled = new WeakMap<readonly string[], BlockList>();

function blockList(ranges: readonly string[]): BlockList {
  let list = compiled.get(ranges);
  if (!list) {
    list = new BlockList();
    // Entries are addresses or CIDR ranges (the configuration's schema checked them: isProxyRange).
    for (const entry of ranges) {
      const [address, prefix] = entry.split('/');
      const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
      list.addSubnet(address, prefix === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefix), family);
    }
    compiled.set(ranges, list);
  }
  return list;
}

/** True when a peer at `address` is a trusted proxy (its X-Forwarded-For is read; its connections carry many clients). */
export function isTrustedProxy(address: string | undefined, trust: ProxyTrust): boolean {
  if (typeof trust === 'boolean') return trust;
  const plain = plainAddress(address ?? '');
  return plain !== undefined && blockList(trust).check(plain, isIP(plain) === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client's address for per-address limits and lockouts (docs/architecture.md "Client addresses behind proxies"). X-Forwarded-For is
 * read only when the direct peer is a trusted proxy, and then from the right: each proxy appends the address of
 * the peer it got the request from, so the right-most entry no trusted proxy wrote is the client; everything to
 * its left is whatever the client sent. An entry that is no address (a proxy that passes the header on
 * unchecked) stops the walk at the proxy that handed it over.
 */
export function clientAddress(req: Pick<IncomingMessage, 'headers' | 'socket'>, trust: ProxyTrust): string {
  const peer = plainAddress(req.socket.remoteAddress ?? '') ?? req.socket.remoteAddress ?? 'unknown';
  if (trust === false) return peer;
  const header = req.headers['x-forwarded-for'];
  const raw = Array.isArray(header) ? header.join(',') : header;
  if (!raw?.trim()) return peer;
  const hops = raw.split(',');
  if (trust === true) return plainAddress(hops[hops.length - 1]) ?? peer;
  if (!isTrustedProxy(peer, trust)) return peer;
  let nearest = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plainAddress(hops[i]);
    if (!hop) return nearest;
    if (!isTrustedProxy(hop, trust)) return hop;
    nearest = hop;
  }
  return nearest;
}

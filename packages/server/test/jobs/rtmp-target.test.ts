import { describe, expect, it } from 'vitest';
import { appSchema } from '../../src/config/schema.js';
import { checkRtmpTarget, ingestRoomPart, ingestUrl, isPrivateAddress, RtmpTargetRefused, type HostLookup } from '../../src/jobs/rtmp-target.js';

/** A resolver of fixed answers (the system's would need real DNS). */
const dns = (answers: Record<string, string[]>): HostLookup => async (host) => {
  const found = answers[host];
  if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return found;
};

const refusal = async (url: string, hosts: string[], resolve: HostLookup = dns({})) => {
  try {
    await checkRtmpTarget(url, hosts, resolve);
    return 'allowed';
  } catch (error) {
    expect(error).toBeInstanceOf(RtmpTargetRefused);
    return (error as Error).message;
  }
};

describe('RTMP targets (docs/behaviour.md §5.5)', () => {
  it('38.5 only hosts the app lists are reached, on the listed (or default) port; names must resolve to public addresses; listed IP addresses are reached as listed', async () => {
    const cdn = dns({ 'live.example.com': ['203.0.114.7'], 'push.cdn.example': ['198.51.101.9', '2606:4700::1'], 'inward.example.com': ['10.1.2.3'], 'rebind.example.com': ['203.0.114.8', '127.0.0.1'] });
    const hosts = ['live.example.com', '*.cdn.example:*', '10.0.0.5:1936', '127.0.0.1:*', 'inward.example.com', 'rebind.example.com'];
    expect(await refusal('rtmp://live.example.com/live/a?key=1', hosts, cdn)).toBe('allowed');
    expect(await refusal('rtmp://LIVE.example.com:1935/live/a', hosts, cdn)).toBe('allowed');
    expect(await refusal('rtmp://push.cdn.example:8080/app/b', hosts, cdn)).toBe('allowed');
    expect(await refusal('rtmp://10.0.0.5:1936/live/c', hosts, cdn)).toBe('allowed');
    expect(await refusal('rtmp://127.0.0.1:41935/live/c', hosts, cdn)).toBe('allowed');
    // Another port, another host, a subdomain wildcard's own domain, a host not listed at all.
    expect(await refusal('rtmp://live.example.com:1936/live/a', hosts, cdn)).toMatch(/not one of the app's rtmpHosts/);
    expect(await refusal('rtmps://live.example.com/live/a', hosts, cdn)).toBe('allowed');
    expect(await refusal('rtmps://live.example.com:1935/live/a', hosts, cdn)).toMatch(/not one of the app's rtmpHosts/);
    expect(await refusal('rtmp://cdn.example/live/a', hosts, cdn)).toMatch(/not one of the app's rtmpHosts/);
    expect(await refusal('rtmp://10.0.0.5/live/c', hosts, cdn)).toMatch(/not one of the app's rtmpHosts/);
    expect(await refusal('rtmp://127.0.0.2:1935/live/c', hosts, cdn)).toMatch(/not one of the app's rtmpHosts/);
    expect(await refusal('rtmp://127.0.0.1:1935/live/c', [], cdn)).toMatch(/not one of the app's rtmpHosts/);
    // A listed name that leads inwards (or partly inwards, or nowhere) is refused.
    expect(await refusal('rtmp://inward.example.com/live/a', hosts, cdn)).toMatch(/non-public address \(10\.1\.2\.3\)/);
    expect(await refusal('rtmp://rebind.example.com/live/a', hosts, cdn)).toMatch(/non-public address \(127\.0\.0\.1\)/);
    expect(await refusal('rtmp://localhost/live/a', ['localhost'], dns({ localhost: ['::1'] }))).toMatch(/non-public/);
    expect(await refusal('rtmp://gone.example.com/live/a', ['gone.example.com'], cdn)).toMatch(/does not resolve/);
    // Spellings another parser reads differently are not targets at all.
    for (const url of ['rtmp://live.example.com@127.0.0.1/live/a', 'rtmp://127.0.0.1\\@live.example.com/live/a', 'rtmp://live.example.com%2f@x/live', 'rtmp://live.example.com/live#@127.0.0.1', 'http://live.example.com/live/a', 'rtmp://live.example.com:99999/live/a']) {
      expect(await refusal(url, hosts, cdn), url).not.toBe('allowed');
    }
    // Another spelling of a listed address is a name, resolved like any other (2130706433 is 127.0.0.1).
    expect(await refusal('rtmp://2130706433/live/a', ['2130706433'], dns({ 2130706433: ['127.0.0.1'] }))).toMatch(/non-public/);
  });

  it('38.5 non-public addresses: loopback, private, link-local, CGNAT, multicast, and IPv6 forms of them', () => {
    for (const a of ['127.0.0.1', '10.9.8.7', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '64:ff9b::10.0.0.1', '2002:7f00:1::', 'not-an-address']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '203.0.114.7', '2606:4700::1', '::ffff:8.8.8.8', '2002:0808:0808::']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('38.5 stream ids on the shared ingest are namespaced by app and room, so no name reaches another room\'s or app\'s stream', () => {
    expect(ingestUrl('rtmp://ingest/live/', 1400000001, '1234', 'show')).toBe('rtmp://ingest/live/1400000001_1234_show');
    expect(ingestUrl('rtmp://ingest/live', 1400000001, 's:lobby-1', 'show')).toBe('rtmp://ingest/live/1400000001_s-lobby-1_show');
    // A string room whose id holds the separator cannot name another room's stream.
    expect(ingestRoomPart('s:a_b')).toBe('s-a.5Fb');
    const names = new Set([['s:a_b', 'c'], ['s:a', 'b_c'], ['12', '3_x'], ['s:12', '3_x'], ['s:1 2', 'x'], ['s:1.202', 'x']].map(([room, name]) => ingestUrl('rtmp://i/l/', 1, room, name)));
    expect(names.size).toBe(6);
    expect(ingestUrl('rtmp://i/l/', 1, '5', 'x')).not.toBe(ingestUrl('rtmp://i/l/', 2, '5', 'x'));
  });

  it('38.5 an app\'s rtmpHosts entries are checked with the configuration: anything but a host, *.domain or address with an optional port is refused', () => {
    const app = (rtmpHosts: string[]) => appSchema.safeParse({ sdkAppId: 1, secretKey: 'rtmp-target-test-secret-key-0123', rtmpHosts }).success;
    expect(app(['live.example.com', '*.cdn.example:*', '10.0.0.5:1936', '[::1]:1935', '127.0.0.1:*'])).toBe(true);
    for (const bad of ['rtmp://live.example.com', 'live.example.com/live', '*', '*.', 'user@host', 'host:port', 'a b', '']) expect(app([bad]), bad).toBe(false);
  });
});

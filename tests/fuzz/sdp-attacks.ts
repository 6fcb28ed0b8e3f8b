/**
 * Hostile SDP, by category: a real offer or answer of the fuzz's own werift client, broken one way — cut short,
 * swollen, odd codecs, SSRCs and extmap ids, repeated or orphaned m-lines, fingerprints and ICE credentials that
 * lie, bad candidates, simulcast that overflows. Sent as `publish` and `data-link` offers and `downlink-answer`
 * answers; every one must get a coded reply (or a negotiation failure the server reports), and leave no link behind.
 */
import type { Rng } from './prng.js';

const CRLF = '\r\n';
/** Lines per media section (the session part is section 0). */
function sections(sdp: string): string[][] {
  const out: string[][] = [[]];
  for (const line of sdp.split(CRLF).filter((l) => l !== '')) {
    if (line.startsWith('m=')) out.push([]);
    out[out.length - 1].push(line);
  }
  return out;
}
const join = (parts: string[][]): string => `${parts.flat().join(CRLF)}${CRLF}`;

/** Replaces, in every line matching `pattern`, the match by `replace`. */
function rewrite(sdp: string, pattern: RegExp, replace: (match: string) => string): string {
  return sdp.split(CRLF).map((line) => line.replace(pattern, replace)).join(CRLF);
}

/** Adds `lines` to media section `index` (or each one). */
function addLines(sdp: string, lines: string[], index?: number): string {
  const parts = sections(sdp);
  parts.forEach((p, i) => { if (i > 0 && (index === undefined || i === index)) p.push(...lines); });
  return join(parts);
}

const withoutLines = (sdp: string, pattern: RegExp) => sdp.split(CRLF).filter((l) => !pattern.test(l)).join(CRLF);

/** SDP attack categories: each turns a real description into a hostile one. */
export const SDP_ATTACKS = {
  truncated: (rng, sdp) => sdp.slice(0, rng.int(sdp.length)),
  huge: (rng, sdp) => {
    const parts = sections(sdp);
    const media = parts.slice(1);
    const copies = rng.pick([10, 40, 100]);
    const swollen = join([parts[0], ...Array.from({ length: copies }, (_, i) => media[i % media.length])]);
    return swollen.length > 32 * 1024 ? swollen.slice(0, 32 * 1024 - 1) : swollen;
  },
  'odd-codecs': (rng, sdp) => rng.pick([
    () => rewrite(sdp, /^m=(audio|video) (\d+) (\S+) .*/, (m) => `${m.split(' ').slice(0, 3).join(' ')} ${rng.pick(['0', '127', '128', '255', '-1', 'abc', '96 96 96', ''])}`),
    () => rewrite(sdp, /^a=rtpmap:\d+ /, () => `a=rtpmap:${rng.pick(['0', '128', '300', '-5', 'x'])} `),
    () => rewrite(sdp, /\/(90000|48000)/, () => `/${rng.pick(['0', '4294967296', '-1', '1e9', 'x'])}`),
    () => rewrite(sdp, /^a=fmtp:(\d+) .*/, (m) => `${m.split(' ')[0]} ${rng.pick(['profile-level-id=zzzzzz;packetization-mode=9', 'apt=999', 'x'.repeat(2000), '=;=;=', 'minptime=-1;useinbandfec=2'])}`),
    () => addLines(sdp, ['a=rtpmap:96 H265/90000', 'a=rtpmap:97 rtx/90000', 'a=fmtp:97 apt=200', 'a=rtcp-fb:* nack', 'a=rtcp-fb:96 goog-remb x y z']),
    () => withoutLines(sdp, /^a=rtpmap:/),
  ])(),
  'odd-ssrcs': (rng, sdp) => rng.pick([
    () => rewrite(sdp, /^a=ssrc:\d+/, () => `a=ssrc:${rng.pick(['0', '4294967295', '4294967296', '-1', 'abc', '1'])}`),
    () => addLines(sdp, ['a=ssrc-group:FID', 'a=ssrc-group:FID 1', `a=ssrc-group:SIM ${Array.from({ length: 30 }, (_, i) => i + 1).join(' ')}`, 'a=ssrc:1 cname:x', 'a=ssrc:1 msid:- -']),
    () => addLines(sdp, Array.from({ length: 200 }, (_, i) => `a=ssrc:${1000 + i} cname:${'c'.repeat(50)}`), 2),
  ])(),
  'extmap-ids': (rng, sdp) => rng.pick([
    () => rewrite(sdp, /^a=extmap:\d+/, () => `a=extmap:${rng.pick(['0', '15', '16', '255', '256', '4096', '-1', 'x', '1/sendrecv', '2/bogus'])}`),
    () => addLines(sdp, ['a=extmap:1 urn:ietf:params:rtp-hdrext:toffset', 'a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid', 'a=extmap-allow-mixed', `a=extmap:14 ${'u'.repeat(3000)}`]),
    () => addLines(sdp, Array.from({ length: 60 }, (_, i) => `a=extmap:${i} urn:x:${i}`)),
  ])(),
  'repeated-m-lines': (rng, sdp) => {
    const parts = sections(sdp);
    return rng.pick([
      () => join([parts[0], parts[1], parts[1], ...parts.slice(2)]), // the same mid twice
      () => rewrite(sdp, /^a=group:BUNDLE .*/, () => rng.pick(['a=group:BUNDLE 0 0 0', 'a=group:BUNDLE 9 10 11', 'a=group:BUNDLE', `a=group:BUNDLE ${'x '.repeat(500)}`])),
      () => withoutLines(sdp, /^a=mid:/),
      () => rewrite(sdp, /^m=(audio|video) \d+/, (m) => `${m.split(' ')[0]} ${rng.pick(['0', '65536', '-1'])}`),
      () => join([parts[0], ...Array.from({ length: 100 }, () => parts[1])]).slice(0, 32 * 1024 - 1),
      () => join([parts[0], ['m=application 9 UDP/DTLS/SCTP webrtc-datachannel', 'a=mid:0', 'a=sctp-port:0', 'a=max-message-size:-1'], ...parts.slice(1)]),
    ])();
  },
  fingerprints: (rng, sdp) => rng.pick([
    () => withoutLines(sdp, /^a=fingerprint:/),
    () => rewrite(sdp, /^a=fingerprint:\S+ \S+/, () => `a=fingerprint:${rng.pick(['sha-999 AA', 'md5 00:11', 'sha-256 ', 'sha-256 zz:zz', `sha-256 ${'AB:'.repeat(31)}AB`, `sha-256 ${'A'.repeat(3000)}`])}`),
    () => addLines(sdp, [`a=fingerprint:sha-256 ${'00:'.repeat(31)}00`, 'a=fingerprint:sha-1 00']),
    () => rewrite(sdp, /^a=setup:\S+/, () => `a=setup:${rng.pick(['active', 'passive', 'holdconn', 'x', ''])}`),
  ])(),
  'ice-credentials': (rng, sdp) => rng.pick([
    () => withoutLines(sdp, /^a=ice-(ufrag|pwd):/),
    () => rewrite(sdp, /^a=ice-ufrag:\S*/, () => `a=ice-ufrag:${rng.pick(['', 'x'.repeat(3000), '😀😀', 'a:b', ' '])}`),
    () => rewrite(sdp, /^a=ice-pwd:\S*/, () => `a=ice-pwd:${rng.pick(['', 'short', 'p'.repeat(3000)])}`),
    () => addLines(sdp, ['a=ice-options:trickle renomination ice2', 'a=ice-lite', 'a=end-of-candidates']),
  ])(),
  candidates: (rng, sdp) => addLines(sdp, Array.from({ length: 1 + rng.int(20) }, () => rng.pick([
    'a=candidate:garbage',
    'a=candidate:1 1 udp 2130706431 ::1 9 typ host',
    'a=candidate:1 1 udp 2130706431 localhost 9 typ host',
    'a=candidate:1 1 udp 2130706431 00000000-0000-0000-0000-000000000000.local 9 typ host',
    'a=candidate:1 1 udp 99999999999 127.0.0.1 65536 typ host',
    'a=candidate:1 1 udp 1 127.0.0.1 0 typ host',
    'a=candidate:1 1 tcp 1 127.0.0.1 9 typ host tcptype active',
    'a=candidate:1 2 udp 1 127.0.0.1 9 typ relay raddr 10.0.0.1 rport 1',
    'a=candidate:1 1 udp 1 999.999.999.999 9 typ srflx raddr x rport y',
    `a=candidate:1 1 udp 1 127.0.0.1 9 typ host ${'generation 0 '.repeat(100)}`,
  ])), 1),
  simulcast: (rng, sdp) => {
    const rids = Array.from({ length: rng.pick([3, 50, 200]) }, (_, i) => rng.chance(0.1) ? 'r'.repeat(300) : `r${i}`);
    return addLines(sdp, [...rids.map((r) => `a=rid:${r} ${rng.pick(['send', 'recv', 'x'])}`), `a=simulcast:send ${rids.join(';')}`, 'a=simulcast:recv ~;;'], 2);
  },
  encoding: (rng, sdp) => rng.pick([
    () => sdp.split(CRLF).join('\n'),
    () => sdp.replace(/\r\n/g, '\r'),
    () => sdp.replace('v=0', rng.pick(['v=1', '', 'v=0\u0000'])),
    () => `${sdp.slice(0, 200)}\u0000\ud800\u202e${sdp.slice(200)}`,
    () => sdp.split(CRLF).map((l) => (rng.chance(0.1) ? `${l} ` : l)).join(CRLF),
    () => Array.from({ length: 400 }, () => rng.pick(['a=', 'm=', 'c=IN IP4', 'b=AS:-1', '=', 'x=y'])).join(CRLF),
  ])(),
  directions: (rng, sdp) => rewrite(sdp, /^a=(sendonly|recvonly|sendrecv|inactive)$/, () => `a=${rng.pick(['sendonly', 'recvonly', 'sendrecv', 'inactive', 'bogus'])}`),
} satisfies Record<string, (rng: Rng, sdp: string) => string>;

export type SdpAttack = keyof typeof SDP_ATTACKS;

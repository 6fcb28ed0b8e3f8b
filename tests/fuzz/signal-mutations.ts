/**
 * Schema-aware inputs for the signalling fuzz: a valid payload (or two) of every command in @conclave/protocol's
 * COMMANDS, and every way of breaking one field at a time — wrong types, boundary numbers (also ones JSON.stringify
 * cannot write: Infinity, -0), huge strings, deep nesting, hostile unicode, the field missing, extra and
 * prototype-polluting fields — plus broken envelopes. A case is (command, template, path, mutation): enumerated
 * the same way for any user, so a seed picks the same cases on every run.
 */
import type { Command, CommandMap } from '@conclave/protocol';
import { LIMITS } from '@conclave/protocol';
import { COMMAND_SCHEMAS, COMMANDS } from '@conclave/protocol/schemas';

/** What a connection's templates are made for: its user, its signed userSig, its room and another room. */
export interface TemplateContext {
  sdkAppId: number;
  userId: string;
  userSig: string;
  roomId: string;
  otherRoomId: string;
}

type Templates = { [C in Command]: (ctx: TemplateContext) => CommandMap[C]['data'][] };

const wants = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };
const layout = (userId: string) => ({ userId, streamType: 'main' as const, fillMode: 0 as const, width: 320, height: 240, locationX: 0, locationY: 0, zOrder: 1 });

/**
 * Valid data of every command (typed: a command added to the protocol without a template here does not compile).
 * CDN templates name no target (no url, no streamId, no default ingest on the fuzzed server): valid through the
 * mix rules, they are refused before a media job is spawned, whatever one field becomes.
 */
export const TEMPLATES: Templates = {
  join: (c) => [
    { sdkAppId: c.sdkAppId, userId: c.userId, userSig: c.userSig, roomId: c.roomId, useStringRoomId: false, trtcRole: 20, trtcScene: 1, version: '5.17.1', ua: 'fuzz', terminalType: 15 },
    {
      sdkAppId: c.sdkAppId, userId: c.userId, userSig: c.userSig, roomId: c.roomId, useStringRoomId: false, trtcRole: 21, trtcScene: 2,
      latencyLevel: 1, businessInfo: '{"k":1}', userDefineRecordId: 'rec_1', version: '5.17.1', protocolVersion: 3, ua: 'fuzz', terminalType: 15,
      resumeToken: '00000000-0000-0000-0000-000000000000', admissionTicket: 't1',
    },
  ],
  leave: () => [{}],
  heartbeat: () => [{}],
  'switch-role': () => [{ role: 20 }, { role: 21, latencyLevel: 2 }],
  'switch-room': (c) => [{ userSig: c.userSig, roomId: c.otherRoomId, useStringRoomId: false }],
  publish: () => [{ sdp: 'v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n', encrypted: false }],
  unpublish: () => [{}],
  'mute-flag': () => [{ flag: 9 }],
  'data-link': () => [{ sdp: 'v=0\r\n' }],
  subscribe: () => [{ srcUserId: 'fz-nobody', ...wants, decrypts: false }],
  'subscribe-change': () => [{ srcUserId: 'fz-nobody', ...wants }],
  unsubscribe: () => [{ srcUserId: 'fz-nobody' }],
  'downlink-answer': () => [{ seq: 1, sdp: 'v=0\r\n' }],
  'downlink-reset': () => [{}],
  'cdn-start': (c) => [
    { publishMode: 'PublishMainStreamToCDN', encoding: { videoWidth: 640, videoHeight: 480, videoBitrate: 800, videoFramerate: 15, videoGOP: 2, audioSampleRate: 48000, audioBitrate: 64, audioChannels: 1 } },
    { publishMode: 'PublishMixStreamToCDN', mix: { backgroundColor: 0, audioMixUserList: [c.userId], videoLayoutList: [layout(c.userId)] } },
  ],
  'cdn-update': (c) => [{ publishMode: 'PublishMixStreamToCDN', mix: { videoLayoutList: [layout(c.userId)] } }],
  'cdn-stop': () => [{ publishMode: 'PublishMainStreamToCDN' }],
  'transcriber-start': (c) => [{ sourceLanguage: 'xx-fuzz', translationLanguages: [], userIdsToTranscribe: [c.userId], transcriberRobotId: 'fz_robot' }],
  'transcriber-stop': () => [{ transcriberRobotId: 'fz_robot' }],
  'cross-room-start': (c) => [{ roomId: Number(c.otherRoomId), isStrRoomId: false, userId: 'fz-anchor' }],
  'cross-room-update': (c) => [{ updateList: [{ roomId: c.otherRoomId, isStrRoomId: false, userId: 'fz-anchor', muteAudio: true, muteVideo: false, muteSubStream: false }] }],
  'cross-room-stop': (c) => [{ roomId: Number(c.otherRoomId), isStrRoomId: false }, {}],
};

/** A JSON token written as is into the message (JSON.stringify cannot write it: Infinity, -0, deep nesting, a __proto__ key). */
export class Raw {
  constructor(readonly text: string) {}
}

type Path = (string | number)[];
type Mutation = { name: string; apply: (current: unknown) => unknown } | { name: 'delete'; apply: 'delete' };

const HUGE_LENGTHS = [16, 17, 32, 33, 64, 65, 128, 129, 256, 1024, 1025, 4096, 4097, 32 * 1024, 32 * 1024 + 1, LIMITS.MAX_MESSAGE_BYTES];
const HOSTILE_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', '\udc00x', '\u202eevil', '\ufeff1', '\u2028', 'e\u0301', '😀'.repeat(20), '中文房间', '١٢٣',
  '0', '00001', '-1', ' 1', '1 ', '1e3', '0x10', '4294967294', '4294967295', '18446744073709551616', 'NaN', 'null', 'undefined', 'true',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty', '<script>alert(1)</script>', '../../etc/passwd', '%00', "' OR 1=1 --", '${jndi:x}',
  'rtmp://127.0.0.1:1/live/x', 'v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n',
];
const BOUNDARY_NUMBERS: unknown[] = [
  0, 1, -1, 0.5, -0.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e308, -1e308, 5e-324,
  127, 128, 255, 256, 65535, 65536, 20, 21, 22, 1920, 1921,
  new Raw('-0'), new Raw('1e999'), new Raw('-1e999'), new Raw('1e-400'), new Raw('1.0'), new Raw('1E2'),
];
const DEEP_ARRAY = new Raw(`${'['.repeat(3000)}${']'.repeat(3000)}`);
const DEEP_OBJECT = new Raw(`${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`);

/** Every mutation of one value (the field's current value given: some mutations grow it). */
const VALUE_MUTATIONS: Mutation[] = [
  { name: 'delete', apply: 'delete' },
  ...([null, true, false, [], {}, 'x'] as unknown[]).map((v) => ({ name: `type:${JSON.stringify(v)}`, apply: () => v })),
  { name: 'wrapped-in-array', apply: (v: unknown) => [v] },
  { name: 'wrapped-in-object', apply: (v: unknown) => ({ value: v }) },
  { name: 'number-as-string', apply: (v: unknown) => (typeof v === 'number' ? String(v) : v) },
  { name: 'string-as-number', apply: (v: unknown) => (typeof v === 'string' && v !== '' && !Number.isNaN(Number(v)) ? Number(v) : 7) },
  ...BOUNDARY_NUMBERS.map((n, i) => ({ name: `number:${n instanceof Raw ? n.text : String(n)}#${i}`, apply: () => n })),
  ...HUGE_LENGTHS.map((n) => ({ name: `huge-string:${n}`, apply: () => 'x'.repeat(n) })),
  { name: 'huge-unicode', apply: () => '😀'.repeat(8000) },
  { name: 'grown', apply: (v: unknown) => (typeof v === 'string' ? v + 'x'.repeat(5000) : v) },
  ...HOSTILE_STRINGS.map((s, i) => ({ name: `string#${i}`, apply: () => s })),
  { name: 'deep-array', apply: () => DEEP_ARRAY },
  { name: 'deep-object', apply: () => DEEP_OBJECT },
  { name: 'long-array', apply: () => Array.from({ length: 5000 }, (_, i) => i) },
  { name: 'array-of-objects', apply: () => Array.from({ length: 200 }, () => ({ userId: 'x', streamType: 'main' })) },
];

/** Mutations of an object as a whole (besides its fields'): unknown, polluting and duplicated keys. */
const OBJECT_MUTATIONS: Mutation[] = [
  { name: 'extra-field', apply: (v) => ({ ...(v as object), extraField: 1 }) },
  { name: 'extra-fields-many', apply: (v) => ({ ...(v as object), ...Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])) }) },
  { name: 'proto-key', apply: (v) => protoKey(v as object, '"__proto__":{"sdkAppId":1,"admin":true}') },
  { name: 'constructor-key', apply: (v) => ({ ...(v as object), constructor: { prototype: { polluted: true } } }) },
  { name: 'duplicate-keys', apply: (v) => protoKey(v as object, Object.keys(v as object).map((k) => `${JSON.stringify(k)}:null`).join(',')) },
];

/** `object` as raw JSON with `members` (raw JSON text) first. */
function protoKey(object: object, members: string): Raw {
  const text = JSON.stringify(object, rawReplacer([]));
  return new Raw(text === '{}' ? `{${members}}` : `{${members},${text.slice(1)}`);
}

/** Every path into `value` (fields and array items, nested), the root excluded. */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [[...prefix, i], ...pathsOf(item, [...prefix, i])]);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [[...prefix, key], ...pathsOf(item, [...prefix, key])]);
  }
  return [];
}

/** One input: a command's template with one mutation applied at one path (or the envelope broken). */
export interface FuzzCase {
  cmd: Command;
  template: number;
  /** undefined: the data as a whole (root mutations). */
  path: Path | undefined;
  mutation: string;
  /** 'data' mutates the command's data; 'envelope' breaks the {id, cmd, data} frame. */
  kind: 'data' | 'envelope';
}

const PLACEHOLDER: TemplateContext = { sdkAppId: 1, userId: 'u', userSig: 's', roomId: '1', otherRoomId: '2' };
const ROOT_VALUES: unknown[] = [[], 'data', 7, null, true, DEEP_ARRAY];
const ENVELOPES = ['id:string', 'id:negative', 'id:float', 'id:huge', 'id:missing', 'cmd:upper', 'cmd:space', 'cmd:__proto__', 'cmd:constructor', 'cmd:missing', 'data:missing', 'not-object'] as const;

/** Every case, in a fixed order. */
export function enumerateCases(): FuzzCase[] {
  const cases: FuzzCase[] = [];
  for (const cmd of COMMANDS) {
    TEMPLATES[cmd](PLACEHOLDER).forEach((data, template) => {
      for (const path of pathsOf(data)) {
        for (const m of VALUE_MUTATIONS) cases.push({ cmd, template, path, mutation: m.name, kind: 'data' });
        if (isObject(valueAt(data, path))) for (const m of OBJECT_MUTATIONS) cases.push({ cmd, template, path, mutation: m.name, kind: 'data' });
      }
      for (const m of OBJECT_MUTATIONS) cases.push({ cmd, template, path: [], mutation: m.name, kind: 'data' });
      ROOT_VALUES.forEach((_, i) => cases.push({ cmd, template, path: undefined, mutation: `root#${i}`, kind: 'data' }));
      cases.push({ cmd, template, path: undefined, mutation: 'valid', kind: 'data' });
    });
    for (const e of ENVELOPES) cases.push({ cmd, template: 0, path: undefined, mutation: e, kind: 'envelope' });
  }
  return cases;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function valueAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string | number, unknown>)[key], root);
}

/** A deep copy of `root` with the mutation applied at `path`. */
function mutate(root: unknown, path: Path, mutation: Mutation): unknown {
  const copy = structuredClone(root);
  if (path.length === 0) return mutation.apply === 'delete' ? undefined : mutation.apply(copy);
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, unknown> | unknown[];
  const key = path[path.length - 1];
  if (mutation.apply === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key as string];
  } else {
    (parent as Record<string | number, unknown>)[key] = mutation.apply((parent as Record<string | number, unknown>)[key]);
  }
  return copy;
}

function rawReplacer(raws: Raw[]): (key: string, value: unknown) => unknown {
  return (_key, value) => {
    if (!(value instanceof Raw)) return value;
    raws.push(value);
    return `@@RAW${raws.length - 1}@@`;
  };
}

/** JSON text of `value`, Raw tokens written in place. */
export function encode(value: unknown): string {
  const raws: Raw[] = [];
  const text = JSON.stringify(value, rawReplacer(raws));
  return text.replace(/"@@RAW(\d+)@@"/g, (_, i: string) => raws[Number(i)].text);
}

/** The message text of a case for a connection's context, with request id `id`. */
export function messageOf(c: FuzzCase, ctx: TemplateContext, id: number): string {
  const data = TEMPLATES[c.cmd](ctx)[c.template] as unknown;
  if (c.kind === 'envelope') return envelopeOf(c.mutation, c.cmd, data, id);
  let mutated: unknown = data;
  if (c.mutation.startsWith('root#')) mutated = ROOT_VALUES[Number(c.mutation.slice(5))];
  else if (c.path) {
    const m = [...VALUE_MUTATIONS, ...OBJECT_MUTATIONS].find((x) => x.name === c.mutation);
    if (!m) throw new Error(`no mutation ${c.mutation}`);
    mutated = mutate(data, c.path, m);
  }
  return encode({ id, cmd: c.cmd, data: mutated });
}

function envelopeOf(mutation: (typeof ENVELOPES)[number] | string, cmd: string, data: unknown, id: number): string {
  switch (mutation) {
    case 'id:string': return encode({ id: String(id), cmd, data });
    case 'id:negative': return encode({ id: -id, cmd, data });
    case 'id:float': return encode({ id: id + 0.5, cmd, data });
    case 'id:huge': return encode({ id: 2 ** 60, cmd, data });
    case 'id:missing': return encode({ cmd, data });
    case 'cmd:upper': return encode({ id, cmd: cmd.toUpperCase(), data });
    case 'cmd:space': return encode({ id, cmd: `${cmd} `, data });
    case 'cmd:__proto__': return `{"id":${id},"cmd":"__proto__","data":${encode(data)}}`;
    case 'cmd:constructor': return encode({ id, cmd: 'constructor', data });
    case 'cmd:missing': return encode({ id, data });
    case 'data:missing': return encode({ id, cmd });
    default: return encode([id, cmd, data]);
  }
}

/** Whether the server must refuse the message's data as invalid: it fails the command's schema (or is not an object). */
export function schemaRejects(cmd: Command, text: string): boolean {
  const { data } = JSON.parse(text) as { data?: unknown };
  if (data !== undefined && !isObject(data)) return true;
  return !COMMAND_SCHEMAS[cmd].data.safeParse(data ?? {}).success;
}

/** Whether an envelope case's reply carries the request id (the id was readable), and its expected code kind. */
export function envelopeExpectation(mutation: string): 'unnumbered' | 'unknown-command' | 'as-data' {
  if (mutation.startsWith('id:') || mutation === 'not-object') return 'unnumbered';
  if (mutation.startsWith('cmd:')) return 'unknown-command';
  return 'as-data';
}

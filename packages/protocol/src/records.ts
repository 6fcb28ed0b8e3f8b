/**
 * Tagged records (docs/behaviour.md §3 data channel message): `tag (1 byte) | length (2 bytes, big-endian) | value`,
 * repeated. See DATA_RECORD for the tags of a custom message.
 */

/** One record. */
export interface TaggedRecord {
  tag: number;
  value: Uint8Array;
}

/** Encodes records into one buffer. Values longer than 65535 bytes are refused (RangeError). */
export function encodeRecords(records: readonly TaggedRecord[]): Uint8Array {
  let size = 0;
  for (const record of records) {
    if (record.value.length > 0xffff) throw new RangeError('a record value is at most 65535 bytes');
    if (!Number.isInteger(record.tag) || record.tag < 0 || record.tag > 255) throw new RangeError('a record tag is one byte');
    size += 3 + record.value.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const record of records) {
    out[at] = record.tag;
    out[at + 1] = record.value.length >> 8;
    out[at + 2] = record.value.length & 0xff;
    out.set(record.value, at + 3);
    at += 3 + record.value.length;
  }
  return out;
}

/** Decodes records; null when the buffer is malformed (a truncated record). */
export function decodeRecords(buffer: Uint8Array): TaggedRecord[] | null {
  const records: TaggedRecord[] = [];
  let at = 0;
  while (at < buffer.length) {
    if (at + 3 > buffer.length) return null;
    const length = (buffer[at + 1] << 8) | buffer[at + 2];
    if (at + 3 + length > buffer.length) return null;
    records.push({ tag: buffer[at], value: buffer.subarray(at + 3, at + 3 + length) });
    at += 3 + length;
  }
  return records;
}

/** Big-endian unsigned 32-bit value of a record (0 when shorter). */
export function readUint32(value: Uint8Array): number {
  if (value.length < 4) return 0;
  return ((value[0] << 24) >>> 0) + (value[1] << 16) + (value[2] << 8) + value[3];
}

/** A 4-byte big-endian record value. */
export function uint32Bytes(n: number): Uint8Array {
  return new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
}

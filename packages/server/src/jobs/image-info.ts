/** What an uploaded image is, read from its bytes (never from the name or the Content-Type a client sends). */
export interface ImageInfo {
  type: 'png' | 'jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG: the signature, then the IHDR chunk (always first) with width and height. */
function png(data: Buffer): ImageInfo | undefined {
  if (data.length < 24 || !data.subarray(0, 8).equals(PNG_SIGNATURE) || data.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { type: 'png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

/** A JPEG start-of-frame marker (SOF0–SOF15 but DHT, JPG and DAC, which share the range). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** JPEG: SOI, then segments up to the first start-of-frame, which holds height and width. */
function jpeg(data: Buffer): ImageInfo | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8 || data[2] !== 0xff) return undefined;
  let at = 2;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1];
    if (marker === 0xff) { // fill byte
      at++;
      continue;
    }
    // Markers without a length: TEM, RSTn.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // Image data (SOS) or the end (EOI) before any frame header: not an image we can size.
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = data.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    if (isStartOfFrame(marker)) {
      if (at + 9 > data.length) return undefined;
      return { type: 'jpeg', height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** The type and size of a PNG or JPEG file's bytes; undefined for anything else (or a truncated header). */
export function imageInfo(data: Buffer): ImageInfo | undefined {
  return png(data) ?? jpeg(data);
}

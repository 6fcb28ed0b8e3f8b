import { closeSync, fstatSync, ftruncateSync, openSync, readSync } from 'node:fs';

/** Reads `length` bytes at `position` (fewer at the end of the file). */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/**
 * The length of the playable start of a fragmented MP4 (ftyp, moov, then moof + mdat pairs): the end of its
 * last complete fragment. A writer killed mid-fragment (SIGKILL, a crash, a full disk) leaves a partial box
 * at the end, which players and ffmpeg report as a damaged file.
 */
export function playableLength(path: string): { length: number; size: number } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    let offset = 0;
    let good = 0;
    while (offset + 8 <= size) {
      const header = readAt(fd, offset, 16);
      let boxSize = header.readUInt32BE(0);
      const type = header.toString('latin1', 4, 8);
      if (boxSize === 1) {
        if (header.length < 16) break;
        boxSize = Number(header.readBigUInt64BE(8));
      } else if (boxSize === 0) {
        boxSize = size - offset; // "to the end of the file": complete by definition
      }
      if (boxSize < 8 || offset + boxSize > size) break;
      offset += boxSize;
      // A fragment is its moof and the mdat after it: the end of a moof alone is not a playable point.
      if (type !== 'moof') good = offset;
    }
    return { length: good, size };
  } finally {
    closeSync(fd);
  }
}

/** Cuts a partial fragment off the end of a fragmented MP4 left by a killed writer; returns the bytes cut. */
export function trimPartialFragment(path: string): number {
  const { length, size } = playableLength(path);
  if (length === size || length === 0) return 0;
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, length);
  } finally {
    closeSync(fd);
  }
  return size - length;
}

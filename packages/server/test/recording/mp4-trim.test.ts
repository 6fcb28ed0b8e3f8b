import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { playableLength, trimPartialFragment } from '../../src/recording/mp4-trim.js';

/** An MP4 box: 32-bit size, type, payload. */
const box = (type: string, payload = 8) => {
  const b = Buffer.alloc(8 + payload, 0x11);
  b.writeUInt32BE(8 + payload, 0);
  b.write(type, 4, 'latin1');
  return b;
};

describe('cutting a partial fragment off a killed recording', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conclave-mp4-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const head = Buffer.concat([box('ftyp', 12), box('moov', 100)]);
  const fragment = Buffer.concat([box('moof', 40), box('mdat', 500)]);

  it('keeps whole files, and cuts a partial mdat, or a moof without its mdat, at the last whole fragment', () => {
    const whole = join(dir, 'whole.mp4');
    writeFileSync(whole, Buffer.concat([head, fragment, fragment]));
    expect(trimPartialFragment(whole)).toBe(0);

    const cutMdat = join(dir, 'mdat.mp4');
    writeFileSync(cutMdat, Buffer.concat([head, fragment, fragment.subarray(0, 300)]));
    expect(trimPartialFragment(cutMdat)).toBe(300);
    expect(readFileSync(cutMdat)).toEqual(Buffer.concat([head, fragment]));

    const loneMoof = join(dir, 'moof.mp4');
    writeFileSync(loneMoof, Buffer.concat([head, fragment, box('moof', 40), Buffer.from([0, 0])]));
    expect(playableLength(loneMoof).length).toBe(head.length + fragment.length);
    trimPartialFragment(loneMoof);
    expect(statSync(loneMoof).size).toBe(head.length + fragment.length);
  });
});

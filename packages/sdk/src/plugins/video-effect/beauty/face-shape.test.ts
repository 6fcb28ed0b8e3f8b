import { describe, expect, it } from 'vitest';
import { faceShape, MESH, type Point } from './face-shape.js';
import { resolveBeautyOptions } from './options.js';

/** A synthetic face: every landmark at the centre, the ones the warps use placed like a frontal face. */
function face(): Point[] {
  const points: Point[] = Array.from({ length: 468 }, () => ({ x: 0.5, y: 0.5 }));
  const set = (i: number, x: number, y: number) => { points[i] = { x, y }; };
  set(MESH.sides[0], 0.35, 0.4); set(MESH.sides[1], 0.65, 0.4);
  set(MESH.cheeks[0], 0.37, 0.5); set(MESH.cheeks[1], 0.63, 0.5);
  set(MESH.jaw[0], 0.39, 0.58); set(MESH.jaw[1], 0.61, 0.58); set(MESH.jaw[2], 0.43, 0.64); set(MESH.jaw[3], 0.57, 0.64);
  set(MESH.bridge, 0.5, 0.38); set(MESH.nose, 0.5, 0.5); set(MESH.lip, 0.5, 0.6); set(MESH.chin, 0.5, 0.7);
  for (const [side, eye] of MESH.eyes.entries()) {
    const cx = side === 0 ? 0.43 : 0.57;
    set(eye[0], cx - 0.03, 0.4); set(eye[1], cx + 0.03, 0.4); set(eye[2], cx, 0.39); set(eye[3], cx, 0.41);
  }
  return points;
}
const SIZE = { width: 640, height: 480 };

describe('Beauty face shape', () => {
  it('all-zero levels warp nothing', () => {
    expect(faceShape(face(), SIZE, false, { lift: 0, shave: 0, eye: 0, chin: 0 })).toEqual({ moves: [], bulges: [] });
  });
  it('lift pulls both cheeks toward the nose, chin moves the chin down, eye magnifies both eyes', () => {
    const { moves, bulges } = faceShape(face(), SIZE, false, { lift: 1, shave: 0, eye: 1, chin: 1 });
    const [left, right, chin] = moves;
    expect(left.dx).toBeGreaterThan(0);
    expect(right.dx).toBeLessThan(0);
    expect(chin.dy).toBeGreaterThan(0);
    expect(bulges).toHaveLength(2);
    expect(bulges.every((b) => b.strength > 0 && b.radius > 0)).toBe(true);
  });
  it('mirrored frames flip the landmarks left-right', () => {
    const plain = faceShape(face(), SIZE, false, { lift: 1, shave: 0, eye: 0, chin: 0 }).moves[0];
    const mirrored = faceShape(face(), SIZE, true, { lift: 1, shave: 0, eye: 0, chin: 0 }).moves[0];
    expect(mirrored.cx).toBeCloseTo(SIZE.width - plain.cx);
    expect(mirrored.dx).toBeCloseTo(-plain.dx);
  });
});

describe('Beauty options', () => {
  const error = (value: unknown) => {
    try {
      resolveBeautyOptions(value, undefined, 'startPlugin');
    } catch (e) {
      return e as { code: number; extraCode: number; message: string };
    }
    return undefined;
  };
  it('default to 0; update keeps the levels not given', () => {
    const start = resolveBeautyOptions({ sdkAppId: 1, userId: 'u', userSig: 's', whiten: 0.4 }, undefined, 'startPlugin');
    expect(start).toEqual({ whiten: 0.4, dermabrasion: 0, lift: 0, shave: 0, eye: 0, chin: 0 });
    expect(resolveBeautyOptions({ eye: 1, effect: [] }, start, 'updatePlugin')).toEqual({ whiten: 0.4, dermabrasion: 0, lift: 0, shave: 0, eye: 1, chin: 0 });
  });
  it("refuse the vendor's sticker catalogue (ENV_NOT_SUPPORTED) and bad levels (INVALID_PARAMETER)", () => {
    const sticker = error({ effect: [{ id: 'EDE5D18065451445', intensity: 1 }] });
    expect(sticker).toMatchObject({ code: 5200, extraCode: 5210 });
    expect(sticker?.message).toMatch(/vendor's catalogue/);
    expect(error({ effect: 'x' })).toMatchObject({ code: 5000, extraCode: 5002 });
    expect(error({ lift: 1.2 })).toMatchObject({ code: 5000, extraCode: 5005 });
    expect(error({ onError: 3 })).toMatchObject({ code: 5000, extraCode: 5002 });
  });
});

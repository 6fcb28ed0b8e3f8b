import { describe, expect, it } from 'vitest';
import { fusedGroups, fusedShader } from './renderer.js';
import type { EffectStage } from './stage.js';

const fusable = (name: EffectStage['name'], fn: string): EffectStage => ({ name, shader: { fn, glsl: `vec4 ${fn}(vec4 c, vec2 uv) { return c; }` }, bind: () => ({ textures: {}, uniforms: {} }) });
const own = (name: EffectStage['name']): EffectStage => ({ name, drawGl: () => undefined });

describe('fused pipeline passes', () => {
  it('runs of per-pixel stages share one pass; a stage with its own passes (the mixer) splits them', () => {
    const beauty = fusable('BasicBeauty', 'bb');
    const background = fusable('VirtualBackground', 'vb');
    const mixer = own('VideoMixer');
    const watermark = fusable('Watermark', 'wm');
    expect(fusedGroups([beauty, background, watermark])).toEqual([[beauty, background, watermark]]);
    expect(fusedGroups([beauty, background, mixer, watermark])).toEqual([[beauty, background], mixer, [watermark]]);
    expect(fusedGroups([mixer])).toEqual([mixer]);
    expect(fusedGroups([])).toEqual([]);
  });
  it('the fused shader applies each stage\'s function in order', () => {
    const source = fusedShader([fusable('BasicBeauty', 'bb'), fusable('Watermark', 'wm')]);
    expect(source.startsWith('#version 300 es')).toBe(true);
    expect(source.indexOf('color = bb(color, v_uv);')).toBeGreaterThan(0);
    expect(source.indexOf('color = wm(color, v_uv);')).toBeGreaterThan(source.indexOf('color = bb(color, v_uv);'));
  });
});

import { describe, expect, it } from 'vitest';
import type { PluginCore, PluginInstance } from '../types.js';
import { PluginManager } from './plugin-manager.js';

class Echo implements PluginInstance {
  static readonly Name = 'Echo';
  readonly calls: string[] = [];
  constructor(readonly core: PluginCore) {}
  start(options?: unknown) { this.calls.push(`start:${JSON.stringify(options)}`); return 'started'; }
  update(options?: unknown) { this.calls.push(`update:${JSON.stringify(options)}`); return 'updated'; }
  stop() { this.calls.push('stop'); return 'stopped'; }
}

describe('PluginManager (use / startPlugin / updatePlugin / stopPlugin)', () => {
  it('routes calls to a registered plugin by name, with its assets path', async () => {
    const client = {};
    const manager = new PluginManager(client, '/sdk/assets');
    manager.use({ plugin: Echo, assetsPath: '/custom' });
    expect(await manager.start('Echo', { a: 1 })).toBe('started');
    expect(await manager.update('Echo', { b: 2 })).toBe('updated');
    expect(await manager.stop('Echo', undefined)).toBe('stopped');
  });

  it('refuses unknown plugins and bad registrations with RtcErrors', async () => {
    const manager = new PluginManager({}, '/sdk/assets');
    await expect(Promise.resolve().then(() => manager.start('Nope', {}))).rejects.toMatchObject({ code: 5200, extraCode: 5210 });
    await expect(Promise.resolve().then(() => manager.start('AudioMixer', {}))).rejects.toThrow(/plugin 'AudioMixer' is not available/);
    expect(() => manager.use({} as never)).toThrow(/plugin class/);
    expect(() => manager.start('', {})).toThrow(/plugin name is required/);
  });

  it('refuses the vendor-cloud built-in AudioProcessor with ENV_NOT_SUPPORTED and what a self-hosted server lacks', async () => {
    const manager = new PluginManager({}, '/sdk/assets', 'http://127.0.0.1:1');
    const error: unknown = await Promise.resolve().then(() => manager.start('AudioProcessor', { sdkAppId: 1, userId: 'u', userSig: 's' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: 5200, extraCode: 5210 });
    expect(String((error as Error).message)).toMatch(/proprietary model of the vendor's paid cloud/);
  });
});

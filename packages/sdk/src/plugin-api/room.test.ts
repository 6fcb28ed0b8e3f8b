import { describe, expect, it } from 'vitest';
import { pluginSignal, PluginSignalError } from './room.js';

describe('the plugin signal (plugin-api/room.ts)', () => {
  it('rejects with an Error of code 0 outside a room', async () => {
    const signal = pluginSignal(() => undefined);
    const error: unknown = await signal.request('cdn-start', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(PluginSignalError);
    expect((error as PluginSignalError).code).toBe(0);
  });

  it('rejects with an Error carrying the server\'s code and message when the command fails', async () => {
    const failure = Object.assign(new Error('mix refused'), { code: 4321 });
    const signal = pluginSignal(() => ({ request: () => Promise.reject(failure) }));
    const error: unknown = await signal.request('cdn-start', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: 4321, message: 'mix refused' });
  });
});

import { EXTRA_CODE } from '../constants/error-code.js';
import { envNotSupported, invalidParameter } from '../errors/catalogue.js';
import type { PluginInstance, PluginWithAssets, TRTCPlugin } from '../types.js';

/** Plugins the original bundles into its core; Conclave ships them as separate entry points. */
const BUILT_IN_ELSEWHERE = new Set(['AudioMixer', 'AIDenoiser', 'Debug']);

/**
 * Registers plugins (use / create({plugins})) and routes startPlugin / updatePlugin / stopPlugin to
 * them by name. The core never imports a plugin.
 */
export class PluginManager {
  readonly #classes = new Map<string, { plugin: TRTCPlugin; assetsPath: string }>();
  readonly #instances = new Map<string, PluginInstance>();
  readonly #client: unknown;
  readonly #defaultAssetsPath: string;

  constructor(client: unknown, defaultAssetsPath: string) {
    this.#client = client;
    this.#defaultAssetsPath = defaultAssetsPath;
  }

  /** Registers a plugin class, or `{plugin, assetsPath}`. Throws INVALID_PARAMETER for anything else. */
  use(entry: TRTCPlugin | PluginWithAssets): void {
    const plugin = typeof entry === 'function' ? entry : entry?.plugin;
    const assetsPath = typeof entry === 'object' && entry !== null && typeof entry.assetsPath === 'string' ? entry.assetsPath : this.#defaultAssetsPath;
    if (typeof plugin !== 'function') throw invalidParameter(EXTRA_CODE.TYPE, 'use() needs a plugin class or {plugin, assetsPath}', 'use');
    const name = plugin.Name ?? plugin.name;
    if (!name) throw invalidParameter(EXTRA_CODE.TYPE, 'the plugin has no name', 'use');
    this.#classes.set(name, { plugin, assetsPath });
  }

  #instance(name: unknown, functionName: string): PluginInstance {
    if (typeof name !== 'string' || name === '') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'plugin name is required', functionName);
    const existing = this.#instances.get(name);
    if (existing) return existing;
    const registered = this.#classes.get(name);
    if (!registered) {
      const hint = BUILT_IN_ELSEWHERE.has(name) ? ` (Conclave does not ship the ${name} plugin yet)` : '; register it first with trtc.use() or TRTC.create({ plugins })';
      throw envNotSupported(EXTRA_CODE.PLUGIN, `plugin '${name}' is not available${hint}`, functionName);
    }
    const instance = new registered.plugin({ client: this.#client, assetsPath: registered.assetsPath });
    this.#instances.set(name, instance);
    return instance;
  }

  start(name: unknown, options: unknown): Promise<unknown> {
    return Promise.resolve(this.#instance(name, 'startPlugin').start(options));
  }

  update(name: unknown, options: unknown): Promise<unknown> {
    const instance = this.#instance(name, 'updatePlugin');
    return Promise.resolve(instance.update?.(options));
  }

  stop(name: unknown, options: unknown): Promise<unknown> {
    const instance = this.#instance(name, 'stopPlugin');
    return Promise.resolve(instance.stop(options));
  }

  destroy(): void {
    for (const instance of this.#instances.values()) instance.destroy?.();
    this.#instances.clear();
  }
}

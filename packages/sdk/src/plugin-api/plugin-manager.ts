import { EXTRA_CODE } from '../constants/error-code.js';
import { envNotSupported, invalidParameter } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import type { PluginInstance, PluginWithAssets, TRTCPlugin } from '../types.js';
import { debugRequested, loadBuiltIn, VENDOR_CLOUD_BUILT_INS } from './built-ins.js';
import { AudioBus } from './audio.js';
import { createPluginContext, PluginLogRing } from './create.js';
import { VideoBus } from './video.js';
import { pluginSignal, type PluginSignal } from './room.js';
import type { FramePluginContext, PluginRoomInfo, RemoteVideoPluginEvent } from './index.js';

/**
 * Registers plugins (use / create({plugins})) and routes startPlugin / updatePlugin / stopPlugin to them by
 * name. The built-ins (AudioMixer, AIDenoiser, Debug) load on first use; the core never imports a plugin.
 * Each plugin instance gets a context (plugin-api/) — its only way into the core.
 */
export class PluginManager {
  private readonly _classes = new Map<string, { plugin: TRTCPlugin; assetsPath: string }>();
  private readonly _instances = new Map<string, Promise<PluginInstance>>();
  private readonly _defaultAssetsPath: string;
  private readonly _serverOrigin: string;
  private readonly _client: unknown;
  private readonly _room: () => PluginRoomInfo;
  /** The published microphone's plugin side (LocalAudio routes through it). */
  readonly audio = new AudioBus();
  /** The published camera's plugin side (LocalVideo attaches to it). */
  readonly video = new VideoBus(() => (this._client as { getVideoTrack?(q: { streamType: 'sub' }): MediaStreamTrack | null }).getVideoTrack?.({ streamType: 'sub' }) ?? undefined);
  private readonly _log = new PluginLogRing();
  /** The room's signalling for plugins (set by the client; none outside a client, e.g. in unit tests). */
  signal: PluginSignal = pluginSignal(() => undefined);
  /** The room's encoded-frame pipes (set by the client; none outside a client). */
  frames: FramePluginContext = { setCipher: () => false };
  /** Emits a client event for a plugin (set by the client; dropped outside one). */
  emit: (event: RemoteVideoPluginEvent, data: unknown) => void = () => undefined;

  /**
   * @param client the TRTC client plugins act for
   * @param defaultAssetsPath create()'s assetsPath, else `<server>/sdk/assets`
   * @param serverOrigin the Conclave server (plugin files, authorisation)
   * @param room the current session's identity, for plugins that show or sign it
   */
  constructor(client: unknown, defaultAssetsPath: string, serverOrigin = '', room: () => PluginRoomInfo = () => ({ sdkAppId: 0, userId: '', roomId: '' })) {
    this._client = client;
    this._defaultAssetsPath = defaultAssetsPath;
    this._serverOrigin = serverOrigin;
    this._room = room;
    // The original auto-starts its debug dialog when the page asks for it.
    if (serverOrigin && debugRequested()) {
      this.start('Debug', undefined).catch((error: unknown) => log.warn('debug dialog failed to load:', error));
    }
  }

  /** Registers a plugin class, or `{plugin, assetsPath}`. Throws INVALID_PARAMETER for anything else. */
  use(entry: TRTCPlugin | PluginWithAssets): void {
    const plugin = typeof entry === 'function' ? entry : entry?.plugin;
    const assetsPath = typeof entry === 'object' && entry !== null && typeof entry.assetsPath === 'string' ? entry.assetsPath : this._defaultAssetsPath;
    if (typeof plugin !== 'function') throw invalidParameter(EXTRA_CODE.TYPE, 'use() needs a plugin class or {plugin, assetsPath}', 'use');
    const name = plugin.Name ?? plugin.name;
    if (!name) throw invalidParameter(EXTRA_CODE.TYPE, 'the plugin has no name', 'use');
    this._classes.set(name, { plugin, assetsPath });
  }

  private _instance(name: unknown, functionName: string): Promise<PluginInstance> {
    if (typeof name !== 'string' || name === '') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'plugin name is required', functionName);
    const existing = this._instances.get(name);
    if (existing) return existing;
    const registered = this._classes.get(name);
    let created: Promise<PluginInstance>;
    if (registered) {
      created = Promise.resolve(this._create(registered.plugin, registered.assetsPath));
    } else if (Object.prototype.hasOwnProperty.call(VENDOR_CLOUD_BUILT_INS, name)) {
      throw envNotSupported(EXTRA_CODE.PLUGIN, VENDOR_CLOUD_BUILT_INS[name], functionName);
    } else {
      const loading = this._serverOrigin ? loadBuiltIn(`${this._serverOrigin}/sdk`, name) : undefined;
      if (!loading) throw envNotSupported(EXTRA_CODE.PLUGIN, `plugin '${name}' is not available; register it first with trtc.use() or TRTC.create({ plugins })`, functionName);
      created = loading.then((plugin) => this._create(plugin, this._defaultAssetsPath), (error: unknown) => {
        this._instances.delete(name);
        throw envNotSupported(EXTRA_CODE.PLUGIN, `plugin '${name}' failed to load from ${this._serverOrigin}/sdk/plugins: ${String(error)}`, functionName);
      });
    }
    this._instances.set(name, created);
    return created;
  }

  private _create(plugin: TRTCPlugin, assetsPath: string): PluginInstance {
    const context = createPluginContext({ client: this._client, serverOrigin: this._serverOrigin, audio: this.audio, video: this.video, log: this._log, room: this._room, signal: this.signal, frames: this.frames, emit: this.emit }, assetsPath);
    return new plugin(context);
  }

  start(name: unknown, options: unknown): Promise<unknown> {
    return this._instance(name, 'startPlugin').then((instance) => instance.start(options));
  }

  update(name: unknown, options: unknown): Promise<unknown> {
    return this._instance(name, 'updatePlugin').then((instance) => instance.update?.(options));
  }

  /** Updates a plugin only if it was already started or loaded (internal adjustments such as CPU pressure). */
  updateIfLoaded(name: string, options: unknown): void {
    this._instances.get(name)?.then((instance) => instance.update?.(options)).catch((error: unknown) => this._log.warn(`plugin ${name}: update failed:`, error));
  }

  stop(name: unknown, options: unknown): Promise<unknown> {
    return this._instance(name, 'stopPlugin').then((instance) => instance.stop(options));
  }

  destroy(): void {
    for (const instance of this._instances.values()) instance.then((i) => i.destroy?.(), () => undefined); // one that failed to load was reported to its start call
    this._instances.clear();
    this._log.close();
    this.audio.close();
    this.video.close();
  }
}

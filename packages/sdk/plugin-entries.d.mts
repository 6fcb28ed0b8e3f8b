/** One plugin file the SDK ships (see plugin-entries.mjs). */
export interface PluginEntry {
  name: string;
  path: string;
  globalName: string;
  source: string;
  builtIn?: boolean;
  exported?: boolean;
}
export declare const PLUGIN_ENTRIES: PluginEntry[];
export declare function packageExports(entries?: PluginEntry[]): Record<string, unknown>;

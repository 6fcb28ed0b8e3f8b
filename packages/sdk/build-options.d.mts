import type { BuildOptions } from 'esbuild';
import type { PluginEntry } from './plugin-entries.d.mts';
export declare const coreBundle: BuildOptions;
export declare function pluginBundle(entry: PluginEntry): BuildOptions;
export declare const CORE_GZIP_BUDGET_BYTES: number;

import type { BuildOptions } from 'esbuild';
export declare const coreBundle: BuildOptions;
export declare const CORE_GZIP_BUDGET_BYTES: number;

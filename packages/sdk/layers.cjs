/**
 * The SDK's folder rules (docs/architecture.md "SDK layers"), checked by dependency-cruiser in src/layers.test.ts:
 * the files at src/'s top are reached from a folder only for the public declarations, type-only. The same test finds
 * import circles among the folders (`folderOf` below names a module's folder). Paths are relative to the package.
 */
const TESTS = '\\.test\\.ts$';
/** The public declarations every folder may use (type-only): the API's types, its events, its media options. */
const DECLARATIONS = '^src/(types|event-types|media-options)\\.ts$';
const FOLDER = '^src/[^/]+/';

/**
 * The folder a module belongs to — `src/<name>`, or `src/plugins/<name>` and `src/plugins/video-effect/<name>`, each
 * plugin being a folder of its own — or undefined for the files at src/'s top (the client, the public entry and
 * declarations) and what is outside src/.
 */
function folderOf(path) {
  return /^src\/((plugins\/(video-effect\/)?)?[^/]+)\//.exec(path)?.[1];
}

module.exports = {
  folderOf,
  forbidden: [
    {
      name: 'no-root-imports',
      comment: 'A folder never imports the client (trtc.ts, trtc-core.ts, trtc-static.ts) or the public entry (index.ts).',
      severity: 'error',
      from: { path: FOLDER, pathNot: TESTS },
      to: { path: '^src/[^/]+\\.ts$', pathNot: DECLARATIONS },
    },
    {
      name: 'declarations-type-only',
      comment: 'The public declarations (types.ts, event-types.ts, media-options.ts) are reached from a folder type-only.',
      severity: 'error',
      from: { path: FOLDER, pathNot: TESTS },
      to: { path: DECLARATIONS, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: TESTS },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};

/**
 * @conclave/protocol/schemas: the zod schemas of the wire, for the server's validation and the OpenAPI
 * document. The main entry (index.ts) infers its types from these with type-only imports, so the SDK,
 * which imports the main entry only, bundles no zod.
 */
export * from './commands/index.js';
export * from './pushes.js';
export * from './http/fields.js';
export * from './http/schedule.js';
export * from './http/endpoints.js';
export * from './http/admin.js';
export * from './http/media.js';
export * from './http/routes.js';
export * from './http/cloud-api.js';
export * from './http/openapi.js';

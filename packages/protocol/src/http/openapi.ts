/** Builds the OpenAPI 3 description of the server's HTTP API from HTTP_ROUTES and their zod schemas. */
import { z } from 'zod';
import { CLOUD_API_ROUTE } from './cloud-api.js';
import { HTTP_ROUTES, type RouteSpec } from './routes.js';

type Json = Record<string, unknown>;

/** What `z.toJSONSchema` adds that says nothing: the safe-integer bounds of every z.int(). */
function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if ((key === 'minimum' || key === 'maximum') && Math.abs(v as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] = key === '$ref' && typeof v === 'string' ? v.replace('#/definitions/', '#/components/schemas/') : tidy(v);
  }
  return out;
}

/** A schema as OpenAPI 3.0 JSON; named schemas (meta id) go to `components` and are referenced. */
function convert(schema: z.ZodType, io: 'input' | 'output', components: Json): Json {
  const { definitions, ...rest } = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Json & { definitions?: Json };
  for (const [name, def] of Object.entries(definitions ?? {})) components[name] = tidy(def);
  return tidy(rest) as Json;
}

function parameters(spec: RouteSpec, components: Json): Json[] {
  const list: Json[] = [];
  for (const [where, object] of [['path', spec.params], ['query', spec.query]] as const) {
    if (!object) continue;
    const shape = convert(object, 'input', components) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(shape.properties ?? {})) {
      const { description, examples, ...schema } = property;
      list.push({
        name, in: where, required: where === 'path' || (shape.required ?? []).includes(name),
        ...(description ? { description } : {}),
        ...(Array.isArray(examples) ? { examples: Object.fromEntries(examples.map((v, i) => [`example${i + 1}`, { value: v }])) } : {}),
        schema,
      });
    }
  }
  return list;
}

function operation(id: string, spec: RouteSpec, components: Json): Json {
  const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  const params = parameters(spec, components);
  return {
    operationId: id,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.adminKey ? {} : { security: [] }),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(spec.body ? { requestBody: { required: spec.body.required, content: { [spec.body.type]: { schema: convert(spec.body.schema, 'input', components) } } } } : {}),
    responses: {
      200: { description: spec.reply.description, content: { [spec.reply.type ?? 'application/json']: { schema: convert(spec.reply.schema, 'output', components) } } },
      ...Object.fromEntries(Object.entries(spec.errors ?? {}).map(([status, description]) => [status, { description, ...error }])),
    },
  };
}

/**
 * The cloud API's one operation: its headers are parameters (so a fuzzer varies them), its Authorization is
 * the TC3 signature scheme, and every answer (refusals included) is a 200 in the API's envelope.
 */
function cloudApiOperation(components: Json): Json {
  const route = CLOUD_API_ROUTE;
  const headers = convert(route.headers, 'input', components) as { properties: Record<string, Json>; required?: string[] };
  return {
    operationId: 'cloudApi',
    tags: [route.tag],
    summary: route.summary,
    description: route.description,
    security: [{ tc3: [] }],
    parameters: Object.entries(headers.properties).filter(([name]) => name !== 'Authorization').map(([name, property]) => {
      const { description, examples, ...schema } = property;
      return {
        name, in: 'header', required: (headers.required ?? []).includes(name), description,
        ...(Array.isArray(examples) ? { examples: Object.fromEntries(examples.map((v, i) => [`example${i + 1}`, { value: v }])) } : {}),
        schema,
      };
    }),
    requestBody: { required: true, content: { 'application/json': { schema: convert(route.body, 'input', components) } } },
    responses: { 200: { description: 'The answer or the refusal, in the API\'s envelope.', content: { 'application/json': { schema: convert(route.reply, 'output', components) } } } },
  };
}

/** The OpenAPI 3.0 document of every HTTP route (what packages/server/openapi.json holds). */
export function openApiDocument(): Json {
  const components: Json = {};
  const paths: Record<string, Json> = {};
  for (const [id, spec] of Object.entries(HTTP_ROUTES) as [string, RouteSpec][]) {
    paths[spec.path] ??= {};
    paths[spec.path][spec.method.toLowerCase()] = operation(id, spec, components);
  }
  paths[CLOUD_API_ROUTE.path] = { post: cloudApiOperation(components) };
  return {
    openapi: '3.0.3',
    info: {
      title: 'Conclave server HTTP API',
      version: '1.0.0',
      description: 'The HTTP endpoints of a Conclave server: what the SDK calls (scheduling, log upload, statistics, AI-denoise ' +
        'authorisation), health and metrics, and the per-app admin API (rooms, users and their streams, kick, ban, room dismissal, ' +
        'stored client logs). Admin requests name an app in their path and carry that app\'s admin key as `Authorization: Bearer ' +
        '<adminKey>` (apps[].adminKey in the configuration file, or CONCLAVE_ADMIN_KEY); a key opens its own app only. Errors are ' +
        '`{code, message}` with the HTTP status of their class. Signalling is a WebSocket at /signal (see @conclave/protocol). ' +
        'TRTC\'s server API (TencentCloud API 3.0) is POST / with a TC3-HMAC-SHA256 signature per app SecretId (cloudApiKeys). ' +
        'Generated from the zod schemas in @conclave/protocol (src/http).',
    },
    servers: [{ url: '/' }],
    security: [{ adminKey: [] }],
    tags: [
      { name: 'sdk', description: 'Called by the SDK.' },
      { name: 'ops', description: 'Health and metrics.' },
      { name: 'dev', description: 'Development mode only.' },
      { name: 'admin', description: 'Per-app administration (admin key).' },
      { name: 'cloud-api', description: "TRTC's server API (TencentCloud API 3.0, signed)." },
    ],
    paths,
    components: {
      securitySchemes: {
        adminKey: { type: 'http', scheme: 'bearer', description: "The app's admin key." },
        tc3: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'TC3-HMAC-SHA256 signature with an app\'s cloud API SecretId/SecretKey.' },
      },
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}

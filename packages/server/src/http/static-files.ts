import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * The files a build folder may serve, by extension, with their content types: pages, scripts, styles, source
 * maps, WebAssembly and the plugins' model data, images, fonts, media, and the SDK's and plugins' typings (`.d.ts`,
 * public in the npm package too; typeOf). Anything else (tsconfig.tsbuildinfo, a .ts source, a stray .env) is not served.
 */
const TYPES: Readonly<Record<string, string>> = Object.freeze({
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.map': 'application/json; charset=utf-8', '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8', '.wasm': 'application/wasm', '.data': 'application/octet-stream',
  '.binarypb': 'application/octet-stream', '.tflite': 'application/octet-stream',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.webp': 'image/webp', '.avif': 'image/avif', '.ico': 'image/x-icon',
  '.woff': 'font/woff', '.woff2': 'font/woff2', '.ttf': 'font/ttf', '.otf': 'font/otf',
  '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.mp4': 'video/mp4', '.webm': 'video/webm',
});

/** The content type a file is served with; undefined when it is not served. */
function typeOf(path: string): string | undefined {
  const lower = path.toLowerCase();
  return lower.endsWith('.d.ts') ? 'text/plain; charset=utf-8' : TYPES[extname(lower)];
}

/** Serves a request from a folder, or calls `notFound`. */
export type StaticFiles = (req: IncomingMessage, res: ServerResponse, notFound: () => void) => void;

/** The request path's segments, decoded; undefined when one is hidden (a dotfile), empty-named or malformed. */
function segmentsOf(url: string | undefined): string[] | undefined {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url ?? '/', 'http://localhost').pathname);
  } catch {
    return undefined; // a malformed path names no file: the caller answers 404
  }
  const segments = path.split('/').filter((s) => s !== '');
  return segments.every((s) => !s.startsWith('.') && !/[\\\0]/.test(s)) ? segments : undefined;
}

/** The real path of `candidate` when it is a regular file inside `root` (symlinks resolved) and no part of it is hidden. */
async function fileInside(root: string, candidate: string): Promise<{ path: string; size: number; mtimeMs: number } | undefined> {
  try {
    const real = await realpath(join(root, candidate));
    const rel = relative(root, real);
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || rel.split(sep).some((s) => s.startsWith('.'))) return undefined;
    if (!typeOf(real)) return undefined;
    const info = await stat(real);
    return info.isFile() ? { path: real, size: info.size, mtimeMs: info.mtimeMs } : undefined;
  } catch {
    return undefined; // no such file (or a link out of the root that does not resolve): the caller answers 404
  }
}

/**
 * The files of a build folder (the SDK's, the demo's), re-read on each request: GET and HEAD only, no dotfiles,
 * no path (a symlink included) resolving outside the folder, and only the extensions of TYPES. A path without an
 * extension is its `.html` or its folder's index.html, or with `single` (a single-page app) the root index.html.
 */
export function staticFiles(root: string, options: { single?: boolean } = {}): StaticFiles {
  return (req, res, notFound) => {
    void serve(root, options.single ?? false, req, res).then((served) => {
      if (!served) notFound();
    }, () => {
      // serve() answers the expected failures itself (no such file, a client gone): what is left broke the response.
      if (!res.headersSent) notFound();
      else res.destroy();
    });
  };
}

async function serve(root: string, single: boolean, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const segments = segmentsOf(req.url);
  if (!segments) return false;
  // A build folder that is missing (not built yet) serves nothing: the caller answers 404, as for any missing file.
  const realRoot = await realpath(root).catch(() => undefined);
  if (!realRoot) return false;
  const path = segments.join('/');
  const candidates = extname(path) ? [path] : [...(path ? [`${path}.html`] : []), join(path, 'index.html'), ...(single ? ['index.html'] : [])];
  for (const candidate of candidates) {
    const file = await fileInside(realRoot, candidate);
    if (!file) continue;
    const etag = `W/"${file.size}-${Math.floor(file.mtimeMs)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return true;
    }
    res.writeHead(200, {
      'content-type': typeOf(file.path), 'content-length': String(file.size), etag,
      'cache-control': 'no-cache', 'last-modified': new Date(file.mtimeMs).toUTCString(), 'x-content-type-options': 'nosniff',
    });
    if (req.method === 'HEAD') res.end();
    else await pipeline(createReadStream(file.path), res).catch(() => undefined); // the client went away
    return true;
  }
  return false;
}

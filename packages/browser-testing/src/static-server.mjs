import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

export const MIME_TYPES = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
});

/** The headers that make a page cross-origin isolated (it then has SharedArrayBuffer). */
export const ISOLATION_HEADERS = Object.freeze({
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
});

/** The Content-Type for a file name; unknown extensions are served as bytes. */
export function mimeTypeFor(fileName) {
  return MIME_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Serves `dir` on 127.0.0.1 at a free port. A directory request serves its index.html.
 * Resolves to `{ url, close }`; `url` has no trailing slash.
 */
export async function serveStatic(dir) {
  const root = resolve(dir);
  const rootStat = await stat(root).catch(() => null);
  if (!rootStat?.isDirectory()) {
    throw new Error(`serveStatic: dir must be an existing directory, got ${JSON.stringify(dir)}`);
  }

  const server = createServer(async (req, res) => {
    try {
      const file = await resolveRequest(root, req.url ?? '/');
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      // Cross-origin isolated (COOP + COEP), as a page that runs Fulcrum's workers must be: it
      // gives the page SharedArrayBuffer.
      res.writeHead(200, { 'content-type': mimeTypeFor(file.path), 'content-length': file.size, 'cache-control': 'no-store', ...ISOLATION_HEADERS });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file.path).pipe(res);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  // Pages keep connections alive; close() must not wait for them.
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((ok) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => ok());
      }),
  };
}

/** Maps a URL path to a file inside root, or null (missing, or outside root). */
async function resolveRequest(root, url) {
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return null;
  }
  let path = resolve(join(root, pathname));
  if (path !== root && !path.startsWith(root + sep)) return null;
  let info = await stat(path).catch(() => null);
  if (info?.isDirectory()) {
    path = join(path, 'index.html');
    info = await stat(path).catch(() => null);
  }
  return info?.isFile() ? { path, size: info.size } : null;
}

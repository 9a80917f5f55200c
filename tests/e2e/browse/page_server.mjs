// A loopback HTTP server for the caveman-browse e2e tests and benchmark: serves the pages in
// tests/testdata/browse and a few misbehaving routes.
//   /<name>.html        the test page (query strings are left to the page's script)
//   /never-loads.html   headers and a first chunk are sent, the body never ends (load never fires)
//   anything else       404
// startPageServer() → { base, close(), closedPort } where closedPort is a loopback port that
// was just bound and released (nothing listens there: connection refused).
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const pagesDir = path.resolve(here, '../../testdata/browse');

async function freePort() {
  const s = net.createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}

export async function startPageServer() {
  const hanging = new Set();
  const server = http.createServer((req, res) => {
    const name = new URL(req.url, 'http://127.0.0.1').pathname.replace(/^\/+/, '');
    if (name === 'never-loads.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<!doctype html><title>Never loads</title><h1>Still loading</h1><p>more soon');
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    const file = path.join(pagesDir, path.basename(name));
    if (name.endsWith('.html') && fs.existsSync(file)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(fs.readFileSync(file));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const closedPort = await freePort();
  return {
    base,
    closedPort,
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

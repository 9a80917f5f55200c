// A minimal outbound HTTP proxy for tests: answers CONNECT host:port by tunnelling to it
// (loopback targets only) and records each CONNECT. Optional Basic credentials: a CONNECT
// without them (or with others) gets 407. Plain proxied requests are refused with 405.
//
//   const proxy = await startConnectProxy({ user, password });
//   proxy.url                  'http://127.0.0.1:<port>'
//   proxy.connects             [{ target, authorization, status }] in arrival order
//   await proxy.close()
import http from 'node:http';
import net from 'node:net';

export async function startConnectProxy({ user = null, password = null } = {}) {
  const connects = [];
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    res.writeHead(405);
    res.end('CONNECT only');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req, client, head) => {
    const record = { target: req.url, authorization: req.headers['proxy-authorization'] ?? null, status: 0 };
    connects.push(record);
    const want = user === null ? null : 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
    if (want !== null && record.authorization !== want) {
      record.status = 407;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n' +
        'Content-Length: 0\r\n\r\n');
      return;
    }
    const [host, port] = [req.url.slice(0, req.url.lastIndexOf(':')), Number(req.url.slice(req.url.lastIndexOf(':') + 1))];
    if (host !== '127.0.0.1' && host !== 'localhost') {
      record.status = 403;
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = net.connect({ host, port }, () => {
      record.status = 200;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    port: server.address().port,
    connects,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

// Issue 38, acceptance 2 against the real caveman-proxy binary: the native socket
// ($CAVEMAN_HOME/run/native.sock) on both sides of the 107-byte limit of a Unix socket path.
// A CAVEMAN_HOME that makes it exactly 107 bytes gets a runtime that answers; one byte more and
// the proxy serves HTTP without it, saying why: the path and its length.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { check, finish, tempHome } from '../lib/harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { providersYaml, startProxy } from '../proxy/harness.mjs';

const root = tempHome('cns-');
const tail = '/run/native.sock';

// A CAVEMAN_HOME (0700) whose native socket path is `bytes` long.
function homeFor(bytes) {
  const home = `${root}/${'h'.repeat(bytes - root.length - 1 - tail.length)}`;
  fs.mkdirSync(home, { mode: 0o700 });
  return home;
}

function answer(sock) {
  return new Promise((resolve) => {
    const c = net.createConnection(sock);
    const chunks = [];
    const timer = setTimeout(() => { c.destroy(); resolve(null); }, 3000);
    c.on('connect', () => c.end(JSON.stringify({ protocol_version: 1, agent: { id: 'e2e' },
      session: { caveman_session_id: 'e2e:s1' }, event: { type: 'turn.stop' } })));
    c.on('data', (d) => chunks.push(d));
    c.on('close', () => { clearTimeout(timer); resolve(Buffer.concat(chunks).toString('utf8')); });
    c.on('error', () => {});
  });
}

const mock = await startMockUpstream();
try {
  const fits = homeFor(107);
  const sock = fits + tail;
  check(sock.length === 107, `socket path of ${sock.length} bytes`);
  const proxy = await startProxy({ home: fits, yaml: providersYaml(mock.url) });
  try {
    check(proxy.stderr().includes(`native runtime on ${sock}`), `107 bytes: runtime on:\n${proxy.stderr()}`);
    check(fs.existsSync(sock) && fs.statSync(sock).isSocket(), '107 bytes: the socket exists');
    const a = await answer(sock);
    check(a && JSON.parse(a).action === 'allow', `107 bytes: the runtime answers: ${a}`);
  } finally {
    await proxy.stop();
  }

  const over = homeFor(108);
  const proxy2 = await startProxy({ home: over, yaml: providersYaml(mock.url) });
  try {
    const r = await fetch(`${proxy2.url}/health/live`);
    check(r.ok, `108 bytes: HTTP is served (${r.status})`);
    const expected = `native runtime disabled: cave_native_socket_path_too_long: the native runtime's socket ` +
      `${over}${tail} is 108 bytes, over the 107-byte limit of a Unix socket path; set CAVEMAN_HOME to a shorter directory`;
    check(proxy2.stderr().includes(expected), `108 bytes: the reason, with the path and its length:\n${proxy2.stderr()}`);
    check(!fs.existsSync(path.join(over, 'run', 'native.sock')), '108 bytes: no socket made');
  } finally {
    await proxy2.stop();
  }
} finally {
  await mock.close();
  fs.rmSync(root, { recursive: true, force: true });
}
finish('native socket path on both sides of 107 bytes');

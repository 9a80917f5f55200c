#!/usr/bin/env node
// npx launcher for the native caveman-mcp binary (MIT).
//
// Resolution order: $CAVEMAN_MCP_BIN → the platform package caveman-mcp-<os>-<arch>
// (installed as an optional dependency, esbuild-style) → $CAVEMAN_HOME/bin or
// ~/.caveman/bin → PATH (skipping node_modules/.bin and anything that is this launcher).
// stdio, environment, signals and the exit code pass straight through. Exit 127 when no
// binary can be found (or the only candidate is this launcher itself).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NAME = 'caveman-mcp';
const self = fs.realpathSync(fileURLToPath(import.meta.url));

function fail(message, code = 127) {
  process.stderr.write(`${NAME}: ${message}\n`);
  process.exit(code);
}

function realpath(p) {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

function isExecutable(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function usable(p) {
  const real = realpath(p);
  return real !== null && real !== self && isExecutable(real);
}

function fromPlatformPackage() {
  const pkg = `${NAME}-${process.platform}-${process.arch}`;
  try {
    const require = createRequire(import.meta.url);
    return require.resolve(`${pkg}/bin/${NAME}`);
  } catch {
    return null;
  }
}

function fromPath() {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir || dir.split(path.sep).includes('node_modules')) continue;
    const candidate = path.join(dir, NAME);
    if (usable(candidate)) return candidate;
  }
  return null;
}

function resolveBinary() {
  const explicit = process.env.CAVEMAN_MCP_BIN;
  if (explicit) {
    if (realpath(explicit) === self) fail('CAVEMAN_MCP_BIN points at this launcher; refusing to exec itself');
    if (!usable(explicit)) fail(`CAVEMAN_MCP_BIN=${explicit} is not an executable file`);
    return explicit;
  }
  const platform = fromPlatformPackage();
  if (platform && usable(platform)) return platform;
  const home = process.env.CAVEMAN_HOME || path.join(os.homedir(), '.caveman');
  const installed = path.join(home, 'bin', NAME);
  if (usable(installed)) return installed;
  const onPath = fromPath();
  if (onPath) return onPath;
  fail(`no ${NAME} binary found (looked at CAVEMAN_MCP_BIN, the ${NAME}-${process.platform}-${process.arch} ` +
       `package, ${installed} and PATH). Install one with \`make install\` in the caveman ` +
       `checkout, or set CAVEMAN_MCP_BIN=/path/to/${NAME}.`);
}

const binary = resolveBinary();
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', env: process.env });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => child.kill(sig));
}
child.on('error', (err) => fail(`cannot start ${binary}: ${err.message}`, err.code === 'ENOENT' ? 127 : 1));
child.on('exit', (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});

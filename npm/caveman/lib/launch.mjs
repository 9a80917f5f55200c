// npm launcher for the native Caveman binaries (MIT). Each bin/<name>.mjs calls run(<name>).
//
// Resolution order for <name>: $CAVEMAN_<X>_BIN (the variable `caveman` itself honours) → the
// platform package caveman-<os>-<arch> (an optional dependency, esbuild-style) →
// $CAVEMAN_HOME/bin or ~/.caveman/bin → PATH (skipping node_modules directories and this
// launcher). stdio, environment and the exit code pass straight through; SIGTERM and SIGHUP
// are forwarded, and SIGINT/SIGQUIT too unless stdin is a terminal (the terminal already sends
// them to the binary, which is in the same foreground process group — a second copy would make
// an interactive `caveman wrap claude` see Ctrl-C twice). Exit 127 when no binary is found.
//
// When the platform package provides `caveman`, it is started with CAVEMAN_<X>_BIN pointing at
// the same package's companions (unless already set), so `caveman start`, `wrap` and
// `tools mcp install` run the native caveman-proxy / caveman-mcp directly, not these launchers.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import tty from 'node:tty';
import { fileURLToPath } from 'node:url';

// Binary name → the override variable (cli/src/binaries.cpp uses the same names).
export const BINARIES = {
  'caveman': 'CAVEMAN_BIN',
  'caveman-proxy': 'CAVEMAN_PROXY_BIN',
  'caveman-engine': 'CAVEMAN_ENGINE_BIN',
  'caveman-mcp': 'CAVEMAN_MCP_BIN',
  'cavemem': 'CAVEMEM_BIN',
  'caveman-shrink': 'CAVEMAN_SHRINK_BIN',
  'caveman-browse': 'CAVEMAN_BROWSE_BIN',
};

const PLATFORM_PKG = `caveman-${process.platform}-${process.arch}`;
const launcherDir = path.dirname(fs.realpathSync(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

function fail(name, message, code = 127) {
  process.stderr.write(`${name}: ${message}\n`);
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

// A real binary: executable, and not one of these launchers (no exec loop through PATH).
function usable(p) {
  const real = realpath(p);
  return real !== null && isExecutable(real) && path.dirname(path.dirname(real)) !== path.dirname(launcherDir);
}

export function fromPlatformPackage(name) {
  try {
    const p = require.resolve(`${PLATFORM_PKG}/bin/${name}`);
    return usable(p) ? p : null;
  } catch {
    return null;
  }
}

function fromPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    const real = realpath(candidate);
    if (real === null || real.split(path.sep).includes('node_modules')) continue;
    if (usable(candidate)) return candidate;
  }
  return null;
}

function resolveBinary(name) {
  const variable = BINARIES[name];
  const explicit = process.env[variable];
  if (explicit) {
    if (!usable(explicit)) fail(name, `${variable}=${explicit} is not an executable binary`);
    return { binary: explicit, source: 'env' };
  }
  const platform = fromPlatformPackage(name);
  if (platform) return { binary: platform, source: 'package' };
  const home = process.env.CAVEMAN_HOME || path.join(os.homedir(), '.caveman');
  const installed = path.join(home, 'bin', name);
  if (usable(installed)) return { binary: installed, source: 'home' };
  const onPath = fromPath(name);
  if (onPath) return { binary: onPath, source: 'path' };
  fail(name, `no ${name} binary found (looked at ${variable}, the ${PLATFORM_PKG} package, ` +
       `${installed} and PATH). Prebuilt binaries exist for linux-x64; elsewhere build them ` +
       `(\`make install\` in a caveman checkout) or set ${variable}=/path/to/${name}.`);
}

export function run(name) {
  const { binary, source } = resolveBinary(name);
  const env = { ...process.env };
  if (name === 'caveman' && source === 'package') {
    for (const [companion, variable] of Object.entries(BINARIES)) {
      if (companion === 'caveman' || env[variable]) continue;
      const p = fromPlatformPackage(companion);
      if (p) env[variable] = p;
    }
  }
  // The handlers go in before the spawn: a signal between the two would otherwise kill the
  // launcher with its default action and leave the binary running without its parent.
  // tty.isatty, not process.stdin.isTTY: touching process.stdin makes node set O_NONBLOCK on a
  // piped fd 0, which the child shares (an MCP server would then read EAGAIN and stop).
  const terminal = tty.isatty(0);
  let child = null;
  for (const sig of ['SIGINT', 'SIGQUIT', 'SIGTERM', 'SIGHUP']) {
    const fromTerminal = terminal && (sig === 'SIGINT' || sig === 'SIGQUIT');
    process.on(sig, () => { if (child && !fromTerminal) child.kill(sig); });
  }
  child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', env });
  child.on('error', (err) => fail(name, `cannot start ${binary}: ${err.message}`, err.code === 'ENOENT' ? 127 : 1));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

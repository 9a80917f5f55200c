// Small helpers shared by the e2e scripts: binary paths, temp homes, corpus access, checks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const binDir = process.env.CAVEMAN_BIN_DIR || path.resolve('../../build/release/bin');
export const corpusDir = process.env.CAVEMAN_CORPUS_DIR || path.resolve('../../../shared/corpus');
export const bin = (name) => path.join(binDir, name);

// A loopback port free now (the OS picks it; a server started next binds it).
export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export function tempHome(prefix = 'caveman-e2e-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function corpusFiles() {
  const manifest = fs.readFileSync(path.join(corpusDir, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  return manifest.slice(1).map((line) => {
    const [file, kind] = line.split('\t');
    return { name: path.basename(file), kind, path: path.join(corpusDir, file) };
  });
}

export function countTokens(text) {
  return Number(execFileSync(bin('caveman-engine'), ['count'], { input: text }).toString().trim());
}

let failures = 0;
export function check(cond, message) {
  if (cond) return;
  failures += 1;
  console.error(`FAIL: ${message}`);
}
export function finish(label) {
  if (failures > 0) {
    console.error(`${label}: ${failures} failure(s)`);
    process.exit(1);
  }
  console.log(`ok: ${label}`);
}

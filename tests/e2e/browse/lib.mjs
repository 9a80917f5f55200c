// Helpers shared by the caveman-browse e2e tests: an SDK client on the real binary, payload
// parsing, outline lookups and the orphan check.
//
// Every test runs caveman-browse with TMPDIR inside its own temp home, so each temporary
// browser profile (`caveman-browse-*`) lies under that home: a process whose command line
// names the home is one of ours, and none may be left once the server is gone.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bin, check } from '../lib/harness.mjs';

export function browseEnv(home, extra = {}) {
  const tmp = path.join(home, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  return { ...process.env, HOME: home, CAVEMAN_HOME: path.join(home, '.caveman'), TMPDIR: tmp, ...extra };
}

export async function connectBrowse(home, extra = {}) {
  const transport = new StdioClientTransport({ command: bin('caveman-browse'), env: browseEnv(home, extra), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'caveman-browse-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, pid: () => transport.pid, stderr: () => stderr };
}

export const text = (r) => (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// Calls a tool; returns {payload (the parsed text the agent reads), structured
// (structuredContent: the full payload with counters), raw (the text)} or {error, message}.
export async function call(client, name, args, timeout = 60000) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout });
  const t = text(r);
  if (r.isError) {
    const e = JSON.parse(t);
    return { error: e.error, message: e.message, raw: t };
  }
  let payload = null;
  try { payload = JSON.parse(t); } catch { /* browser_recover returns raw text */ }
  return { payload, structured: r.structuredContent, raw: t };
}

// The uid of the first outline line with `role "name"` (name matched exactly).
export function uidOf(outline, role, name) {
  const re = new RegExp(`^\\s*\\[(u[0-9a-z_]+)\\] ${role} "${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`, 'm');
  const m = outline.match(re);
  return m ? m[1] : null;
}

export const handleOf = (raw) => `ccr_${crypto.createHash('sha256').update(raw, 'utf8').digest('hex').slice(0, 32)}`;

// Processes (other than `except`) whose command line mentions `needle`.
export function processesMentioning(needle, except = []) {
  const found = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || except.includes(Number(pid))) continue;
    let cmd;
    try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    let state = '';
    try { state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] ?? ''; } catch { continue; }
    if (state === 'Z') continue;  // exited, only waiting to be reaped by its parent
    if (cmd.includes(needle)) found.push(`${pid}: ${cmd.replace(/\0/g, ' ')}`);
  }
  return found;
}

// Waits up to `ms` for every process mentioning `needle` to be gone; returns the leftovers.
export async function leftovers(needle, ms = 10000) {
  const until = Date.now() + ms;
  for (;;) {
    const left = processesMentioning(needle, [process.pid]);
    if (left.length === 0 || Date.now() > until) return left.map((l) => l.slice(0, 200));
    await new Promise((r) => setTimeout(r, 100));
  }
}

// What caveman-browse may create in a TMPDIR: temp profiles, the browser's private TMPDIR
// (cvb-*) and Chromium's own org.chromium.Chromium.* temp directories.
export const isBrowseTemp = (name) =>
  name.startsWith('caveman-browse-') || name.startsWith('cvb-') || name.startsWith('org.chromium.');

// The temp profiles, browser TMPDIRs and Chromium temp directories still present under the
// home's TMPDIR.
export const profilesLeft = (home) => fs.readdirSync(path.join(home, 'tmp')).filter(isBrowseTemp);

// Waits up to `ms` for the temp profiles to be deleted (the keeper removes a profile once
// the last browser process is gone); returns the ones left.
export async function profilesLeftAfter(home, ms = 10000) {
  const until = Date.now() + ms;
  for (;;) {
    const left = profilesLeft(home);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Checks that a session of `home` left nothing behind: no browser process naming the home,
// no temp profile or org.chromium.Chromium.* directory in its TMPDIR.
export async function checkNothingLeft(home, label = 'caveman-browse') {
  const left = await leftovers(home);
  check(left.length === 0, `${label}: no browser process left:\n${left.join('\n')}`);
  const profiles = await profilesLeftAfter(home);
  check(profiles.length === 0, `${label}: temp profiles and Chromium temp dirs removed: ${profiles}`);
}

// The NUL-separated fields of /proc/<pid>/<file>, or [] when the process is gone.
function procFields(pid, file) {
  try { return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').filter(Boolean); } catch { return []; }
}

// The main browser process among `root`'s descendants (or `root` itself): its pid, profile
// (--user-data-dir) and TMPDIR (from its environment), or null when there is none.
export function browserUnder(root) {
  const children = new Map();
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    let stat;
    try { stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8'); } catch { continue; }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(p));
  }
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift();
    const argv = procFields(pid, 'cmdline');
    const profile = argv.find((a) => a.startsWith('--user-data-dir='));
    if (profile && !argv.some((a) => a.startsWith('--type='))) {
      const tmp = procFields(pid, 'environ').find((e) => e.startsWith('TMPDIR='));
      return { pid, profile: profile.slice('--user-data-dir='.length), tmp: tmp?.slice('TMPDIR='.length) };
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return null;
}

// Live processes whose environment has TMPDIR=`tmp` (every process of one browser inherits
// it) or whose command line names `profile`.
export function browserProcesses({ tmp, profile }) {
  const found = [];
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    let state = '';
    try { const st = fs.readFileSync(`/proc/${p}/stat`, 'utf8'); state = st[st.lastIndexOf(')') + 2]; } catch { continue; }
    if (state === 'Z') continue;
    const env = procFields(p, 'environ');
    const cmd = procFields(p, 'cmdline').join(' ');
    if ((tmp && env.includes(`TMPDIR=${tmp}`)) || (profile && cmd.includes(profile))) found.push(`${p}: ${cmd.slice(0, 160)}`);
  }
  return found;
}

// Waits up to `ms` for a browser's processes and directories (its TMPDIR, and its profile when
// `profileGoes`) to be gone; returns what is left.
export async function browserLeftAfter(browser, { profileGoes = true, ms = 10000 } = {}) {
  const until = Date.now() + ms;
  for (;;) {
    const left = browserProcesses(browser);
    for (const dir of [browser.tmp, profileGoes ? browser.profile : null]) if (dir && fs.existsSync(dir)) left.push(dir);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

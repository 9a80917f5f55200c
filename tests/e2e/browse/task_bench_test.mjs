// One task of the browse task benchmark (bench/browse_task_bench.mjs) in CI: the dialog task
// against caveman-browse and @playwright/mcp through the official SDK client. It must succeed
// on both, cost caveman no more tokens than Playwright, and leave no browser process, temp
// profile or org.chromium.Chromium.* directory in caveman's TMPDIR.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { binDir, check, finish, tempHome } from '../lib/harness.mjs';
import { browseEnv, checkNothingLeft } from './lib.mjs';

const { runBench, chrome } = await import(pathToFileURL(path.resolve('../../bench/browse_task_bench.mjs')).href);
if (!fs.existsSync(chrome)) {
  console.log(`skip: ${chrome} not installed`);
  process.exit(77);
}
const home = tempHome('caveman-browse-task-');
const { TMPDIR } = browseEnv(home);
const res = await runBench({ binDir: path.resolve(binDir), names: ['dialog'], home, cavemanEnv: { TMPDIR } });
const [row] = res.rows;
console.log(JSON.stringify(row));
check(row?.caveman.ok, `caveman-browse: ${JSON.stringify(row?.caveman)}`);
check(row?.playwright.ok, `@playwright/mcp: ${JSON.stringify(row?.playwright)}`);
check(row && row.caveman.tokens <= row.playwright.tokens, 'caveman-browse costs no more tokens than Playwright');
await checkNothingLeft(home);
fs.rmSync(home, { recursive: true, force: true });
finish('caveman-browse task benchmark (dialog)');

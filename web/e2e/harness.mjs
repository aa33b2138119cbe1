// End-to-end harness: starts the real api (built by `cargo build --release -p api`)
// on a fresh SQLite database serving web/dist, drives Debian's Chromium through
// playwright-core, and offers the few back-door reads a person would do with
// their phone (the SMS outbox) or a loan officer with the auditor API.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../..');
export const shotsDir = join(here, 'screenshots');

/** The api binary: $API_BIN, else the release build, else the debug build. */
export function apiBinary() {
  const candidates = [process.env.API_BIN, join(repo, 'target/release/api'), join(repo, 'target/debug/api')];
  const found = candidates.find((c) => c && existsSync(c));
  if (!found) throw new Error('no api binary: run `cargo build --release -p api` first');
  return found;
}

export function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
    server.on('error', fail);
  });
}

/**
 * The api on `port` over the data in `dir` (`dir/loan.db`, `dir/uploads`), with
 * `extraEnv` on top of its settings; resolves once it is ready. Returns
 * `{ url, dir, env, stop }`; `stop` ends the process and keeps `dir`, so a test can
 * start the api again over the same data.
 */
export async function startApi(dir, port, extraEnv = {}) {
  mkdirSync(join(dir, 'uploads'), { recursive: true });
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite://${join(dir, 'loan.db')}`,
    BIND_ADDR: `127.0.0.1:${port}`,
    // E2E_WEB_DIST: another build of the app (e.g. an older one, to see a test fail on it).
    WEB_DIST: process.env.E2E_WEB_DIST ?? join(repo, 'web/dist'),
    STORAGE_DIR: join(dir, 'uploads'),
    STORAGE_URL: join(dir, 'uploads'),
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
  };
  Object.assign(env, extraEnv);
  const child = spawn(apiBinary(), [], { env, cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`api exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dir,
    env,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    },
  };
}

/**
 * Starts the api on a free port with a fresh database (and `extraEnv`). Returns
 * `{ url, dir, env, stop }`; `stop` also removes the data.
 */
export async function startServer(extraEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'loan-e2e-'));
  const server = await startApi(dir, await freePort(), extraEnv);
  return {
    ...server,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Launches headless Chromium from Debian (never a downloaded browser). */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A phone-sized (390×844) context; `locale` for the browser's language. */
export async function phone(browser, baseURL) {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
  });
  context.setDefaultTimeout(15000);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  return { context, page };
}

/** Saves a full-page screenshot as `screenshots/<name>.png`. */
export async function shot(page, name) {
  mkdirSync(shotsDir, { recursive: true });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Let toasts fade so they do not hide the screen being recorded.
  await page.locator('.adm-toast-mask').waitFor({ state: 'hidden', timeout: 4000 }).catch(() => undefined);
  // From the top, so sticky parts sit where a person first sees them.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: true });
}

/** Runs SQL on the test database through Python's sqlite3 (Node 20 has none), committing any change. */
export function sql(server, query, params = []) {
  const script = `import json,sqlite3,sys
db=sqlite3.connect(sys.argv[1]); rows=db.execute(sys.argv[2], json.loads(sys.argv[3])).fetchall(); db.commit()
print(json.dumps(rows))`;
  const out = spawnSync('python3', ['-c', script, join(server.dir, 'loan.db'), query, JSON.stringify(params)], {
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout);
}

/** The newest 6-digit code texted to `mobile` (the default sender's outbox; due-date reminders are not codes). */
export async function smsCode(server, mobile) {
  for (let i = 0; i < 50; i += 1) {
    const rows = sql(
      server,
      "select body from sms_outbox where mobile = ? and (message_id is null or message_id not like 'reminder:%') order by rowid desc limit 1",
      [mobile],
    );
    const match = rows[0]?.[0]?.match(/\b(\d{6})\b/);
    if (match) return match[1];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS code for ${mobile}`);
}

/** Every staff role: the officers of the older journeys do every job. */
export const ALL_ROLES = 'reviewer,collector,finance,compliance,admin';

/**
 * Creates a staff account with the `api create-auditor` command, with `roles`
 * (comma-separated); returns what it printed (with the `otpauth://` URI when the
 * server requires a second factor).
 */
export function createAuditor(server, username, password, roles = ALL_ROLES) {
  const args = ['create-auditor', '--username', username, '--roles', roles, '--password-stdin'];
  const out = spawnSync(apiBinary(), args, {
    env: server.env,
    input: `${password}\n`,
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`create-auditor failed: ${out.stderr}`);
  return out.stdout;
}

/** A loan officer using the auditor API (PRODUCT.md 7). */
export async function auditor(server, username, password = 'auditor-password-1') {
  createAuditor(server, username, password);
  const login = await call(server, '/admin/api/login', { username, password });
  const token = login.token;
  return {
    call: (path, body = {}, headers = {}) => call(server, `/admin/api/${path}`, body, { authorization: `Bearer ${token}`, ...headers }),
  };
}

/** POSTs JSON and returns `data`, throwing on any non-zero code. */
export async function call(server, path, body = {}, headers = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const envelope = await res.json();
  if (envelope.code !== 0) throw new Error(`${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** A small JPEG made by Chromium's canvas (real image bytes for the ID photos). */
export async function makeJpeg(page, label) {
  const base64 = await page.evaluate((text) => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 200;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#dbeafe';
    ctx.fillRect(0, 0, 320, 200);
    ctx.fillStyle = '#1e3a8a';
    ctx.font = '28px sans-serif';
    ctx.fillText(text, 20, 110);
    return canvas.toDataURL('image/jpeg', 0.9).split(',')[1];
  }, label);
  return { name: `${label}.jpg`, mimeType: 'image/jpeg', buffer: Buffer.from(base64, 'base64') };
}

/**
 * Starts a fresh server and Chromium before a test file's tests and stops both after
 * them; `assign` receives `{ server, browser }` once they are up.
 */
export function serverAndBrowser(assign) {
  let started = null;
  before(async () => {
    started = { server: await startServer(), browser: await launchBrowser() };
    assign(started);
  });
  after(async () => {
    await started?.browser?.close();
    await started?.server?.stop();
  });
}

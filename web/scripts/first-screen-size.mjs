// Measures the JavaScript and CSS a borrower downloads for a first screen: the
// entry chunk, its static imports, and the lazily loaded screen with its static
// imports, from dist/.vite/manifest.json. Prints gzip sizes and checks that no
// auditor-console code is among them. Usage: node scripts/first-screen-size.mjs
// [screen source, default src/features/auth/login-screen.tsx].
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const screens = process.argv.slice(2);
if (screens.length === 0) screens.push('src/features/auth/login-screen.tsx', 'src/features/loan/home-screen.tsx');

function closure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return seen;
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
let failed = false;
for (const screen of screens) {
  if (!manifest[screen]) throw new Error(`${screen} is not a chunk of the build`);
  const chunks = closure([entry, screen]);
  let js = 0;
  let css = 0;
  const files = [];
  for (const key of chunks) {
    const chunk = manifest[key];
    const code = readFileSync(join(dist, chunk.file));
    js += gzipSync(code, { level: 9 }).length;
    files.push(chunk.file);
    for (const sheet of chunk.css ?? []) css += gzipSync(readFileSync(join(dist, sheet)), { level: 9 }).length;
    if (/admin/i.test(key) || code.includes('Auditor console')) {
      console.error(`admin code in the first screen: ${key}`);
      failed = true;
    }
  }
  console.log(`${screen}: ${files.length} JS files, ${(js / 1024).toFixed(1)} KB gzip JavaScript, ${(css / 1024).toFixed(1)} KB gzip CSS; admin code: ${failed ? 'PRESENT' : 'none'}`);
}
process.exit(failed ? 1 : 0);

// Writes a Brotli (.br) and a gzip (.gz) copy beside every text file of the build
// (dist/), at the highest levels: the api serves them to browsers that accept them
// (tower-http ServeDir precompressed_br/precompressed_gzip), so the first screen
// travels compressed without per-request compression work. Run after `vite build`.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// `node scripts/precompress.mjs [dir]`: web/dist by default.
const dist = process.argv[2] ?? new URL('../dist/', import.meta.url).pathname;
const text = /\.(js|css|html|svg|json|txt|webmanifest)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (text.test(name)) yield path;
  }
}

let count = 0;
for (const path of files(dist)) {
  const bytes = readFileSync(path);
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  count += 1;
}
console.log(`precompressed ${count} files (.br, .gz)`);

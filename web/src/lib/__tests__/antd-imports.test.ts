/**
 * No source file imports the 'antd-mobile' barrel. The barrel pulls every
 * component's code and styles into the chunk that imports it: one such import
 * in a module the sign-in screen loads puts it from about 144 KB of gzip
 * JavaScript to 170–176 KB (scripts/first-screen-size.mjs fails above 150 KB).
 * Import each component from its own module instead, e.g.
 * `import Button from 'antd-mobile/es/components/button'`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// (A path, not `new URL('../..', …)`: under jsdom `URL` is not Node's.)
const self = fileURLToPath(import.meta.url);
const src = join(dirname(self), '..', '..');

/** Every .ts and .tsx file under src/ but this one (its examples are barrel imports). */
const files = (readdirSync(src, { recursive: true }) as string[])
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => join(src, file))
  .filter((file) => file !== self);

/** The module specifiers a file imports or re-exports, statically or dynamically. */
function specifiers(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, // import x from '…', export { x } from '…'
    /\bimport\s*['"]([^'"]+)['"]/g, // import '…'
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // import('…')
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // require('…')
    /\bvi\.mock\s*\(\s*['"]([^'"]+)['"]/g, // vi.mock('…')
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The package's entry points that re-export every component. */
const BARREL = /^antd-mobile(?:\/(?:es|cjs|2x(?:\/es|\/cjs)?)(?:\/index(?:\.js)?)?)?\/?$/;

describe('antd-mobile imports', () => {
  it('finds the sources and their imports', () => {
    expect(files.length).toBeGreaterThan(50);
    const all = files.flatMap((file) => specifiers(readFileSync(file, 'utf8')));
    expect(all).toContain('antd-mobile/es/components/button');
    expect(all).toContain('react');
  });

  it('recognises every form of import', () => {
    const code = [
      "import { Button } from 'antd-mobile';",
      'import {\n  Toast,\n  Dialog,\n} from "antd-mobile";',
      "export { Tag } from 'antd-mobile/es';",
      "import 'antd-mobile';",
      "const m = await import('antd-mobile');",
      "import Button from 'antd-mobile/es/components/button';",
    ].join('\n');
    expect(specifiers(code).filter((s) => BARREL.test(s))).toHaveLength(5);
  });

  it('no file imports the barrel', () => {
    const offenders = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => BARREL.test(specifier))
        .map((specifier) => `${relative(src, file)}: '${specifier}'`),
    );
    expect(offenders).toEqual([]);
  });
});

/**
 * Starts downloading the first screen's code together with the entry, instead of
 * after it. Screens are lazy chunks: without this, the browser learns that `/`
 * needs the home chunk only once the entry has downloaded and run, one more round
 * trip (150 ms on Lighthouse's slow 4G) before the screen can paint.
 *
 * The build writes `assets/first-screen-[hash].js`, a small classic script loaded
 * `async` from index.html, which adds `<link rel="modulepreload">` for the chunks of
 * the screen the visitor will see: the given screen of the current path when a
 * session token is stored (localStorage `token`, PRODUCT.md 11), the sign-in screen
 * otherwise. Chunks the entry already loads are left out. Vite's own preload helper
 * skips what is already linked, so nothing downloads twice.
 */
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/** `screens`: path → the screen module's absolute file name; `signedOut`: the path
 * whose screen a visitor without a session sees. */
export function firstScreenPreload(screens: Record<string, string>, signedOut: string): Plugin {
  return {
    name: 'first-screen-preload',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle: OutputBundle) {
      const chunks = Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      // A chunk and everything it imports statically, as file names.
      const closure = (start: OutputChunk, into = new Set<string>()) => {
        if (!into.has(start.fileName)) {
          into.add(start.fileName);
          for (const name of start.imports) {
            const next = byFile.get(name);
            if (next) closure(next, into);
          }
        }
        return into;
      };
      const entry = chunks.find((chunk) => chunk.isEntry);
      const html = bundle['index.html'];
      if (!entry || !html || html.type !== 'asset') {
        this.error('first-screen-preload: no entry chunk or index.html in the bundle');
      }
      const loaded = closure(entry);
      const files: Record<string, string[]> = {};
      for (const [path, module] of Object.entries(screens)) {
        const chunk = chunks.find((c) => c.facadeModuleId === module);
        if (!chunk) this.error(`first-screen-preload: no chunk for ${module}`);
        files[path] = [...closure(chunk)].filter((name) => !loaded.has(name));
      }
      const script = `(function () {
  var screens = ${JSON.stringify(files)};
  var signedIn = false;
  try { signedIn = !!localStorage.getItem('token'); } catch (e) {}
  var files = screens[signedIn ? location.pathname : ${JSON.stringify(signedOut)}] || [];
  for (var i = 0; i < files.length; i++) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = '/' + files[i];
    document.head.appendChild(link);
  }
})();
`;
      const reference = this.emitFile({ type: 'asset', name: 'first-screen.js', source: script });
      const tag = `<script async src="/${this.getFileName(reference)}"></script>`;
      const page = String(html.source);
      // Without the anchor the script would silently go missing from the page.
      if (!page.includes('</title>')) this.error('first-screen-preload: index.html has no </title>');
      html.source = page.replace('</title>', `</title>\n    ${tag}`);
    },
  };
}

/**
 * How the built page loads the app: index.html's splash paints first, then the code
 * and the stylesheet download and run (issue 15).
 *
 * The build takes the app's tags out of index.html (the entry `<script type="module">`,
 * its `<link rel="modulepreload">`s and the `<link rel="stylesheet">`) and writes
 * `assets/first-screen-[hash].js`, a small classic script loaded `async` from the page
 * (low priority, it never holds up the paint), which after the page's first frame:
 *
 * 1. links the stylesheet and modulepreloads the entry's chunks, plus the chunks of the
 *    screen the visitor will see: the given screen of the current path when a session
 *    token is stored (localStorage `token`, PRODUCT.md 11), the sign-in screen
 *    otherwise. Screens are lazy chunks: without this the browser would learn that `/`
 *    needs the home chunk only once the entry has run, one more round trip (150 ms on
 *    Lighthouse's slow 4G). Vite's own preload helper skips what is already linked;
 * 2. adds the entry script once the stylesheet has loaded (or failed), so the app
 *    never renders unstyled.
 *
 * Why after the first frame: with the tags in the HTML, a fast connection (or a cached
 * revisit) delivered the code with the page and a slow phone spent its first half
 * second compiling and running it before painting anything; the splash (the lender's
 * name and licence, api/src/http/web_app.rs) now shows first on every connection. Waiting
 * for the frame costs one frame. Lighthouse agrees: its model counted every script
 * that had arrived before the first paint as blocking it (FCP 0.7 s or 1.9 s from run
 * to run). When no frame comes (a page opened in a background tab), a timer starts
 * the app anyway.
 */
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

const ENTRY_SCRIPT = /[ \t]*<script type="module" crossorigin src="([^"]+)"><\/script>\n?/g;
const MODULE_PRELOAD = /[ \t]*<link rel="modulepreload" crossorigin href="([^"]+)">\n?/g;
const STYLESHEET = /[ \t]*<link rel="stylesheet" crossorigin href="([^"]+)">\n?/g;

/** The hrefs a pattern finds in `html`, and `html` without those tags. */
function takeTags(html: string, pattern: RegExp): [string[], string] {
  const hrefs = [...html.matchAll(pattern)].map((match) => match[1]);
  return [hrefs, html.replace(pattern, '')];
}

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
        files[path] = [...closure(chunk)].filter((name) => !loaded.has(name)).map((name) => `/${name}`);
      }
      let page = String(html.source);
      const [entries, withoutEntry] = takeTags(page, ENTRY_SCRIPT);
      const [preloads, withoutPreloads] = takeTags(withoutEntry, MODULE_PRELOAD);
      const [styles, withoutStyles] = takeTags(withoutPreloads, STYLESHEET);
      // Without exactly one entry tag the app would silently not start, or start twice.
      if (entries.length !== 1) this.error(`first-screen-preload: ${entries.length} entry scripts in index.html`);
      page = withoutStyles;
      const script = `(function () {
  var entry = ${JSON.stringify(entries[0])};
  var preloads = ${JSON.stringify(preloads)};
  var styles = ${JSON.stringify(styles)};
  var screens = ${JSON.stringify(files)};
  var started = false;
  function link(rel, href) {
    var tag = document.createElement('link');
    tag.rel = rel;
    tag.crossOrigin = '';
    tag.href = href;
    document.head.appendChild(tag);
    return tag;
  }
  function run() {
    var tag = document.createElement('script');
    tag.type = 'module';
    tag.crossOrigin = '';
    tag.src = entry;
    document.head.appendChild(tag);
  }
  function start() {
    if (started) return;
    started = true;
    var signedIn = false;
    try { signedIn = !!localStorage.getItem('token'); } catch (e) {}
    var pending = styles.length;
    var done = function () { pending -= 1; if (pending === 0) run(); };
    for (var i = 0; i < styles.length; i++) {
      var sheet = link('stylesheet', styles[i]);
      sheet.onload = done;
      sheet.onerror = done;
    }
    var files = preloads.concat(screens[signedIn ? location.pathname : ${JSON.stringify(signedOut)}] || []);
    for (var j = 0; j < files.length; j++) link('modulepreload', files[j]);
    if (styles.length === 0) run();
  }
  if (window.requestAnimationFrame) requestAnimationFrame(function () { setTimeout(start, 0); });
  setTimeout(start, 250);
})();
`;
      const reference = this.emitFile({ type: 'asset', name: 'first-screen.js', source: script });
      const tag = `<script async src="/${this.getFileName(reference)}"></script>`;
      // Without the anchor the script would silently go missing from the page.
      if (!page.includes('</title>')) this.error('first-screen-preload: index.html has no </title>');
      html.source = page.replace('</title>', `</title>\n    ${tag}`);
    },
  };
}

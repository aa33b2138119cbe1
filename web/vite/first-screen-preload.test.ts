import { firstScreenPreload } from './first-screen-preload';

type Chunk = { type: 'chunk'; fileName: string; imports: string[]; isEntry: boolean; facadeModuleId: string | null };
const chunk = (fileName: string, imports: string[], facadeModuleId: string | null = null, isEntry = false): Chunk => ({
  type: 'chunk',
  fileName,
  imports,
  isEntry,
  facadeModuleId,
});

/** index.html as Vite writes it: the entry, its preloads and the stylesheet in the head. */
const PAGE = `<head><title>Cash Loan</title>
    <script type="module" crossorigin src="/assets/index.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react.js">
    <link rel="stylesheet" crossorigin href="/assets/index.css">
  </head><body><div id="root"><div class="boot"></div></div></body>`;

/** Runs the plugin over a small bundle; returns the page's HTML and the emitted script. */
function build(page = PAGE) {
  const bundle: Record<string, unknown> = {
    'assets/index.js': chunk('assets/index.js', ['assets/react.js'], '/src/main.tsx', true),
    'assets/react.js': chunk('assets/react.js', []),
    'assets/home.js': chunk('assets/home.js', ['assets/react.js', 'assets/swiper.js'], '/src/home.tsx'),
    'assets/swiper.js': chunk('assets/swiper.js', ['assets/react.js']),
    'assets/login.js': chunk('assets/login.js', ['assets/react.js'], '/src/login.tsx'),
    'index.html': { type: 'asset', source: page },
  };
  let script = '';
  const context = {
    emitFile: (file: { source: string }) => {
      script = file.source;
      return 'ref';
    },
    getFileName: () => 'assets/first-screen-abc.js',
    error: (message: string) => {
      throw new Error(message);
    },
  };
  const plugin = firstScreenPreload({ '/': '/src/home.tsx', '/login': '/src/login.tsx' }, '/login');
  (plugin.generateBundle as (this: unknown, options: unknown, bundle: unknown) => void).call(context, {}, bundle);
  return { html: String((bundle['index.html'] as { source: string }).source), script };
}

/** Runs the script for a visitor at `path` until the first frame has passed. */
function loadAt(path: string, token: string | null) {
  const { script } = build();
  document.head.innerHTML = '';
  window.history.replaceState(null, '', path);
  if (token) localStorage.setItem('token', token);
  else localStorage.removeItem('token');
  vi.useFakeTimers();
  try {
    new Function(script)();
    // Nothing before the page's first frame.
    expect(document.head.children).toHaveLength(0);
    vi.advanceTimersByTime(300);
  } finally {
    vi.useRealTimers();
  }
  const hrefs = (selector: string) => [...document.head.querySelectorAll(selector)].map((tag) => tag.getAttribute('href') ?? tag.getAttribute('src'));
  return {
    preloads: hrefs('link[rel=modulepreload]'),
    styles: hrefs('link[rel=stylesheet]'),
    scripts: () => hrefs('script[type=module]'),
  };
}

describe('firstScreenPreload', () => {
  it("takes the app's tags out of the page and loads its script, async, after the title", () => {
    expect(build().html).toBe(
      '<head><title>Cash Loan</title>\n    <script async src="/assets/first-screen-abc.js"></script>\n  </head><body><div id="root"><div class="boot"></div></div></body>',
    );
  });

  it("preloads the entry's chunks and a signed-in borrower's screen without what the entry already loads", () => {
    expect(loadAt('/', 'session').preloads).toEqual(['/assets/react.js', '/assets/home.js', '/assets/swiper.js']);
  });

  it('preloads the sign-in screen for a visitor without a session, whatever the path', () => {
    expect(loadAt('/', null).preloads).toEqual(['/assets/react.js', '/assets/login.js']);
    expect(loadAt('/order', null).preloads).toEqual(['/assets/react.js', '/assets/login.js']);
  });

  it('preloads no screen it does not know', () => {
    expect(loadAt('/order', 'session').preloads).toEqual(['/assets/react.js']);
  });

  it('runs the entry only once the stylesheet has loaded, so the app never renders unstyled', () => {
    const page = loadAt('/', null);
    expect(page.styles).toEqual(['/assets/index.css']);
    expect(page.scripts()).toEqual([]);
    document.head.querySelector('link[rel=stylesheet]')!.dispatchEvent(new Event('load'));
    expect(page.scripts()).toEqual(['/assets/index.js']);
  });

  it('still runs the entry when the stylesheet fails', () => {
    const page = loadAt('/', null);
    document.head.querySelector('link[rel=stylesheet]')!.dispatchEvent(new Event('error'));
    expect(page.scripts()).toEqual(['/assets/index.js']);
  });

  it('refuses a page without exactly one entry script', () => {
    expect(() => build('<head><title>x</title></head>')).toThrow(/0 entry scripts/);
  });
});

import { firstScreenPreload } from './first-screen-preload';

type Chunk = { type: 'chunk'; fileName: string; imports: string[]; isEntry: boolean; facadeModuleId: string | null };
const chunk = (fileName: string, imports: string[], facadeModuleId: string | null = null, isEntry = false): Chunk => ({
  type: 'chunk',
  fileName,
  imports,
  isEntry,
  facadeModuleId,
});

/** Runs the plugin over a small bundle; returns the page's HTML and the emitted script. */
function build() {
  const bundle: Record<string, unknown> = {
    'assets/index.js': chunk('assets/index.js', ['assets/react.js'], '/src/main.tsx', true),
    'assets/react.js': chunk('assets/react.js', []),
    'assets/home.js': chunk('assets/home.js', ['assets/react.js', 'assets/swiper.js'], '/src/home.tsx'),
    'assets/swiper.js': chunk('assets/swiper.js', ['assets/react.js']),
    'assets/login.js': chunk('assets/login.js', ['assets/react.js'], '/src/login.tsx'),
    'index.html': { type: 'asset', source: '<head><title>Cash Loan</title></head>' },
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

/** The hrefs the script links for a visitor at `path`, with or without a session. */
function preloadsAt(path: string, token: string | null) {
  const { script } = build();
  document.head.innerHTML = '';
  window.history.replaceState(null, '', path);
  if (token) localStorage.setItem('token', token);
  else localStorage.removeItem('token');
  new Function(script)();
  return [...document.head.querySelectorAll('link[rel=modulepreload]')].map((link) => link.getAttribute('href'));
}

describe('firstScreenPreload', () => {
  it('loads its script from the page, async, after the title', () => {
    expect(build().html).toBe(
      '<head><title>Cash Loan</title>\n    <script async src="/assets/first-screen-abc.js"></script></head>',
    );
  });

  it("preloads a signed-in borrower's screen without what the entry already loads", () => {
    expect(preloadsAt('/', 'session')).toEqual(['/assets/home.js', '/assets/swiper.js']);
  });

  it('preloads the sign-in screen for a visitor without a session, whatever the path', () => {
    expect(preloadsAt('/', null)).toEqual(['/assets/login.js']);
    expect(preloadsAt('/order', null)).toEqual(['/assets/login.js']);
  });

  it('preloads nothing for a screen it does not know', () => {
    expect(preloadsAt('/order', 'session')).toEqual([]);
  });
});

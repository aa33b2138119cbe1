import { moveStylesheets } from './styles-after-first-paint';

describe('moveStylesheets', () => {
  const built = `<!doctype html>
<html>
  <head>
    <title>Cash Loan</title>
    <script type="module" crossorigin src="/assets/index.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/chunk.js">
    <link rel="stylesheet" crossorigin href="/assets/index.css">
  </head>
  <body>
    <div id="root"><div class="boot">Cash Loan</div></div>
  </body>
</html>
`;

  it('moves the stylesheet from the head to the end of the body', () => {
    const html = moveStylesheets(built);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).not.toContain('stylesheet');
    expect(head).toContain('modulepreload');
    expect(html).toMatch(/<div class="boot">Cash Loan<\/div><\/div>\n\s+<link rel="stylesheet" crossorigin href="\/assets\/index.css">\n {2}<\/body>/);
    expect(html.match(/stylesheet/g)).toHaveLength(1);
  });

  it('leaves a page without stylesheets alone', () => {
    const plain = '<html><head></head><body></body></html>';
    expect(moveStylesheets(plain)).toBe(plain);
  });
});

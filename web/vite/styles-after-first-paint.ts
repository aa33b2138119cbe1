/**
 * Lets index.html's inline first paint (the `.boot` splash in `#root`) show before
 * the app's stylesheet arrives. Vite links the stylesheet in `<head>`, where it
 * blocks all rendering: on a slow mobile connection the screen stayed blank until
 * it had downloaded (issue 15). Moved to the end of `<body>` it blocks only what
 * follows it (nothing), and the entry module still runs after it has loaded (a
 * pending parser-inserted stylesheet holds back deferred and module scripts), so
 * the app never renders unstyled.
 */
import type { Plugin } from 'vite';

const STYLESHEET = /[ \t]*<link rel="stylesheet"[^>]*>\n?/g;

/** index.html with its stylesheet links moved from `<head>` to just before `</body>`. */
export function moveStylesheets(html: string): string {
  const end = html.indexOf('</head>');
  if (end < 0) return html;
  const links = html.slice(0, end).match(STYLESHEET) ?? [];
  if (links.length === 0) return html;
  const head = html.slice(0, end).replace(STYLESHEET, '');
  const rest = html.slice(end).replace('</body>', `${links.map((l) => `  ${l.trim()}\n`).join('')}  </body>`);
  return head + rest;
}

export function stylesAfterFirstPaint(): Plugin {
  return {
    name: 'styles-after-first-paint',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: moveStylesheets },
  };
}

/**
 * Stands in for `rc-util/lib/React/render` (vite.config.ts aliases it here).
 * antd-mobile imports that module only as the default of its imperative render
 * (`unstableSetRender`), which lib/antd-react19.ts replaces before anything
 * renders; on React 19 the original would do nothing anyway (it needs
 * `ReactDOM.render` or `ReactDOM.createRoot`, neither on 'react-dom'), and it
 * brings a CommonJS module and Babel's regenerator runtime with it. So this
 * only says loudly that the adapter is missing.
 */
function missingAdapter(): never {
  throw new Error("antd-mobile's React 19 render adapter is not set: import '@/lib/antd-react19' first");
}

export function render(_node: unknown, _container: unknown): void {
  missingAdapter();
}

export function unmount(_container: unknown): Promise<void> {
  missingAdapter();
}

/**
 * antd-mobile 5 renders its imperative pieces (Toast, Dialog.alert/confirm) with
 * the React 18 `render` API, which React 19 removed; this hands it React 19's
 * `createRoot` instead (the adapter antd-mobile documents in "v5 for React 19").
 * antd-mobile's own fallback (rc-util's legacy `render`, which does nothing on
 * React 19) is replaced by a stub at build time (vite.config.ts), so the first
 * screen does not carry it.
 */
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot, type Root } from 'react-dom/client';

type Container = (Element | DocumentFragment) & { reactRoot?: Root };

unstableSetRender((node, container: Container) => {
  container.reactRoot ??= createRoot(container);
  const root = container.reactRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    delete container.reactRoot;
  };
});

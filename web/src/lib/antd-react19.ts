/**
 * antd-mobile 5 renders its imperative pieces (Toast, Dialog.alert/confirm) with
 * the React 18 `render` API, which React 19 removed; this hands it React 19's
 * `createRoot` instead (the adapter antd-mobile documents in "v5 for React 19").
 */
import { unstableSetRender } from 'antd-mobile';
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

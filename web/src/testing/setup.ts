import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { act, cleanup } from '@testing-library/react';
import Dialog from 'antd-mobile/es/components/dialog';
import Toast from 'antd-mobile/es/components/toast';
import '@/lib/antd-react19';
import { i18nReady } from '@/lib/i18n';
import { server } from './server';

beforeAll(async () => {
  await i18nReady;
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  server.resetHandlers();
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(async () => {
  server.close();
  await closeImperativeRoots();
});

/**
 * Closes the toasts and dialogs antd-mobile renders in React roots of their own (which
 * Testing Library's `cleanup` does not know), and waits until their roots have left
 * the page and React has run the last effects they scheduled. Otherwise a root that
 * commits as the file ends (a toast still animating) has React's scheduler run its
 * effects after the test environment is gone: "ReferenceError: window is not defined",
 * an unhandled error that fails the whole run.
 */
async function closeImperativeRoots() {
  // What is left of antd-mobile in the page after `cleanup` is one of those roots.
  const open = () => document.body.querySelector('[class*="adm-"]') !== null;
  // Inside `act`: their closing animations update state as the time passes.
  await act(async () => {
    Toast.clear();
    Dialog.clear();
    for (let waited = 0; open() && waited < 2000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  // React's scheduler posts its work with setImmediate: let what is queued run.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

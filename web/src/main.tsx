import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import '@/lib/antd-react19';
import { i18nReady } from '@/lib/i18n';
import { AppProvider } from '@/app/provider';
import { createRouter } from '@/app/router';
import { makeStore } from '@/app/store';
import './styles.css';

const store = makeStore();
const router = createRouter();

// Render once the saved language's strings are there (no flash of English).
void i18nReady.finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppProvider store={store}>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  ),
);

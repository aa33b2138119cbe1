// antd-mobile's global styles and CSS variables first (the 'antd-mobile' barrel
// used to bring them; components are imported one by one, e.g.
// 'antd-mobile/es/components/button', so the first screen carries only its own).
import 'antd-mobile/es/global';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@/lib/antd-react19';
import { i18nReady } from '@/lib/i18n';
import { AppProvider } from '@/app/provider';
import { App } from '@/app/router';
import { makeStore } from '@/app/store';
import './styles.css';

const store = makeStore();

// Render once the saved language's strings are there (no flash of English).
void i18nReady.finally(() => {
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProvider store={store}>
          <App />
        </AppProvider>
      </StrictMode>,
    ),
  );
});

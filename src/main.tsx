import './index.css';
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { StartupError } from './components/errors/startup-error';
import { catalogsForPath } from './lib/catalog-areas';
import { activateLocale, i18n, initialLocale, setCatalogs } from './lib/i18n';
import { installPreloadErrorListener } from './lib/preload-error';
import { createQueryClient } from './lib/query-client';
import { startSession } from './lib/session';
import { SessionProvider } from './lib/session-context';
import { createAppRouter, type AppRouter } from './router';

installPreloadErrorListener();
// only the catalogs of the page being opened (the root route adds another page's when the SPA goes there)
setCatalogs(catalogsForPath(window.location.pathname));

function mount(): Root {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root element missing');
  return createRoot(container);
}

async function bootstrap() {
  const queryClient = createQueryClient();
  // The session navigates through the router, which needs the session first.
  const late: { router?: AppRouter } = {};
  const [session] = await Promise.all([
    startSession({ queryClient, navigate: (to) => void late.router?.navigate({ to }) }).catch((error: unknown) => {
      console.error('Session start failed', error);
      return null;
    }),
    activateLocale(initialLocale()),
  ]);
  const root = mount();
  if (!session) {
    root.render(
      <StrictMode>
        <I18nProvider i18n={i18n}>
          <StartupError />
        </I18nProvider>
      </StrictMode>,
    );
    return;
  }
  const router = createAppRouter({ session, queryClient });
  late.router = router;

  root.render(
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <SessionProvider session={session}>
            <RouterProvider router={router} />
          </SessionProvider>
        </QueryClientProvider>
      </I18nProvider>
    </StrictMode>,
  );
}

void bootstrap();

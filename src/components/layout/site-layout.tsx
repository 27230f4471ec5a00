import { Trans, useLingui } from '@lingui/react/macro';
import { Outlet } from '@tanstack/react-router';
import { useRef, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { LanguagePicker } from '../language-picker';
import { Logo, PRODUCT_NAME } from '../logo';
import { MAIN_CONTENT_ID, SkipLink } from '../skip-link';
import { setPhoneToastSlot, useToastLane } from '../ui/toast-lane';
import { SessionScreenRoot } from '../../lib/session-context';

export interface SiteLayoutProps {
  children: ReactNode;
  /** Extra header content (e.g. the user menu in the user area). */
  headerActions?: ReactNode;
  /** Where the logo links. */
  home?: '/' | '/admin/dashboard';
}

/**
 * The layout route of an area drawn in the site layout (the public pages, the console's sign-in pages, the user area):
 * the session's screen root around the site layout, the area's page in its main.
 */
export function SiteAreaLayout({ headerActions }: Pick<SiteLayoutProps, 'headerActions'>) {
  return (
    <SessionScreenRoot>
      <SiteLayout headerActions={headerActions}>
        <Outlet />
      </SiteLayout>
    </SessionScreenRoot>
  );
}

/** Public and user area layout: logo header, language picker, main, footer with the current year. */
export function SiteLayout({ children, headerActions, home = '/' }: SiteLayoutProps) {
  const { t } = useLingui();
  const year = new Date().getFullYear();
  const headerRef = useRef<HTMLElement>(null);
  useToastLane(headerRef);
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', minHeight: '100dvh', bg: 'bg.canvas' })}>
      <SkipLink />
      <header
        ref={headerRef}
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '4',
          px: { base: '4', md: '8' },
          height: 'header',
          bg: 'bg.surface',
          borderBottomWidth: '1px',
          borderColor: 'border.default',
        })}
      >
        <Logo to={home} />
        <div data-toast-avoid="end" className={css({ display: 'flex', alignItems: 'center', gap: '3' })} role="group" aria-label={t`Preferences`}>
          <LanguagePicker />
          {headerActions}
        </div>
      </header>
      {/* the phone lane of toasts, sticky at the top once the header has scrolled away (components/ui/toast-lane.ts) */}
      <div ref={setPhoneToastSlot} data-testid="phone-toast-slot" className={css({ position: 'sticky', top: '0', zIndex: 'header' })} />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className={css({ flex: '1', display: 'flex', flexDirection: 'column', px: { base: '4', md: '8' }, py: '8', outline: 'none' })}>
        {children}
      </main>
      <footer className={css({ px: { base: '4', md: '8' }, py: '4', borderTopWidth: '1px', borderColor: 'border.default', fontSize: 'sm', color: 'fg.muted', textAlign: 'center' })}>
        <Trans>
          © {year} {PRODUCT_NAME}. All rights reserved.
        </Trans>
      </footer>
    </div>
  );
}

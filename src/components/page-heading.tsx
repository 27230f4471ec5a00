import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

/** The page's single h1. */
export function PageHeading({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '4', mb: '6', flexWrap: 'wrap' })}>
      {/* long compound words ("Administratorverwaltung") fit a 360 px phone: a smaller size there, then hyphens */}
      <h1 className={css({ textStyle: 'pageTitle', fontSize: { base: 'xl', sm: '2xl' }, color: 'fg.default', minWidth: '0', overflowWrap: 'break-word', hyphens: 'auto' })}>{children}</h1>
      {actions}
    </div>
  );
}

/** Centered card used by the public screens (sign-in, password pages); `screen` names it (`data-screen`, machines/testing/qa.ts). */
export function AuthCard({ children, screen, busy }: { children: ReactNode; screen?: `screen:${string}`; busy?: boolean }) {
  return (
    <div data-screen={screen} aria-busy={busy || undefined} className={css({ flex: '1', display: 'flex', alignItems: 'flex-start', justifyContent: 'center', pt: { base: '4', md: '12' } })}>
      <div className={css({ width: 'full', maxWidth: 'md', bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'xl', boxShadow: 'sm', p: { base: '6', md: '8' } })}>
        {children}
      </div>
    </div>
  );
}

import { useEffect, useRef, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { LogoMark } from '../logo';
import { MAIN_CONTENT_ID } from '../skip-link';

export interface StatusPageProps {
  code?: string | number | undefined;
  heading: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  /** Render a main landmark (false when nested inside a layout's main). */
  landmark?: boolean;
  /** Move focus to the heading when shown (a page that replaces the one the person was on, e.g. after an error). */
  focusHeading?: boolean;
}

/** Full-page message for 404 / 403 / errors. */
export function StatusPage({ code, heading, children, actions, landmark = true, focusHeading = false }: StatusPageProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusHeading) headingRef.current?.focus();
  }, [focusHeading]);
  const body = (
    <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '4', maxWidth: 'lg', mx: 'auto' })}>
      <LogoMark size={40} />
      {code !== undefined ? (
        <p className={css({ fontSize: '6xl', fontWeight: 'bold', color: 'accent.text', lineHeight: '1' })} aria-hidden="true">
          {code}
        </p>
      ) : null}
      <h1 ref={headingRef} tabIndex={focusHeading ? -1 : undefined} className={css({ textStyle: 'pageTitle', outline: 'none' })}>
        {heading}
      </h1>
      {children ? <div className={css({ color: 'fg.muted' })}>{children}</div> : null}
      {actions ? <div className={css({ display: 'flex', gap: '3', mt: '2' })}>{actions}</div> : null}
    </div>
  );
  const outer = css({ flex: '1', display: 'flex', alignItems: 'center', justifyContent: 'center', px: '4', py: '16', outline: 'none' });
  return landmark ? (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className={outer}>
      {body}
    </main>
  ) : (
    <div className={outer}>{body}</div>
  );
}

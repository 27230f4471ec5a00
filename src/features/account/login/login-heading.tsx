import type { ReactNode } from 'react';
import { css } from 'styled-system/css';

/**
 * A sign-in screen's h1 with its one-line description right under it. The description belongs to the heading
 * (one block, its own small gap), so a screen's form stack does not add its gap on top of the heading's margin.
 */
export function ScreenHeading({ title, description }: { title: ReactNode; description?: ReactNode }) {
  return (
    <header data-part="screen-heading" className={css({ display: 'flex', flexDirection: 'column', gap: '1.5', mb: '6' })}>
      <h1 className={css({ textStyle: 'pageTitle', color: 'fg.default' })}>{title}</h1>
      {description ? <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{description}</p> : null}
    </header>
  );
}

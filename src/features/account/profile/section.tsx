import type { ReactNode, Ref } from 'react';
import { css } from 'styled-system/css';

/** One card of the profile page: a titled section with an optional description (`screen`: the machine screen it shows, `data-screen`). */
export function Section({ id, title, description, screen, children, ref }: { id: string; title: ReactNode; description?: ReactNode; screen?: string; children: ReactNode; ref?: Ref<HTMLElement> }) {
  return (
    <section ref={ref} aria-labelledby={id} data-screen={screen} className={css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'xl', boxShadow: 'xs', p: { base: '5', md: '6' } })}>
      <h2 id={id} className={css({ textStyle: 'sectionTitle' })}>
        {title}
      </h2>
      {description ? <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>{description}</p> : null}
      <div className={css({ mt: '5' })}>{children}</div>
    </section>
  );
}

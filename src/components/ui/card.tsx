import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';

const cardClass = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'xl',
  boxShadow: 'xs',
});

export interface CardProps {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  titleId?: string;
}

/** A titled panel on a page. */
export function Card({ title, description, actions, children, className, titleId }: CardProps) {
  return (
    <section className={cx(cardClass, css({ p: { base: '4', md: '6' }, display: 'flex', flexDirection: 'column', gap: '4', minWidth: '0' }), className)} aria-labelledby={title ? titleId : undefined}>
      {title || actions ? (
        <div className={css({ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
          <div>
            {title ? (
              <h2 id={titleId} className={css({ textStyle: 'sectionTitle' })}>
                {title}
              </h2>
            ) : null}
            {description ? <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>{description}</p> : null}
          </div>
          {actions ? <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>{actions}</div> : null}
        </div>
      ) : null}
      {children}
    </section>
  );
}

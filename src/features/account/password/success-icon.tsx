import { css } from 'styled-system/css';

/** The check mark at the top of a card that reports a success. */
export function SuccessIcon() {
  return (
    <div aria-hidden="true" className={css({ width: '12', height: '12', borderRadius: 'full', bg: 'success.50', color: 'success.600', display: 'flex', alignItems: 'center', justifyContent: 'center', mb: '4' })}>
      <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
        <path d="M20 6 9 17l-5-5" />
      </svg>
    </div>
  );
}

import { Link } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import { LockIcon } from './ui/icons';

export const PRODUCT_NAME = 'IAM';

export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <span
      aria-hidden="true"
      className={css({ display: 'inline-flex', alignItems: 'center', justifyContent: 'center', bg: 'accent.default', color: 'accent.fg', borderRadius: 'lg', flexShrink: 0 })}
      style={{ width: size, height: size }}
    >
      <LockIcon width={size * 0.55} height={size * 0.55} />
    </span>
  );
}

/** Product logo linking home; the accessible name is the product name. */
export function Logo({ to = '/' }: { to?: '/' | '/admin/dashboard' }) {
  return (
    <Link
      to={to}
      data-toast-avoid="start"
      className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', fontWeight: 'bold', fontSize: 'lg', color: 'fg.default', textDecoration: 'none', borderRadius: 'md' })}
    >
      <LogoMark />
      <span>{PRODUCT_NAME}</span>
    </Link>
  );
}

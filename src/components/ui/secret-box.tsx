import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { css } from 'styled-system/css';
import { CopyButton } from './copy-button';

export interface SecretBoxProps {
  label: ReactNode;
  value: string;
}

/** A secret shown once: monospace value, copy button, warning. */
export function SecretBox({ label, value }: SecretBoxProps) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', p: '4', borderRadius: 'lg', bg: 'warning.50', borderWidth: '1px', borderColor: 'warning.600/30' })}>
      <p className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>{label}</p>
      <div className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
        <code data-testid="secret-value" className={css({ fontFamily: 'mono', fontSize: 'sm', bg: 'bg.surface', px: '3', py: '2', borderRadius: 'md', borderWidth: '1px', borderColor: 'border.default', wordBreak: 'break-all', flex: '1', minWidth: '0' })}>
          {value}
        </code>
        <CopyButton value={value} />
      </div>
      <p className={css({ fontSize: 'xs', color: 'warning.700' })}>
        <Trans>Copy it now: it is shown only once.</Trans>
      </p>
    </div>
  );
}

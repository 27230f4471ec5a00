/**
 * Building blocks shared by the public and user-area screens: error summary,
 * password field with show/hide, live password checklist (error texts: error-words.ts).
 */
import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { passwordChecklist } from '../../../contract/domain/password-rules';
import { Button } from '../../components/ui/button';
import * as Field from '../../components/ui/field';
import { CheckIcon, XIcon } from '../../components/ui/icons';
import type { TextFieldProps } from '../../components/ui/text-field';
import { passwordRuleLabel } from '../../lib/field-errors';

/** Seconds → "2 min 5 s" style, localized by Intl. */
export function formatDuration(i18n: I18n, seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return new Intl.NumberFormat(i18n.locale, { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(s);
  const minutes = Math.ceil(s / 60);
  return new Intl.NumberFormat(i18n.locale, { style: 'unit', unit: 'minute', unitDisplay: 'long' }).format(minutes);
}

/** Error summary: announced, and focused when it appears so keyboard users land on it. */
export function FormAlert({ children, tone = 'error', focus = true, id }: { children: ReactNode; tone?: 'error' | 'success' | 'info'; focus?: boolean; id?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus && tone === 'error') ref.current?.focus();
  }, [children, focus, tone]);
  return (
    <div
      ref={ref}
      id={id}
      tabIndex={-1}
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={`form-alert-${tone}`}
      className={css({
        borderRadius: 'md',
        borderWidth: '1px',
        px: '3',
        py: '2.5',
        fontSize: 'sm',
        outline: 'none',
        _focusVisible: { outline: '2px solid', outlineColor: 'focusRing' },
        ...(tone === 'error'
          ? { bg: 'danger.subtle', borderColor: 'border.error', color: 'fg.error' }
          : tone === 'success'
            ? { bg: 'success.50', borderColor: 'success.600', color: 'fg.success' }
            : { bg: 'accent.subtle', borderColor: 'brand.200', color: 'fg.default' }),
      })}
    >
      {children}
    </div>
  );
}

export const formStack = css({ display: 'flex', flexDirection: 'column', gap: '4' });

/** A screen whose data could not be loaded: the error, announced and focused, and a button that asks again. */
export function LoadFailed({ onRetry, className = formStack }: { onRetry: () => void; className?: string }) {
  return (
    <div className={className}>
      <FormAlert>
        <Trans>An error occurred, please try again</Trans>
      </FormAlert>
      <Button onClick={onRetry}>
        <Trans>Try again</Trans>
      </Button>
    </div>
  );
}
export const mutedText = css({ fontSize: 'sm', color: 'fg.muted' });
export const linkClass = css({ color: 'accent.text', fontSize: 'sm', fontWeight: 'medium', textDecoration: 'underline', textUnderlineOffset: '2px', _hover: { textDecoration: 'none' } });

/** Localized labels for the digits of Ark's PinInput ("Digit 1 of 6"). */
export function usePinTranslations() {
  const { t } = useLingui();
  return {
    inputLabel: (index: number, length: number) => {
      const position = index + 1;
      return t`Digit ${position} of ${length}`;
    },
  };
}

export interface PasswordInputProps extends Omit<TextFieldProps, 'type'> {
  name: string;
}

/** Password field with a show/hide toggle. */
export function PasswordField({ label, errorText, helperText, required, ...inputProps }: PasswordInputProps) {
  const { t } = useLingui();
  const [visible, setVisible] = useState(false);
  return (
    <Field.Root invalid={Boolean(errorText)} required={required}>
      <Field.Label>
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <div className={css({ position: 'relative' })}>
        <Field.Input type={visible ? 'text' : 'password'} className={css({ pe: '20' })} {...inputProps} />
        <Button
          variant="ghost"
          size="sm"
          aria-pressed={visible}
          aria-label={visible ? t`Hide password` : t`Show password`}
          onClick={() => setVisible((v) => !v)}
          className={css({ position: 'absolute', insetEnd: '1', top: '50%', transform: 'translateY(-50%)', fontSize: 'xs', color: 'fg.muted' })}
        >
          {visible ? t`Hide` : t`Show`}
        </Button>
      </div>
      {helperText ? <Field.HelperText>{helperText}</Field.HelperText> : null}
      {errorText ? <Field.ErrorText>{errorText}</Field.ErrorText> : null}
    </Field.Root>
  );
}

/** Live password-policy checklist (docs/SPEC.md §5); announced politely as rules are met. */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const { i18n, t } = useLingui();
  const fallbackId = useId();
  const items = passwordChecklist(password);
  const met = items.filter((item) => item.ok).length;
  return (
    <div id={id ?? fallbackId} className={css({ bg: 'bg.subtle', borderRadius: 'md', px: '3', py: '2.5' })}>
      <p className={css({ fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted', mb: '1.5' })}>
        <Trans>
          Password requirements ({met} of {items.length} met)
        </Trans>
      </p>
      <ul className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '1' })} data-testid="password-checklist">
        {items.map((item) => (
          <li
            key={item.rule}
            data-rule={item.rule}
            data-ok={item.ok}
            className={cx(css({ display: 'flex', alignItems: 'flex-start', gap: '1.5', fontSize: 'xs', lineHeight: '1.1rem', '& svg': { mt: '0.5' } }), item.ok ? css({ color: 'fg.success' }) : css({ color: 'fg.muted' }))}
          >
            {item.ok ? <CheckIcon width={14} height={14} aria-hidden="true" className={css({ flexShrink: 0 })} /> : <XIcon width={14} height={14} aria-hidden="true" className={css({ flexShrink: 0 })} />}
            <span>
              {passwordRuleLabel(i18n, item.rule)}
              <span className={css({ srOnly: true })}>{item.ok ? ` — ${t`met`}` : ` — ${t`not met yet`}`}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SubmitButton({ loading, children, ...props }: { loading: boolean; children: ReactNode; className?: string; 'data-testid'?: string }) {
  return (
    <Button type="submit" size="lg" disabled={loading} aria-busy={loading} className={cx(css({ width: 'full' }), props.className)} data-testid={props['data-testid']}>
      {loading ? <Spinner /> : null}
      {children}
    </Button>
  );
}

export function Spinner() {
  return (
    <span
      aria-hidden="true"
      className={css({ width: '4', height: '4', borderRadius: 'full', borderWidth: '2px', borderColor: 'currentColor', borderTopColor: 'transparent', animation: 'spin 0.8s linear infinite' })}
    />
  );
}

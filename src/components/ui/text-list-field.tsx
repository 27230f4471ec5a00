import { useId, useRef, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from './button';
import * as Field from './field';
import { PlusIcon, TrashIcon } from './icons-more';

export interface TextListFieldProps {
  /** The list's name, shown above it (a fieldset's legend). */
  legend: string;
  /** What the list is for, under the legend (read with the group). */
  hint?: ReactNode;
  values: readonly string[];
  onChange: (values: string[]) => void;
  onBlur?: () => void;
  /** The error text of each row (localized), by index. */
  errors?: readonly (string | undefined)[];
  /** The error text of the list itself. */
  listError?: string | undefined;
  /** Rows that must stay (their remove buttons are off while the list has no more; the legend is marked required); default 0. */
  min?: number;
  max: number;
  /** The accessible name of row `position` (1-based), e.g. "Redirect URI 2". */
  itemLabel: (position: number) => string;
  /** The name of the remove button of row `position`, e.g. "Remove redirect URI 2". */
  removeLabel: (position: number) => string;
  addLabel: string;
  /** Said beside the add button once the list is full, e.g. "At most 10". */
  fullText: string;
  /** Shown when the list has no row (min 0). */
  emptyText?: ReactNode;
  placeholder?: string;
  type?: 'text' | 'url';
  /** `data-testid` of the fieldset; rows are `${testId}-row`. */
  testId?: string;
}

/**
 * A list of text inputs with add and remove (e.g. a service app's redirect URIs): a fieldset named by its legend, each
 * row a labelled input ("Redirect URI 2") with its own error text and a remove button named by its position, then an
 * add button that stops at `max`. Keyboard: every control is in the tab order; adding a row moves the focus into it,
 * removing one moves it to the row that took its place (or the one before, or the add button).
 */
export function TextListField(p: TextListFieldProps) {
  const min = p.min ?? 0;
  const id = useId();
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const addButton = useRef<HTMLButtonElement | null>(null);
  /** stable keys for the rows: an index key would move a row's error and focus onto its neighbour on removal */
  const keys = useRef<string[]>([]);
  const serial = useRef(0);
  while (keys.current.length < p.values.length) keys.current.push(`${id}-${serial.current++}`);
  if (keys.current.length > p.values.length) keys.current.length = p.values.length;

  const focusLater = (target: () => HTMLElement | null | undefined) => requestAnimationFrame(() => target()?.focus());
  const add = () => {
    keys.current.push(`${id}-${serial.current++}`);
    p.onChange([...p.values, '']);
    focusLater(() => inputs.current[p.values.length]);
  };
  const remove = (index: number) => {
    keys.current.splice(index, 1);
    const next = p.values.filter((_, i) => i !== index);
    p.onChange(next);
    focusLater(() => (next.length ? inputs.current[Math.min(index, next.length - 1)] : addButton.current));
  };
  const full = p.values.length >= p.max;
  const hintId = p.hint ? `${id}-hint` : undefined;
  const listErrorId = p.listError ? `${id}-error` : undefined;

  return (
    <fieldset
      data-testid={p.testId}
      aria-describedby={[hintId, listErrorId].filter(Boolean).join(' ') || undefined}
      className={css({ display: 'flex', flexDirection: 'column', gap: '2', minWidth: '0' })}
    >
      <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>
        {p.legend}
        {min > 0 ? (
          <span aria-hidden="true" className={css({ color: 'fg.error', ms: '0.5' })}>
            *
          </span>
        ) : null}
      </legend>
      {p.hint ? (
        <p id={hintId} className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {p.hint}
        </p>
      ) : null}
      {p.values.length === 0 && p.emptyText ? <p className={css({ fontSize: 'sm', color: 'fg.subtle' })}>{p.emptyText}</p> : null}
      <ol className={css({ display: 'flex', flexDirection: 'column', gap: '2', listStyle: 'none', m: '0', p: '0' })}>
        {p.values.map((value, index) => (
          <li key={keys.current[index]} data-testid={p.testId ? `${p.testId}-row` : undefined} className={css({ display: 'flex', gap: '2', alignItems: 'flex-start' })}>
            <Field.Root invalid={Boolean(p.errors?.[index])} required={index < min} className={css({ flex: '1', minWidth: '0' })}>
              <Field.Label className={css({ srOnly: true })}>{p.itemLabel(index + 1)}</Field.Label>
              <Field.Input
                ref={(el: HTMLInputElement | null) => {
                  inputs.current[index] = el;
                }}
                type={p.type ?? 'text'}
                value={value}
                placeholder={p.placeholder}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => p.onChange(p.values.map((v, i) => (i === index ? e.target.value : v)))}
                onBlur={p.onBlur}
              />
              {p.errors?.[index] ? <Field.ErrorText>{p.errors[index]}</Field.ErrorText> : null}
            </Field.Root>
            <Button variant="ghost" size="sm" aria-label={p.removeLabel(index + 1)} title={p.removeLabel(index + 1)} disabled={p.values.length <= min} onClick={() => remove(index)} className={css({ mt: '1' })}>
              <TrashIcon />
            </Button>
          </li>
        ))}
      </ol>
      {p.listError ? (
        <p id={listErrorId} role="alert" className={css({ fontSize: 'sm', color: 'fg.error' })}>
          {p.listError}
        </p>
      ) : null}
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3', flexWrap: 'wrap' })}>
        <Button ref={addButton} variant="outline" size="sm" onClick={add} disabled={full}>
          <PlusIcon />
          {p.addLabel}
        </Button>
        {full ? <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{p.fullText}</span> : null}
      </div>
    </fieldset>
  );
}

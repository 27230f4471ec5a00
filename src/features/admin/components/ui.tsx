import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { Button } from '../../../components/ui/button';
import * as Dialog from '../../../components/ui/dialog';
import { CheckIcon, XIcon } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import * as Select from '../../../components/ui/select';
import * as Table from '../../../components/ui/table';
import { useErrorText } from './feedback';
import { CopyIcon, SearchIcon } from './icons';

/** For selects rendered inline (inside dialogs): the open menu stacks above later fields. */
export const raiseWhenOpen = css({ position: 'relative', '&:has([data-part=content][data-state=open])': { zIndex: 5 } });

export const cardClass = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'xl',
  boxShadow: 'xs',
});

/** A titled panel on a page. */
export function Card({ title, description, actions, children, className, titleId }: { title?: ReactNode; description?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; titleId?: string }) {
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

/** Horizontally scrollable, keyboard-focusable frame around a data table (360 px screens). */
export function TableFrame({ label, children, busy }: { label: string; children: ReactNode; busy?: boolean }) {
  return (
    <div
      role="region"
      aria-label={label}
      aria-busy={busy || undefined}
      tabIndex={0}
      className={css({
        overflowX: 'auto',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'lg',
        bg: 'bg.surface',
        _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
        '& table': { minWidth: '640px' },
        opacity: busy ? 0.7 : 1,
        transition: 'opacity token(durations.fast)',
      })}
    >
      {children}
    </div>
  );
}

const shimmer = css({
  display: 'block',
  height: '3',
  borderRadius: 'sm',
  bg: 'bg.muted',
  animation: 'pulse 1.4s ease-in-out infinite',
});

/** Loading placeholder rows. */
export function SkeletonRows({ columns, rows = 5 }: { columns: number; rows?: number }) {
  const { t } = useLingui();
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <Table.Row key={r} aria-hidden={r > 0 ? true : undefined}>
          {Array.from({ length: columns }, (_, c) => (
            <Table.Cell key={c}>
              {r === 0 && c === 0 ? <span className={css({ srOnly: true })}>{t`Loading…`}</span> : null}
              <span className={shimmer} style={{ width: `${55 + ((r * 7 + c * 13) % 40)}%` }} />
            </Table.Cell>
          ))}
        </Table.Row>
      ))}
    </>
  );
}

/** One full-width row with a message (empty list, no search results). */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <Table.Row>
      <Table.Cell colSpan={columns} className={css({ textAlign: 'center', py: '10', color: 'fg.muted' })}>
        {children}
      </Table.Cell>
    </Table.Row>
  );
}

/**
 * Table body for a list query: skeleton rows while it loads, the error as an alert, the empty message,
 * else one rendered row per item.
 */
export function QueryRows<T>({
  query,
  items,
  columns,
  skeletonRows,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  items: readonly T[];
  columns: number;
  skeletonRows?: number;
  empty: ReactNode;
  children: (item: T) => ReactNode;
}) {
  const errorText = useErrorText();
  if (query.isPending) return <SkeletonRows columns={columns} rows={skeletonRows} />;
  if (query.isError)
    return (
      <EmptyRow columns={columns}>
        <span role="alert">{errorText(query.error)}</span>
      </EmptyRow>
    );
  if (items.length === 0) return <EmptyRow columns={columns}>{empty}</EmptyRow>;
  return <>{items.map(children)}</>;
}

type Tone = 'neutral' | 'success' | 'danger' | 'info' | 'warning';
const toneStyles: Record<Tone, string> = {
  neutral: css({ bg: 'bg.subtle', color: 'fg.muted', borderColor: 'border.default' }),
  success: css({ bg: 'success.50', color: 'success.700', borderColor: 'success.50' }),
  danger: css({ bg: 'danger.50', color: 'danger.700', borderColor: 'danger.50' }),
  info: css({ bg: 'brand.50', color: 'brand.800', borderColor: 'brand.100' }),
  warning: css({ bg: 'warning.50', color: 'warning.700', borderColor: 'warning.50' }),
};

export function Badge({ tone = 'neutral', children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={cx(
        css({ display: 'inline-flex', alignItems: 'center', gap: '1', px: '2', py: '0.5', borderRadius: 'full', fontSize: 'xs', fontWeight: 'medium', borderWidth: '1px', whiteSpace: 'nowrap' }),
        toneStyles[tone],
      )}
    >
      {children}
    </span>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  pending?: boolean;
  /** Shown under the description, e.g. a refusal from the server. */
  error?: ReactNode;
}

/** Destructive-action confirmation; focus starts on Cancel. */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, onConfirm, pending, error }: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root open={open} onOpenChange={(d) => onOpenChange(d.open)} role="alertdialog" lazyMount unmountOnExit initialFocusEl={() => cancelRef.current}>
      <Dialog.Panel>
        <Dialog.Title>{title}</Dialog.Title>
        <Dialog.Description>{description}</Dialog.Description>
        {error ? (
          <p role="alert" className={css({ fontSize: 'sm', color: 'fg.error', bg: 'danger.50', borderRadius: 'md', px: '3', py: '2' })}>
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <Button ref={cancelRef} variant="outline" onClick={() => onOpenChange(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending} aria-busy={pending || undefined}>
            {confirmLabel}
          </Button>
        </DialogFooter>
      </Dialog.Panel>
    </Dialog.Root>
  );
}

export function DialogFooter({ children }: { children: ReactNode }) {
  return <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', flexWrap: 'wrap', pt: '2' })}>{children}</div>;
}

export function DialogClose() {
  const { t } = useLingui();
  return (
    <Dialog.CloseTrigger aria-label={t`Close`} className={css({ position: 'absolute', top: '4', insetEnd: '4', p: '1', borderRadius: 'md', cursor: 'pointer', color: 'fg.muted', _hover: { bg: 'bg.subtle' } })}>
      <XIcon width={18} height={18} />
    </Dialog.CloseTrigger>
  );
}

/** Copies a secret to the clipboard and says so. */
export function CopyButton({ value, label }: { value: string; label?: string }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false));
      }}
    >
      {copied ? <CheckIcon /> : <CopyIcon />}
      <span aria-live="polite">{copied ? t`Copied` : (label ?? t`Copy`)}</span>
    </Button>
  );
}

/** A secret shown once: monospace value, copy button, warning. */
export function SecretBox({ label, value }: { label: ReactNode; value: string }) {
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

/** Search box that reports its value after the user pauses typing. */
export function SearchField({ value, onChange, label, placeholder, delay = 300 }: { value: string; onChange: (value: string) => void; label: string; placeholder?: string; delay?: number }) {
  const [text, setText] = useState(value);
  const latest = useRef(onChange);
  latest.current = onChange;
  const [prev, setPrev] = useState(value);
  if (prev !== value) {
    setPrev(value);
    setText(value);
  }
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => latest.current(text), delay);
    return () => clearTimeout(timer);
  }, [text, value, delay]);
  return (
    <div className={css({ position: 'relative', width: 'full' })}>
      <SearchIcon aria-hidden width={16} height={16} className={css({ position: 'absolute', insetStart: '3', top: '50%', transform: 'translateY(-50%)', color: 'fg.subtle', pointerEvents: 'none' })} />
      <Input type="search" aria-label={label} placeholder={placeholder} value={text} onChange={(e) => setText(e.target.value)} className={css({ ps: '9' })} />
    </div>
  );
}

export interface MultiSelectProps {
  label: ReactNode;
  options: Select.SelectOption[];
  value: string[];
  onValueChange: (value: string[]) => void;
  placeholder?: string;
  hideLabel?: boolean;
  disabled?: boolean;
  summary?: (count: number) => string;
}

/** Several values from a list (Ark Select, multiple). */
export function MultiSelect({ label, options, value, onValueChange, placeholder, hideLabel, disabled, summary }: MultiSelectProps) {
  const collection = Select.createListCollection<Select.SelectOption>({ items: options, itemToString: (i) => i.label, itemToValue: (i) => i.value });
  const names = options.filter((o) => value.includes(o.value)).map((o) => o.label);
  return (
    <Select.Root
      collection={collection}
      multiple
      value={value}
      onValueChange={(d) => onValueChange(d.value)}
      disabled={disabled}
      positioning={{ sameWidth: true, fitViewport: true }}
      closeOnSelect={false}
      className={raiseWhenOpen}
    >
      <Select.Label className={hideLabel ? css({ srOnly: true }) : undefined}>{label}</Select.Label>
      <Select.Control>
        <Select.Trigger>
          <span className={css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: names.length ? 'fg.default' : 'fg.subtle' })}>
            {names.length ? (summary && names.length > 2 ? summary(names.length) : names.join(', ')) : placeholder}
          </span>
          <Select.Indicator>
            <ChevronIcon />
          </Select.Indicator>
        </Select.Trigger>
      </Select.Control>
      <Select.Positioner>
        <Select.Content>
          {collection.items.map((item) => (
            <Select.Item key={item.value} item={item}>
              <Select.ItemText>{item.label}</Select.ItemText>
              <Select.ItemIndicator>
                <CheckIcon width={16} height={16} />
              </Select.ItemIndicator>
            </Select.Item>
          ))}
        </Select.Content>
      </Select.Positioner>
      <Select.HiddenSelect />
    </Select.Root>
  );
}

function ChevronIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="m6 9 6 6 6-6" />
    </svg>
  );
}

/** Label/value pairs (user information). */
export function DetailList({ items }: { items: Array<{ label: ReactNode; value: ReactNode; key: string }> }) {
  return (
    <dl className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }, gap: '4' })}>
      {items.map((item) => (
        <div key={item.key} className={css({ minWidth: '0' })}>
          <dt className={css({ fontSize: 'xs', fontWeight: 'medium', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: 'wide' })}>{item.label}</dt>
          <dd className={css({ fontSize: 'sm', mt: '1', wordBreak: 'break-word' })}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A row of filters that wraps on small screens. */
export function Toolbar({ children }: { children: ReactNode }) {
  return <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(auto-fit, minmax(160px, 1fr))' }, gap: '3', alignItems: 'end' })}>{children}</div>;
}

import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useId, useMemo, useRef, type ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { createCsvImportActors, csvImportMachine, type CsvImportScreen, type ImportProgress } from '../../../../machines/csvImport.machine';
import type { MachineError } from '../../../../machines/errors';
import { call, upload } from '../../../api/call';
import { Button } from '../../../components/ui/button';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { UploadIcon } from '../../../components/ui/icons-more';
import { Switch } from '../../../components/ui/switch';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { swapFocusTarget, useSwapFocus } from '../../../lib/focus-after-swap';
import { inspectOptions } from '../../../lib/inspect';
import { fieldErrorMessage, sentenceStart } from '../../../lib/field-errors';
import { adminKeys } from '../api/keys';
import { IMPORT_COLUMN_NAMES, type ImportSkipReason } from '../../../../contract/admin/import';
import type { ImportReport } from '../api/types';
import { adminErrorText, errorCodeMessage, fieldProblem } from '../components/feedback';
import { useFormat } from '../components/format';

/** What the report view shows of an import's report. */
type Report = Pick<ImportReport, 'total' | 'created' | 'skipped' | 'failed' | 'encoding'> & Partial<Pick<ImportReport, 'skipped_count' | 'failed_count'>>;

export function ImportUsersDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={(d) => onOpenChange(d.open)} lazyMount unmountOnExit closeOnInteractOutside={false}>
      <Dialog.Panel className={css({ maxWidth: '3xl' })}>
        <ImportUsers onClose={() => onOpenChange(false)} />
      </Dialog.Panel>
    </Dialog.Root>
  );
}

const SCREENS: readonly CsvImportScreen[] = ['screen:import.pick', 'screen:import.checking', 'screen:import.report', 'screen:import.running', 'screen:import.done', 'screen:import.failed', 'screen:import.cancelled'];

/**
 * A refused file in the admin's words: the missing columns, an unreadable file, else the code's message.
 * (`users_import_failed` with `columns.email: required` reads "The file has no “email” column".)
 */
export function importErrorLines(i18n: I18n, error: MachineError): string[] {
  const lines: string[] = [];
  for (const [field, codes] of Object.entries(error.fields ?? {})) {
    const code = codes[0];
    if (!code) continue;
    const column = /^columns\.(.+)$/.exec(field)?.[1];
    if (column) lines.push(i18n._(msg`The file has no “${column}” column`));
    else if (field === 'file') lines.push(fieldErrorMessage(i18n, code, 'file') ?? '');
    else lines.push(fieldProblem(i18n, field, code));
  }
  return lines.length ? lines : [errorCodeMessage(i18n, error.code, error.retryAfter)];
}

function ImportUsers({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useLingui();
  const qc = useQueryClient();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const machine = useMemo(
    () =>
      csvImportMachine.provide({
        actors: createCsvImportActors({ call, upload }),
        actions: {
          close: () => closeRef.current(),
          usersChanged: () => void qc.invalidateQueries({ queryKey: adminKeys.users() }),
        },
      }),
    [qc],
  );
  const [snapshot, send] = useMachine(machine, { ...inspectOptions(), input: { sendInvitations: true } });
  const { file, sendInvitations, report, progress, error } = snapshot.context;
  const screen = SCREENS.find((tag) => snapshot.hasTag(tag)) ?? 'screen:import.pick';
  const busy = snapshot.hasTag('busy');
  // each step replaces the one before inside the dialog: focus moves to the new step's first part (the results after
  // "Check file", the progress, the outcome) and it is announced from a live region inside the dialog
  const containerRef = useRef<HTMLDivElement>(null);
  const { liveRegion } = useSwapFocus(screen, { container: containerRef, selector: 'input[type=file]', announce: report && screen === 'screen:import.report' ? checkSummary(report) : undefined });

  function checkSummary(checked: Report): string {
    const skipped = checked.skipped_count ?? checked.skipped.length;
    const failed = checked.failed_count ?? checked.failed.length;
    const rows = checked.total;
    const ready = rows - skipped - failed;
    return t`File checked. Rows: ${rows}. Ready to import: ${ready}. Skipped: ${skipped}. With errors: ${failed}.`;
  }

  const picker = (
    <FilePicker
      fileName={file?.name ?? null}
      size={file?.size ?? 0}
      disabled={busy}
      error={screen === 'screen:import.pick' && error ? importErrorLines(i18n, error) : null}
      onFile={(f) => send({ type: 'FILE_CHOSEN', file: f })}
      invitations={<Switch label={t`Send invitation e-mails to new users`} checked={sendInvitations} disabled={busy} onCheckedChange={(d) => send({ type: 'INVITATIONS_TOGGLED', send: d.checked })} />}
    />
  );
  const close = (
    <Button variant="outline" onClick={() => send({ type: 'CLOSE' })}>
      <Trans>Cancel</Trans>
    </Button>
  );

  let body: ReactNode = null;
  let footer: ReactNode = null;
  switch (screen) {
    case 'screen:import.pick':
      body = picker;
      footer = (
        <>
          {close}
          <Button onClick={() => send({ type: 'CHECK' })} disabled={!file || busy} aria-busy={busy || undefined}>
            <Trans>Check file</Trans>
          </Button>
        </>
      );
      break;
    case 'screen:import.checking':
      body = (
        <div {...swapFocusTarget} className={focusTargetClass}>
          <Progress label={t`Checking the file…`} progress={progress} />
        </div>
      );
      footer = close;
      break;
    case 'screen:import.report':
      body = (
        <>
          {picker}
          {report ? (
            <div {...swapFocusTarget} className={focusTargetClass}>
              <ImportReportView report={report} dryRun />
            </div>
          ) : null}
        </>
      );
      footer = (
        <>
          {close}
          <Button onClick={() => send({ type: 'RUN' })} disabled={!snapshot.can({ type: 'RUN' })}>
            <Trans>Import users</Trans>
          </Button>
        </>
      );
      break;
    case 'screen:import.running':
      body = (
        <>
          <div {...swapFocusTarget} className={focusTargetClass}>
            <Progress label={t`Importing users…`} progress={progress} />
          </div>
          {error ? (
            <p role="alert" className={alertStyle}>
              {t`The import could not be cancelled: ${adminErrorText(i18n, error)}`}
            </p>
          ) : null}
        </>
      );
      footer = (
        <Button variant="outline" onClick={() => send({ type: 'CANCEL' })} disabled={busy || !snapshot.can({ type: 'CANCEL' })} aria-busy={busy || undefined}>
          <Trans>Cancel import</Trans>
        </Button>
      );
      break;
    case 'screen:import.done':
      body = (
        <>
          <p role="status" className={cx(statusStyle(true), focusTargetClass)} {...swapFocusTarget}>
            <Trans>Users imported</Trans>
          </p>
          {report ? <ImportReportView report={report} /> : null}
        </>
      );
      footer = (
        <Button onClick={() => send({ type: 'CLOSE' })}>
          <Trans>Done</Trans>
        </Button>
      );
      break;
    case 'screen:import.failed':
      body = (
        <>
          <div role="alert" className={cx(alertStyle, focusTargetClass)} {...swapFocusTarget}>
            <Trans>Users import failed</Trans>:{' '}
            <ProblemList items={error ? importErrorLines(i18n, error) : [errorCodeMessage(i18n, 'unexpected')]} />
          </div>
          {progress && progress.created > 0 ? (
            <p className={css({ fontSize: 'sm' })}>
              <Plural value={progress.created} one="# user was created before it stopped." other="# users were created before it stopped." />
            </p>
          ) : null}
          {picker}
        </>
      );
      footer = (
        <>
          {close}
          {snapshot.can({ type: 'RETRY' }) ? (
            <Button onClick={() => send({ type: 'RETRY' })}>
              <Trans>Try again</Trans>
            </Button>
          ) : null}
        </>
      );
      break;
    case 'screen:import.cancelled':
      body = (
        <p role="status" className={cx(statusStyle(false), focusTargetClass)} {...swapFocusTarget}>
          <Plural value={progress?.created ?? 0} one="Import cancelled. # user was created before it stopped." other="Import cancelled. # users were created before it stopped." />
        </p>
      );
      footer = (
        <Button onClick={() => send({ type: 'CLOSE' })}>
          <Trans>Close</Trans>
        </Button>
      );
      break;
  }

  return (
    <div ref={containerRef} data-screen={screen} className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      {liveRegion}
      <Dialog.Title>
        <Trans>Import users</Trans>
      </Dialog.Title>
      <Dialog.Description>
        <Trans>Upload a CSV file with a header row: {COLUMN_LIST}. Check it first; nothing is saved until you import.</Trans>
      </Dialog.Description>
      <DialogClose />
      {body}
      <DialogFooter>{footer}</DialogFooter>
    </div>
  );
}

/** A step's first part takes focus when it appears: a ring while it has it (keyboard), none when clicked. */
const focusTargetClass = css({ outline: 'none', borderRadius: 'md', _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' } });
/**
 * Several problems one under the other (issue 29: they ran together in one line), the one style of every detail in
 * the import's messages and report.
 */
function ProblemList({ items }: { items: readonly string[] }) {
  const lines = items.map((item) => item.trim()).filter(Boolean);
  if (lines.length === 1) return <p className={css({ mt: '1' })}>{lines[0]}</p>;
  return (
    <ul className={css({ listStyleType: 'disc', ps: '5', mt: '1', display: 'flex', flexDirection: 'column', gap: '0.5' })}>
      {lines.map((line, index) => (
        <li key={index}>{line}</li>
      ))}
    </ul>
  );
}

const alertStyle = css({ fontSize: 'sm', color: 'fg.error', bg: 'danger.50', borderRadius: 'md', px: '3', py: '2' });
const statusStyle = (ok: boolean) => css({ fontSize: 'sm', fontWeight: 'medium', color: ok ? 'fg.success' : 'fg.default', bg: ok ? 'success.50' : 'bg.subtle', borderRadius: 'md', px: '3', py: '2' });

function FilePicker({ fileName, size, disabled, error, onFile, invitations }: { fileName: string | null; size: number; disabled: boolean; error: string[] | null; onFile: (file: File | null) => void; invitations: ReactNode }) {
  const { t } = useLingui();
  const fmt = useFormat();
  const inputId = useId();
  const errorId = useId();
  const fileId = useId();
  const nameId = useId();
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <label
        htmlFor={inputId}
        className={css({
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: '2',
          p: '6',
          borderWidth: '2px',
          borderStyle: 'dashed',
          borderColor: error ? 'fg.error' : 'border.strong',
          borderRadius: 'lg',
          bg: 'bg.subtle',
          cursor: 'pointer',
          textAlign: 'center',
          fontSize: 'sm',
          _focusWithin: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
          _hover: { borderColor: 'accent.default' },
        })}
      >
        <UploadIcon width={24} height={24} />
        <span id={nameId} className={css({ fontWeight: 'medium' })}>{fileName ?? <Trans>Choose a CSV file</Trans>}</span>
        <span id={fileId} className={css({ color: 'fg.muted', fontSize: 'xs' })}>{fileName ? fmt.fileSize(size) : t`.csv, UTF-8`}</span>
        <input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          data-testid="import-file"
          disabled={disabled}
          // its name says what it is for, also once a file is chosen (the file's name and size describe it)
          aria-label={fileName ? t`Choose another CSV file` : t`Choose a CSV file`}
          aria-invalid={error ? true : undefined}
          aria-describedby={[fileName ? `${nameId} ${fileId}` : null, error ? errorId : null].filter(Boolean).join(' ') || undefined}
          className={css({ srOnly: true })}
          onChange={(e) => {
            onFile(e.target.files?.[0] ?? null);
            e.target.value = '';
          }}
        />
      </label>
      {error ? (
        <div id={errorId} role="alert" className={alertStyle} data-testid="import-file-error">
          <Trans>Users import failed</Trans>:{' '}
          <ProblemList items={error} />
        </div>
      ) : null}
      {invitations}
    </div>
  );
}

/** A job's progress bar ("120 of 5 000"). */
function Progress({ label, progress }: { label: string; progress: ImportProgress | null }) {
  const { t } = useLingui();
  const fmt = useFormat();
  const labelId = useId();
  const processed = progress?.processed ?? 0;
  const total = progress?.total ?? 0;
  const percent = total > 0 ? Math.round((processed / total) * 100) : 0;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', fontSize: 'sm' })}>
        <span id={labelId}>{label}</span>
        <span className={css({ color: 'fg.muted' })} data-testid="import-progress">
          {t`${fmt.number(processed)} of ${fmt.number(total)}`}
        </span>
      </div>
      <div role="progressbar" aria-labelledby={labelId} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className={css({ height: '2', bg: 'bg.muted', borderRadius: 'full', overflow: 'hidden' })}>
        <div style={{ width: `${percent}%` }} className={css({ height: 'full', bg: 'accent.default', transition: 'width 300ms ease' })} />
      </div>
    </div>
  );
}

/** The file's columns as the contract lists them (the same in every language: they are the header's names). */
const COLUMN_LIST = IMPORT_COLUMN_NAMES.join(', ');

/** Why a row was skipped (contract/admin/import.ts IMPORT_SKIP_REASONS): a reason missing here fails tsc. */
const SKIP_REASONS: Record<ImportSkipReason, MessageDescriptor> = {
  email_taken: msg`already exists`,
  duplicate_in_file: msg`appears twice in the file`,
};

/** Summary and per-row problems of an import (or of its dry run). */
export function ImportReportView({ report, dryRun = false }: { report: Report; dryRun?: boolean }) {
  const { t, i18n } = useLingui();
  const fmt = useFormat();
  const skippedCount = report.skipped_count ?? report.skipped.length;
  const failedCount = report.failed_count ?? report.failed.length;
  const ready = report.total - skippedCount - failedCount;
  const problems = [
    ...report.skipped.map((s) => ({ row: s.row, email: s.email, kind: 'skipped' as const, text: [sentenceStart(i18n._(SKIP_REASONS[s.reason]), i18n.locale) ?? ''] })),
    ...report.failed.map((f) => ({
      row: f.row,
      email: f.email ?? '',
      kind: 'failed' as const,
      text: Object.entries(f.fields).flatMap(([field, codes]) => (codes[0] ? [fieldProblem(i18n, field, codes[0])] : [])),
    })),
  ].sort((a, b) => a.row - b.row);


  const stat = css({ display: 'flex', flexDirection: 'column', gap: '0.5', px: '4', py: '3', borderRadius: 'lg', bg: 'bg.subtle', minWidth: '0' });
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '3' })} data-testid="import-report">
      <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(120px, 1fr))', gap: '2' })}>
        <div className={stat}>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            <Trans>Rows</Trans>
          </span>
          <span className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>{fmt.number(report.total)}</span>
        </div>
        <div className={stat}>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            {dryRun ? <Plural value={ready} one="Ready to import" other="Ready to import" /> : <Plural value={report.created} one="Created" other="Created" />}
          </span>
          <span className={css({ fontSize: 'xl', fontWeight: 'semibold', color: 'fg.success' })}>{fmt.number(dryRun ? ready : report.created)}</span>
        </div>
        <div className={stat}>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            <Plural value={skippedCount} one="Skipped" other="Skipped" />
          </span>
          <span className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>{fmt.number(skippedCount)}</span>
        </div>
        <div className={stat}>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            <Trans>With errors</Trans>
          </span>
          <span className={css({ fontSize: 'xl', fontWeight: 'semibold', color: failedCount ? 'fg.error' : 'fg.default' })}>{fmt.number(failedCount)}</span>
        </div>
      </div>
      {report.encoding && report.encoding !== 'utf-8' ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })} data-testid="import-encoding">
          {t`The file was read as ${report.encoding}. If characters look wrong, save it as UTF-8 and import it again.`}
        </p>
      ) : null}
      {problems.length > 0 ? (
        <TableFrame label={t`Rows with problems`}>
          <Table.Root>
            <Table.Caption>
              <Plural value={problems.length} one="# row with a problem" other="# rows with problems" />
            </Table.Caption>
            <Table.Head>
              <Table.Row>
                <Table.Header>
                  <Trans>Row</Trans>
                </Table.Header>
                <Table.Header>
                  <Trans>E-mail</Trans>
                </Table.Header>
                <Table.Header>
                  <Trans>Result</Trans>
                </Table.Header>
                <Table.Header>
                  <Trans>Details</Trans>
                </Table.Header>
              </Table.Row>
            </Table.Head>
            <Table.Body>
              {problems.map((p) => (
                <Table.Row key={`${p.kind}-${p.row}`} data-testid="import-problem">
                  <Table.Cell>{p.row}</Table.Cell>
                  <Table.Cell>{p.email || '—'}</Table.Cell>
                  {/* one row: the singular (French "Ignorée", not "Ignorées") */}
                  <Table.Cell>{p.kind === 'failed' ? <Trans>Error</Trans> : <Plural value={1} one="Skipped" other="Skipped" />}</Table.Cell>
                  <Table.Cell>
                    <ProblemList items={p.text} />
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </TableFrame>
      ) : (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          <Trans>No problems found.</Trans>
        </p>
      )}
    </div>
  );
}

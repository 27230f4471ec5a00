import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../../components/ui/button';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { UploadIcon } from '../../../components/ui/icons';
import { Switch } from '../../../components/ui/switch';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { fieldErrorMessage } from '../../../lib/field-errors';
import { adminKeys } from '../api/keys';
import type { ImportReport } from '../api/types';

/** What the report view shows of an import's report. */
type Report = Pick<ImportReport, 'total' | 'created' | 'skipped' | 'failed' | 'encoding'>;
import { importJobQueryOptions, postImport, type ImportResult } from '../api/users';
import { useErrorText, useNotify } from '../components/feedback';
import { useFormat } from '../components/format';

export function ImportUsersDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={(d) => onOpenChange(d.open)} lazyMount unmountOnExit closeOnInteractOutside={false}>
      <Dialog.Panel className={css({ maxWidth: '3xl' })}>
        <ImportUsers onClose={() => onOpenChange(false)} />
      </Dialog.Panel>
    </Dialog.Root>
  );
}

type Phase = { step: 'pick' } | { step: 'checked'; report: Report } | { step: 'running'; jobId: string } | { step: 'done'; report: Report; ok: boolean } | { step: 'failed'; reason: string };

function ImportUsers({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const notify = useNotify();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const inputId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [sendInvitations, setSendInvitations] = useState(true);
  const [phase, setPhase] = useState<Phase>({ step: 'pick' });

  const finish = (report: Report) => {
    const ok = report.failed.length === 0 || report.created > 0;
    setPhase({ step: 'done', report, ok });
    void qc.invalidateQueries({ queryKey: adminKeys.users() });
    if (ok) notify.success(t`Users imported`, t`${report.created} of ${report.total} created`);
    else notify.error(null, t`Users import failed`);
  };

  const check = useMutation({
    mutationFn: (f: File) => postImport({ file: f, dryRun: true, sendInvitations }),
    onSuccess: (result: ImportResult) => {
      if (result.kind === 'report') setPhase({ step: 'checked', report: result.report });
      else setPhase({ step: 'running', jobId: result.jobId });
    },
    onError: (error) => setPhase({ step: 'failed', reason: errorText(error) }),
  });
  const run = useMutation({
    mutationFn: (f: File) => postImport({ file: f, dryRun: false, sendInvitations }),
    onSuccess: (result: ImportResult) => {
      if (result.kind === 'report') finish(result.report);
      else setPhase({ step: 'running', jobId: result.jobId });
    },
    onError: (error) => {
      setPhase({ step: 'failed', reason: errorText(error) });
      notify.error(error, t`Users import failed`);
    },
  });

  const busy = check.isPending || run.isPending || phase.step === 'running';

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <Dialog.Title>
        <Trans>Import users</Trans>
      </Dialog.Title>
      <Dialog.Description>
        <Trans>
          Upload a CSV file with a header row: email, first_name, last_name, locale, auth_type, provider, technical, phone. Check it first; nothing is saved until you import.
        </Trans>
      </Dialog.Description>
      <DialogClose />

      {phase.step === 'pick' || phase.step === 'checked' || phase.step === 'failed' ? (
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
              borderColor: 'border.strong',
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
            <span className={css({ fontWeight: 'medium' })}>{file ? file.name : <Trans>Choose a CSV file</Trans>}</span>
            <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>{file ? t`${Math.max(1, Math.round(file.size / 1024))} KB` : t`.csv, UTF-8`}</span>
            <input
              ref={fileRef}
              id={inputId}
              type="file"
              accept=".csv,text/csv"
              data-testid="import-file"
              className={css({ srOnly: true })}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setPhase({ step: 'pick' });
              }}
            />
          </label>
          <Switch label={t`Send invitation e-mails to new users`} checked={sendInvitations} onCheckedChange={(d) => setSendInvitations(d.checked)} />
        </div>
      ) : null}

      {phase.step === 'failed' ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'fg.error', bg: 'danger.50', borderRadius: 'md', px: '3', py: '2' })}>
          <Trans>Users import failed</Trans>: {phase.reason}
        </p>
      ) : null}
      {phase.step === 'checked' ? <ImportReportView report={phase.report} dryRun /> : null}
      {phase.step === 'running' ? <ImportProgress jobId={phase.jobId} onFinished={finish} onFailed={(reason) => setPhase({ step: 'failed', reason })} /> : null}
      {phase.step === 'done' ? (
        <>
          <p role="status" className={css({ fontSize: 'sm', fontWeight: 'medium', color: phase.ok ? 'fg.success' : 'fg.error', bg: phase.ok ? 'success.50' : 'danger.50', borderRadius: 'md', px: '3', py: '2' })}>
            {phase.ok ? <Trans>Users imported</Trans> : <Trans>Users import failed</Trans>}
          </p>
          <ImportReportView report={phase.report} />
        </>
      ) : null}

      <DialogFooter>
        {phase.step === 'done' ? (
          <Button onClick={onClose}>
            <Trans>Done</Trans>
          </Button>
        ) : (
          <>
            <Button variant="outline" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            {phase.step === 'checked' ? (
              <Button onClick={() => file && run.mutate(file)} disabled={busy || phase.report.total - phase.report.skipped.length - phase.report.failed.length <= 0} aria-busy={run.isPending || undefined}>
                <Trans>Import users</Trans>
              </Button>
            ) : (
              <Button onClick={() => file && check.mutate(file)} disabled={!file || busy} aria-busy={check.isPending || undefined}>
                <Trans>Check file</Trans>
              </Button>
            )}
          </>
        )}
      </DialogFooter>
    </div>
  );
}

/** Polls the import job and shows a progress bar until it completes. */
function ImportProgress({ jobId, onFinished, onFailed }: { jobId: string; onFinished: (report: Report) => void; onFailed: (reason: string) => void }) {
  const { t } = useLingui();
  const fmt = useFormat();
  const errorText = useErrorText();
  const job = useQuery(importJobQueryOptions(jobId));
  const data = job.data;
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    if (job.isError) {
      done.current = true;
      onFailed(errorText(job.error));
    } else if (data?.status === 'failed') {
      done.current = true;
      onFailed(data.error?.message ?? errorText(null));
    } else if (data?.status === 'done') {
      done.current = true;
      onFinished(data.report ?? { total: data.total, created: data.created, skipped: [], failed: [] });
    }
  }, [data, job.isError, job.error, onFinished, onFailed, errorText]);
  const processed = data?.processed ?? 0;
  const total = data?.total ?? 0;
  const percent = total > 0 ? Math.round((processed / total) * 100) : 0;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', fontSize: 'sm' })}>
        <span id={`${jobId}-label`}>
          <Trans>Importing users…</Trans>
        </span>
        <span className={css({ color: 'fg.muted' })}>{t`${fmt.number(processed)} of ${fmt.number(total)}`}</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={`${jobId}-label`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className={css({ height: '2', bg: 'bg.muted', borderRadius: 'full', overflow: 'hidden' })}
      >
        <div style={{ width: `${percent}%` }} className={css({ height: 'full', bg: 'accent.default', transition: 'width 300ms ease' })} />
      </div>
    </div>
  );
}

/** Summary and per-row problems of an import (or of its dry run). */
export function ImportReportView({ report, dryRun = false }: { report: Report; dryRun?: boolean }) {
  const { t, i18n } = useLingui();
  const fmt = useFormat();
  const ready = report.total - report.skipped.length - report.failed.length;
  const problems = [
    ...report.skipped.map((s) => ({ row: s.row, email: s.email, kind: 'skipped' as const, text: skipReason(s.reason) })),
    ...report.failed.map((f) => ({
      row: f.row,
      email: '',
      kind: 'failed' as const,
      text: Object.entries(f.fields)
        .map(([field, codes]) => `${field}: ${fieldErrorMessage(i18n, codes[0], field) ?? ''}`)
        .join('; '),
    })),
  ].sort((a, b) => a.row - b.row);

  function skipReason(reason: string): string {
    if (reason === 'exists' || reason === 'email_taken' || reason === 'duplicate') return t`already exists`;
    if (reason === 'duplicate_in_file') return t`appears twice in the file`;
    return reason;
  }

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
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{dryRun ? <Trans>Ready to import</Trans> : <Trans>Created</Trans>}</span>
          <span className={css({ fontSize: 'xl', fontWeight: 'semibold', color: 'fg.success' })}>{fmt.number(dryRun ? ready : report.created)}</span>
        </div>
        <div className={stat}>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            <Trans>Skipped</Trans>
          </span>
          <span className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>{fmt.number(report.skipped.length)}</span>
        </div>
        <div className={stat}>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            <Trans>With errors</Trans>
          </span>
          <span className={css({ fontSize: 'xl', fontWeight: 'semibold', color: report.failed.length ? 'fg.error' : 'fg.default' })}>{fmt.number(report.failed.length)}</span>
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
                  <Table.Cell>{p.kind === 'failed' ? <Trans>Error</Trans> : <Trans>Skipped</Trans>}</Table.Cell>
                  <Table.Cell>{p.text}</Table.Cell>
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

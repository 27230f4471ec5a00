import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import { loggedErrorText, useErrorText } from '../components/feedback';
import { PageHeading } from '../../../components/page-heading';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { DateField } from '../../../components/ui/date-field-lazy';
import * as Table from '../../../components/ui/table';
import { TextField } from '../../../components/ui/text-field';
import { SimpleSelect } from '../../../components/ui/simple-select-lazy';
import { lazyWithPlaceholder } from '../../../components/ui/lazy-with-placeholder';
import { Toolbar } from '../../../components/ui/toolbar';
import { LOGGED_ERROR_CODES } from '../../../../contract/admin/log-codes';
import { activitiesQueryOptions, dailySignInsQueryOptions, errorLogsQueryOptions } from '../api/logs';
import { useFormat } from '../components/format';
import { useSearchParams } from '../components/use-search-params';
import { ClearFiltersButton } from '../components/clear-filters-button';
import { QueryTable } from '../components/query-rows';
import type { DailyCount } from '../api/types';
import { CHART_HEIGHT } from './chart-size';
import { useErrorCodeWords } from './error-code-words';
import { LogPagination } from './log-pagination';
import { activityFilters, errorFilters, type DashboardSearch } from './search';

export function Dashboard({ search, onSearchChange, showAudit = false }: { search: DashboardSearch; onSearchChange: (next: DashboardSearch) => void; /** the audit trail (super_admin) */ showAudit?: boolean }) {
  const { t } = useLingui();
  const daily = useQuery(dailySignInsQueryOptions(30));
  const errorText = useErrorText();
  const ids = { chart: useId(), act: useId(), err: useId(), audit: useId() };
  // both cards' filters live in one URL: every change starts from the params asked for last (use-search-params.ts)
  const params = useSearchParams(search, onSearchChange);
  const update = (patch: Partial<DashboardSearch>) => params.change({ ...params.latest(), ...patch });
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <PageHeading>
        <Trans>Dashboard</Trans>
      </PageHeading>
      <Card title={t`Sign-ins per day`} titleId={ids.chart} description={t`Successful sign-ins over the last 30 days (UTC).`}>
        {daily.isPending ? (
          <ChartPlaceholder />
        ) : daily.isError ? (
          <p role="alert" className={css({ color: 'fg.error', fontSize: 'sm' })}>
            {errorText(daily.error)}
          </p>
        ) : (
          <SignInChart data={daily.data} />
        )}
      </Card>
      <ActivitiesCard search={search} update={update} titleId={ids.act} />
      <ErrorLogCard search={search} update={update} titleId={ids.err} />
      {showAudit ? <AuditCard search={search} update={update} titleId={ids.audit} /> : null}
    </div>
  );
}

/**
 * The sign-in chart is drawn after the first render (its SVG, table and axis code are not needed to show the page).
 * Until its data or its code is there, a placeholder of the chart's own box stands in: the two figures' lines at
 * their sizes, the plot at its height and the table toggle's line, so nothing below moves when the chart appears.
 */
/** The audit trail (super_admins only) loads with its first render, not with the route: managers never fetch its code. */
const AuditCard = lazyWithPlaceholder<{ search: DashboardSearch; update: (patch: Partial<DashboardSearch>) => void; titleId: string }>(
  () => import('./audit-card').then((m) => m.AuditCard),
  () => null,
);

const SignInChart = lazyWithPlaceholder<{ data: DailyCount[] }>(() => import('./sign-in-chart').then((m) => m.SignInChart), ChartPlaceholder);

function ChartPlaceholder() {
  const { t } = useLingui();
  const figure = (
    <div>
      <p className={css({ fontSize: 'xs' })}>&nbsp;</p>
      <p className={css({ fontSize: '2xl', fontWeight: 'semibold' })}>&nbsp;</p>
    </div>
  );
  return (
    <div aria-busy="true" data-testid="signin-chart-placeholder" className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
      <span className={css({ srOnly: true })}>{t`Loading…`}</span>
      <div aria-hidden="true" className={css({ display: 'flex', gap: '6', flexWrap: 'wrap', animation: 'pulse 1.4s ease-in-out infinite', '& p': { bg: 'bg.subtle', borderRadius: 'sm', minWidth: '32' } })}>
        {figure}
        {figure}
      </div>
      <div aria-hidden="true" style={{ height: CHART_HEIGHT }} className={css({ bg: 'bg.subtle', borderRadius: 'lg', animation: 'pulse 1.4s ease-in-out infinite' })} />
      <p aria-hidden="true" className={css({ fontSize: 'sm' })}>
        &nbsp;
      </p>
    </div>
  );
}

function DebouncedField({ label, value, onChange, placeholder }: { label: string; value: string; onChange: (v: string) => void; placeholder?: string }) {
  const [draft, setDraft] = useState(value);
  const [prev, setPrev] = useState(value);
  const latest = useRef(onChange);
  latest.current = onChange;
  if (prev !== value) {
    setPrev(value);
    setDraft(value);
  }
  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => latest.current(draft), 400);
    return () => clearTimeout(timer);
  }, [draft, value]);
  return <TextField label={label} size="sm" value={draft} placeholder={placeholder} onChange={(e) => setDraft(e.target.value)} />;
}

interface CardProps {
  search: DashboardSearch;
  /** Changes some of the URL's params, on top of the ones asked for last. */
  update: (patch: Partial<DashboardSearch>) => void;
  titleId: string;
}

function ActivitiesCard({ search, update, titleId }: CardProps) {
  const { t } = useLingui();
  const fmt = useFormat();
  const filters = activityFilters(search);
  const q = useQuery(activitiesQueryOptions(filters));
  const set = (patch: Partial<DashboardSearch>) => update({ ...patch, a_page: undefined });
  const filtered = Boolean(filters.from || filters.to || filters.user);
  const rows = q.data?.data ?? [];
  const cols = 6;
  return (
    <Card title={t`User authentication activities`} titleId={titleId}>
      <Toolbar>
        <DateField label={t`From`} value={search.a_from} max={search.a_to} onChange={(v) => set({ a_from: v })} />
        <DateField label={t`To`} value={search.a_to} min={search.a_from} onChange={(v) => set({ a_to: v })} />
        <DebouncedField label={t`User e-mail`} value={search.a_user ?? ''} onChange={(v) => set({ a_user: v || undefined })} placeholder="name@example.com" />
        {filtered ? (
          <ClearFiltersButton size="sm" onClick={() => update({ a_from: undefined, a_to: undefined, a_user: undefined, a_page: undefined })} />
        ) : null}
      </Toolbar>
      <QueryTable
        label={t`Table of user authentication activities`}
        query={q}
        items={rows}
        columns={cols}
        empty={filtered ? <Trans>No results for given search</Trans> : <Trans>No sign-ins yet</Trans>}
        headers={
          <>
            <Table.Header>{t`User`}</Table.Header>
            <Table.Header>{t`Logged in at`}</Table.Header>
            <Table.Header>{t`Logged out at`}</Table.Header>
            <Table.Header>{t`IP address`}</Table.Header>
            <Table.Header>{t`Origin`}</Table.Header>
            <Table.Header>{t`Application`}</Table.Header>
          </>
        }
      >
        {(a) => (
          <Table.Row key={a.id}>
            <Table.Cell>
              {a.email ?? '—'}
              {a.type === 'admin' ? (
                <span className={css({ ms: '2' })}>
                  <Badge tone="info">{t`Admin`}</Badge>
                </span>
              ) : null}
            </Table.Cell>
            <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.dateTime(a.logged_in_at)}</Table.Cell>
            <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.dateTime(a.logged_out_at)}</Table.Cell>
            <Table.Cell className={css({ fontFamily: 'mono', fontSize: 'xs' })}>{a.ip_address ?? '—'}</Table.Cell>
            <Table.Cell className={css({ fontSize: 'xs' })}>
              {/* an origin is read as one token: never broken inside (it used to wrap mid-port) */}
              <span title={a.origin ?? undefined} className={css({ display: 'inline-block', maxWidth: 'full', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' })} data-testid="activity-origin">
                {a.origin ?? '—'}
              </span>
              {a.provider ? (
                <span className={css({ display: 'block', mt: '1' })}>
                  <Badge tone="info">{t`Single sign-on · ${a.provider.name}`}</Badge>
                </span>
              ) : null}
            </Table.Cell>
            <Table.Cell className={css({ fontFamily: 'mono', fontSize: 'xs' })}>{a.client_id ?? '—'}</Table.Cell>
          </Table.Row>
        )}
      </QueryTable>
      <LogPagination meta={q.data?.meta} onPage={(a_page) => update({ a_page })} onSize={(a_size) => update({ a_size, a_page: undefined })} />
    </Card>
  );
}

const ALL_CODES = 'all';

function ErrorLogCard({ search, update, titleId }: CardProps) {
  const { t, i18n } = useLingui();
  const fmt = useFormat();
  const words = useErrorCodeWords();
  const filters = errorFilters(search);
  const q = useQuery(errorLogsQueryOptions(filters));
  const set = (patch: Partial<DashboardSearch>) => update({ ...patch, e_page: undefined });
  const filtered = Boolean(filters.from || filters.to || filters.user || filters.code);
  const rows = q.data?.data ?? [];
  const cols = 5;
  return (
    <Card title={t`Admin logs`} titleId={titleId} description={t`Every server error and a sample of the client errors (4xx) the API and the sign-in provider (/oidc) answered, newest first.`}>
      <Toolbar>
        <DateField label={t`From`} value={search.e_from} max={search.e_to} onChange={(v) => set({ e_from: v })} />
        <DateField label={t`To`} value={search.e_to} min={search.e_from} onChange={(v) => set({ e_to: v })} />
        <SimpleSelect
          label={t`Error code`}
          size="sm"
          value={search.e_code ?? ALL_CODES}
          onValueChange={(v) => set({ e_code: v === ALL_CODES ? undefined : v })}
          // the codes in words once they are loaded (error-code-words.ts); the codes themselves for that moment
          options={[{ value: ALL_CODES, label: t`All error codes` }, ...(words ? words.errorCodeOptions(i18n, (code) => loggedErrorText(i18n, code)) : LOGGED_ERROR_CODES.map((code) => ({ value: code, label: code })))]}
        />
        <DebouncedField label={t`User e-mail`} value={search.e_user ?? ''} onChange={(v) => set({ e_user: v || undefined })} placeholder="name@example.com" />
        {filtered ? (
          <ClearFiltersButton size="sm" onClick={() => update({ e_from: undefined, e_to: undefined, e_code: undefined, e_user: undefined, e_page: undefined })} />
        ) : null}
      </Toolbar>
      <QueryTable
        label={t`Table of admin logs`}
        query={q}
        items={rows}
        columns={cols}
        empty={filtered ? <Trans>No results for given search</Trans> : <Trans>No errors logged</Trans>}
        headers={
          <>
            <Table.Header>{t`Error code`}</Table.Header>
            <Table.Header>{t`URL`}</Table.Header>
            <Table.Header>{t`Message`}</Table.Header>
            <Table.Header>{t`Timestamp`}</Table.Header>
            <Table.Header>{t`User e-mail`}</Table.Header>
          </>
        }
      >
        {(e) => (
          <Table.Row key={e.id}>
            <Table.Cell>
              <Badge tone={e.status >= 500 ? 'danger' : 'warning'}>
                {e.status} · {e.error_code}
              </Badge>
            </Table.Cell>
            {/* one line: a URL broken mid-word reads as two paths; the full value in the title (and to screen readers) */}
            <Table.Cell className={css({ fontFamily: 'mono', fontSize: 'xs', minWidth: '48', maxWidth: '80' })}>
              <span title={`${e.method} ${e.url}`} className={css({ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>
                {e.method} {e.url}
              </span>
            </Table.Cell>
            <Table.Cell className={css({ minWidth: '48' })}>
              <LoggedMessage code={e.error_code} message={e.message} words={words} />
            </Table.Cell>
            <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.dateTime(e.created_at)}</Table.Cell>
            <Table.Cell>{e.user_email ?? '—'}</Table.Cell>
          </Table.Row>
        )}
      </QueryTable>
      <LogPagination meta={q.data?.meta} onPage={(e_page) => update({ e_page })} onSize={(e_size) => update({ e_size, e_page: undefined })} />
    </Card>
  );
}

/**
 * A logged error's message in the admin's words, by its code: the product's sentence for the code, else the code's
 * words (the provider's OAuth codes; they load with the first log shown), else the code itself. The message the
 * server recorded is English stored data (issue 29: it read as a second, untranslated line under the translated
 * one): it is kept out of what the page shows, a tooltip included (the screens matrix reads titles as text too), and
 * only carried as `data-recorded-message` for support (devtools, the API's /api/admin/logs/errors).
 */
function LoggedMessage({ code, message, words }: { code: string; message: string; words: ReturnType<typeof useErrorCodeWords> }) {
  const { i18n } = useLingui();
  const localized = loggedErrorText(i18n, code) ?? words?.providerCodeLabel(i18n, code) ?? null;
  const recorded = message && message !== localized ? message : undefined;
  if (localized === null) {
    return (
      <span data-recorded-message={recorded} translate="no" className={css({ fontFamily: 'mono', fontSize: 'xs' })}>
        {code}
      </span>
    );
  }
  return <span data-recorded-message={recorded}>{localized}</span>;
}

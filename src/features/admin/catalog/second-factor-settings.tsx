/**
 * /admin/settings (super_admin, issue 33): who must sign in with a second factor or a passkey — every admin, and the
 * users holding a role (GET/PUT /api/admin/settings/second-factor, audited `settings.second_factor`). Its words are
 * in the catalog area of the super_admin's catalog pages (admin-catalog, src/lib/catalog-areas.ts): the policy is
 * set per role, next to the roles page, and a catalog of its own would add its loaders to every page's entry chunk.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import type { SecondFactorPolicy, SecondFactorRequirement } from '../../../../contract/passkeys';
import { isApiError } from '../../../api/errors';
import { PageHeading } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyRow } from '../../../components/ui/empty-row';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { rolesQueryOptions } from '../api/catalog';
import { secondFactorPolicyQueryOptions, useUpdateSecondFactorPolicy } from '../api/passkeys';
import type { Role } from '../api/types';
import { useErrorText } from '../components/feedback';
import { useFormat } from '../components/format';
import { useNotify } from '../components/notify';

/**
 * The contract's requirements (contract/passkeys.ts SECOND_FACTOR_REQUIREMENTS), weakest first, written out here:
 * that module builds its zod schemas on import. `AllListed` fails tsc when the contract gains one not listed here.
 */
export const REQUIREMENTS = ['none', 'second_factor', 'passkey'] as const satisfies readonly SecondFactorRequirement[];
type AllListed = Exclude<SecondFactorRequirement, (typeof REQUIREMENTS)[number]> extends never ? true : never;
const allListed: AllListed = true;
void allListed;

const LABELS = { none: msg`Not required`, second_factor: msg`Any second factor`, passkey: msg`Passkey` } as const;
const HINTS = {
  none: msg`The password alone is enough; a second factor stays optional.`,
  second_factor: msg`A passkey, an authenticator app or SMS.`,
  passkey: msg`A passkey: a security key, or a passkey on a phone or computer.`,
} as const;

const requirement = z.enum(REQUIREMENTS, { error: 'required' });
export const settingsSchema = z.object({
  admins: requirement,
  roles: z.array(z.object({ role_id: z.string().min(1, { error: 'required' }), requirement })).max(500, { error: 'too_big:500' }),
});
export type SettingsValues = z.infer<typeof settingsSchema>;

/** The form's rows: every listed role with its requirement ('none' when the policy does not name it). */
export function formValues(policy: SecondFactorPolicy, roles: readonly Role[]): SettingsValues {
  const byRole = new Map(policy.roles.map((r) => [r.role_id, r.requirement]));
  return { admins: policy.admins, roles: roles.map((role) => ({ role_id: role.id, requirement: byRole.get(role.id) ?? 'none' })) };
}

/**
 * What is saved: the rows (the server drops 'none'), and, when the role list was cut at its page size, the policy's
 * entries for roles not shown, unchanged. With the whole list shown, an entry for a role no longer listed (deleted)
 * is dropped: sent, the server would refuse it (role_unknown).
 */
export function policyOf(values: SettingsValues, loaded: SecondFactorPolicy, rolesComplete: boolean): SecondFactorPolicy {
  const shown = new Set(values.roles.map((r) => r.role_id));
  const kept = rolesComplete ? [] : loaded.roles.filter((r) => !shown.has(r.role_id));
  return { admins: values.admins, roles: [...values.roles, ...kept] };
}

const radioCard = css({
  display: 'flex',
  alignItems: 'flex-start',
  gap: '2',
  px: '3',
  py: '2.5',
  borderWidth: '1px',
  borderColor: 'border.strong',
  bg: 'bg.surface',
  borderRadius: 'md',
  cursor: 'pointer',
  fontSize: 'sm',
  _focusWithin: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
  '&[data-checked]': { borderColor: 'accent.default', bg: 'accent.subtle' },
});
const radio = css({ mt: '0.5', accentColor: 'var(--colors-accent-default)', width: '4', height: '4', flexShrink: '0', cursor: 'pointer' });

export function SecondFactorSettings() {
  const { t } = useLingui();
  const errorText = useErrorText();
  const policy = useQuery(secondFactorPolicyQueryOptions());
  const roles = useQuery(rolesQueryOptions());
  const loading = policy.isPending || roles.isPending;
  const failed = policy.isError ? policy.error : roles.isError ? roles.error : null;
  return (
    <div>
      <PageHeading>
        <Trans>Settings</Trans>
      </PageHeading>
      {loading ? (
        <div aria-busy="true" className={css({ height: '64', bg: 'bg.muted', borderRadius: 'xl', animation: 'pulse 1.4s ease-in-out infinite' })}>
          <span className={css({ srOnly: true })}>{t`Loading…`}</span>
        </div>
      ) : failed || !policy.data || !roles.data ? (
        <p role="alert" className={css({ color: 'fg.error' })}>
          {errorText(failed)}
        </p>
      ) : (
        <SettingsForm policy={policy.data} roles={roles.data.data} rolesTotal={roles.data.meta.total} />
      )}
    </div>
  );
}

function SettingsForm({ policy, roles, rolesTotal }: { policy: SecondFactorPolicy; roles: Role[]; rolesTotal: number }) {
  const { t, i18n } = useLingui();
  const fmt = useFormat();
  const errorText = useErrorText();
  const notify = useNotify();
  const save = useUpdateSecondFactorPolicy();
  const ids = { card: useId(), admins: useId(), roles: useId(), warning: useId(), error: useId() };
  const defaults = useMemo(() => formValues(policy, roles), [policy, roles]);
  const { register, handleSubmit, setError, reset, control, formState } = useForm<SettingsValues>({ resolver: zodResolver(settingsSchema), defaultValues: defaults });
  const admins = useWatch({ control, name: 'admins' });
  const rolesComplete = roles.length >= rolesTotal;
  const listed = fmt.number(roles.length);
  const total = fmt.number(rolesTotal);

  const submit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(policyOf(values, policy, rolesComplete));
      reset(formValues(saved, roles));
      notify.success(t`Second-factor requirement saved`);
    } catch (error) {
      // a role deleted since the page loaded: the server names its row (roles.N.role_id: role_unknown)
      let placed = false;
      if (isApiError(error) && error.fields) {
        for (const [field, codes] of Object.entries(error.fields)) {
          const row = /^roles\.(\d+)\./.exec(field);
          const index = row ? Number(row[1]) : -1;
          if (index >= 0 && index < values.roles.length) {
            setError(`roles.${index}.requirement`, { type: 'server', message: codes[0] ?? 'invalid' }, { shouldFocus: !placed });
            placed = true;
          } else if (field === 'admins') {
            setError('admins', { type: 'server', message: codes[0] ?? 'invalid' }, { shouldFocus: !placed });
            placed = true;
          }
        }
      }
      setError('root', { type: 'server', message: placed ? t`Some rows could not be saved; see the marks below.` : errorText(error) });
    }
  });

  const rowError = (code: string | undefined): string | null => (code ? (code === 'role_unknown' ? t`This role no longer exists; reload the page.` : t`This requirement is invalid.`) : null);

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-describedby={ids.warning} className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <Card
        title={t`Second factor at sign-in`}
        titleId={ids.card}
        description={t`Who must confirm their sign-in with a second factor or a passkey. For users holding several roles the strictest requirement applies.`}
      >
        <p id={ids.warning} className={css({ fontSize: 'sm', color: 'warning.700', bg: 'warning.50', borderRadius: 'md', px: '3', py: '2' })}>
          <Trans>People who do not have what is required yet are walked through setting it up (for a passkey: enrolling one) at their next sign-in, before they get in.</Trans>
        </p>

        <fieldset aria-describedby={formState.errors.admins ? ids.error : undefined} className={css({ display: 'flex', flexDirection: 'column', gap: '2', border: '0', p: '0', m: '0' })}>
          <legend id={ids.admins} className={css({ fontWeight: 'semibold', mb: '2' })}>
            <Trans>All admins</Trans>
          </legend>
          {/* three side by side only where the content area is wide enough for the longest words (de at 768 px overflowed) */}
          <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', xl: 'repeat(3, minmax(0, 1fr))' }, gap: '2' })}>
            {REQUIREMENTS.map((value) => (
              <label key={value} className={radioCard} data-checked={admins === value ? '' : undefined}>
                <input type="radio" value={value} className={radio} {...register('admins')} />
                <span className={css({ display: 'flex', flexDirection: 'column', gap: '0.5', minWidth: '0', overflowWrap: 'break-word', hyphens: 'auto' })}>
                  <span className={css({ fontWeight: 'medium' })}>{i18n._(LABELS[value])}</span>
                  <span className={css({ color: 'fg.muted' })}>{i18n._(HINTS[value])}</span>
                </span>
              </label>
            ))}
          </div>
          {formState.errors.admins ? (
            <p id={ids.error} className={css({ fontSize: 'sm', color: 'fg.error' })}>
              {t`This requirement is invalid.`}
            </p>
          ) : null}
        </fieldset>

        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <h3 id={ids.roles} className={css({ fontWeight: 'semibold' })}>
            <Trans>Users by role</Trans>
          </h3>
          <TableFrame label={t`Requirement by role`}>
            <Table.Root>
              <Table.Head>
                <Table.Row>
                  <Table.Header>{t`Role`}</Table.Header>
                  {REQUIREMENTS.map((value) => (
                    <Table.Header key={value} id={`${ids.roles}-${value}`}>
                      {i18n._(LABELS[value])}
                    </Table.Header>
                  ))}
                </Table.Row>
              </Table.Head>
              <Table.Body>
                {roles.length === 0 ? (
                  <EmptyRow columns={REQUIREMENTS.length + 1}>
                    <Trans>There are no roles yet. Once roles exist, you can require a second factor from the users holding one.</Trans>
                  </EmptyRow>
                ) : (
                  roles.map((role, index) => {
                    const problem = rowError(formState.errors.roles?.[index]?.requirement?.message);
                    const rowId = `${ids.roles}-role-${index}`;
                    return (
                      <Table.Row key={role.id} data-role={role.name}>
                        <Table.Cell>
                          <span id={rowId} className={css({ fontFamily: 'mono', fontWeight: 'medium', wordBreak: 'break-word' })}>
                            {role.name}
                          </span>
                          {problem ? (
                            <span id={`${rowId}-error`} className={css({ display: 'block', fontSize: 'sm', color: 'fg.error' })}>
                              {problem}
                            </span>
                          ) : null}
                        </Table.Cell>
                        {REQUIREMENTS.map((value) => (
                          <Table.Cell key={value}>
                            {/* named by its row's role and its column's requirement: "APP_ADMIN Passkey" */}
                            <input
                              type="radio"
                              value={value}
                              aria-labelledby={`${rowId} ${ids.roles}-${value}`}
                              aria-invalid={problem ? true : undefined}
                              aria-describedby={problem ? `${rowId}-error` : undefined}
                              className={radio}
                              {...register(`roles.${index}.requirement`)}
                            />
                          </Table.Cell>
                        ))}
                      </Table.Row>
                    );
                  })
                )}
              </Table.Body>
            </Table.Root>
          </TableFrame>
          {rolesComplete ? null : (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
              <Trans>
                Only the first {listed} of {total} roles are listed; the requirements of the others are kept as they are.
              </Trans>
            </p>
          )}
        </div>

        {formState.errors.root?.message ? (
          <p role="alert" className={css({ fontSize: 'sm', color: 'fg.error', bg: 'danger.50', borderRadius: 'md', px: '3', py: '2' })}>
            {formState.errors.root.message}
          </p>
        ) : null}
        <div>
          <Button type="submit" disabled={formState.isSubmitting} aria-busy={formState.isSubmitting || undefined}>
            <Trans>Save</Trans>
          </Button>
        </div>
      </Card>
    </form>
  );
}

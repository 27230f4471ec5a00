import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { ROLE_NAME_RE } from '../../../../contract/domain/formats';
import { isApiError } from '../../../api/errors';
import * as Table from '../../../components/ui/table';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { upperSnakeField } from '../../../lib/upper-snake';
import { rolesQueryOptions, useRoleMutations } from '../api/catalog';
import type { Role } from '../api/types';
import { useErrorText } from '../components/feedback';
import { FormField } from '../components/form';
import { useFormat } from '../components/format';
import { CatalogForm, CatalogPage, markNameTaken, useCatalogSave } from './catalog-page';

export function RolesPage() {
  const { t } = useLingui();
  const fmt = useFormat();
  const errorText = useErrorText();
  const roles = useQuery(rolesQueryOptions());
  const { remove } = useRoleMutations();
  return (
    <CatalogPage<Role>
      title={t`Roles`}
      createLabel={t`Create role`}
      query={roles}
      rowTestId="role-row"
      empty={<Trans>No roles yet. Create the first one.</Trans>}
      nameOf={(role) => role.name}
      columns={[
        { header: t`Name`, cell: (role) => <Table.Cell className={css({ fontFamily: 'mono', fontWeight: 'medium', whiteSpace: 'nowrap' })}>{role.name}</Table.Cell> },
        { header: t`Description`, cell: (role) => <Table.Cell className={css({ color: role.description ? 'fg.default' : 'fg.subtle' })}>{role.description || '—'}</Table.Cell> },
        { header: t`Updated`, cell: (role) => <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.date(role.updated_at)}</Table.Cell> },
      ]}
      form={(role, close) => <RoleForm role={role} onDone={close} />}
      remove={remove}
      confirmDelete={{ title: t`Delete role`, description: (role) => t`Are you sure you want to delete the role ${role.name}?`, deleted: t`Role deleted` }}
      // a role still in use: the server names where, shown in the confirmation
      deleteRefusal={(error) => (isApiError(error) && error.status === 409 ? (error.code === 'role_in_use' && error.message ? error.message : errorText(error)) : null)}
    />
  );
}

const schema = z.object({
  name: z.string().trim().min(1, { error: 'required' }).max(64, { error: 'too_long:64' }).regex(ROLE_NAME_RE, { error: 'invalid' }),
  description: z.string().trim().max(500, { error: 'too_long:500' }),
});
type Values = z.infer<typeof schema>;

function RoleForm({ role, onDone }: { role: Role | null; onDone: () => void }) {
  const { t } = useLingui();
  const save = useCatalogSave();
  const { create, update } = useRoleMutations();
  const { register, handleSubmit, setError, formState } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: role?.name ?? '', description: role?.description ?? '' } });
  const submit = handleSubmit((values) =>
    save(role ? update.mutateAsync({ id: role.id, input: values }) : create.mutateAsync(values), {
      success: role ? t`Role updated` : t`Role created`,
      nameOf: (saved) => saved.name,
      onDone,
      onError: (error) => {
        markNameTaken(error, setError);
        return applyServerFieldErrors(error, setError, ['name', 'description']);
      },
    }),
  );
  return (
    <CatalogForm editing={role !== null} createLabel={t`Create role`} updateTitle={t`Update role`} onSubmit={(e) => void submit(e)} onCancel={onDone} submitting={formState.isSubmitting}>
      <FormField
        label={t`Name`}
        required
        error={formState.errors.name}
        helperText={t`Capital letters and digits in two or more parts joined by underscores, e.g. APP_ADMIN. What you type is converted: "content editor" becomes CONTENT_EDITOR.`}
        invalidText={t`Use capital letters and digits in two or more parts joined by underscores, e.g. APP_ADMIN or CONTENT_EDITOR`}
        autoComplete="off"
        spellCheck={false}
        {...upperSnakeField(register('name'))}
      />
      <FormField label={t`Description`} error={formState.errors.description} {...register('description')} />
    </CatalogForm>
  );
}

import { useLingui } from '@lingui/react/macro';
import type { AccountState } from '../../../../contract/common';
import { Badge } from '../../../components/ui/badge';

/** One badge for an account's state (contract/common.ts accountStateOf): Invited, Active or Inactive. */
export function StateBadge({ state }: { state: AccountState }) {
  const { t } = useLingui();
  if (state === 'INVITED') return <Badge tone="warning">{t`Invited`}</Badge>;
  if (state === 'ACTIVE') return <Badge tone="success">{t`Active`}</Badge>;
  return <Badge tone="neutral">{t`Inactive`}</Badge>;
}

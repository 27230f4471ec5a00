import { Trans } from '@lingui/react/macro';
import { Button, type ButtonProps } from '../../../components/ui/button';
import { FilterXIcon } from '../../../components/ui/icons-more';

/** The console lists' "Clear filters": a quiet button with the crossed-out filter icon (the dashboard's logs, the user list and its filter sheet). */
export function ClearFiltersButton({ onClick, size }: { onClick: () => void; size?: ButtonProps['size'] }) {
  return (
    <Button variant="ghost" size={size} onClick={onClick}>
      <FilterXIcon />
      <Trans>Clear filters</Trans>
    </Button>
  );
}

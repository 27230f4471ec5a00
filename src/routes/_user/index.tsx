import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { PageHeading } from '../../components/page-heading';

export const Route = createFileRoute('/_user/')({
  staticData: { title: msg`Home` },
  component: HomePage,
});

function HomePage() {
  return (
    <PageHeading>
      <Trans>Home</Trans>
    </PageHeading>
  );
}

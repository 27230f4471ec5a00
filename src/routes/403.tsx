import { createFileRoute } from '@tanstack/react-router';
import { ForbiddenPage } from '../components/errors/not-found-page';

export const Route = createFileRoute('/403')({
  staticData: { title: '403' },
  component: ForbiddenPage,
});

import { createFileRoute, redirect } from '@tanstack/react-router';

/** A bare /admin goes to the admin home. */
export const Route = createFileRoute('/admin/')({
  beforeLoad: () => {
    throw redirect({ to: '/admin/dashboard', replace: true });
  },
});

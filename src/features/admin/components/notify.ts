import { toaster } from '../../../components/ui/toaster';
import { useErrorText } from './feedback';

// Apart from feedback.ts so that a page that shows errors but raises no toast (the dashboard) does not load the
// toast store (zag) with its first load.

/** Success and failure toasts for admin actions whose outcome is not shown where the action was taken. */
export function useNotify() {
  const text = useErrorText();
  return {
    success: (title: string, description?: string) => toaster.create({ type: 'success', title, description }),
    error: (error: unknown, title?: string) => {
      const message = text(error);
      return toaster.create({ type: 'error', title: title ?? message, description: title ? message : undefined });
    },
  };
}

import { z } from 'zod';

// The admin list's URL state, apart from the screen: the route validates it up front while the screen loads lazily.
export interface AdminSearch {
  page?: number | undefined;
  size?: number | undefined;
  search?: string | undefined;
}

export const adminSearchSchema = z.object({
  page: z.number().int().min(1).optional().catch(undefined),
  size: z.number().int().min(1).max(100).optional().catch(undefined),
  search: z.string().max(200).optional().catch(undefined),
});

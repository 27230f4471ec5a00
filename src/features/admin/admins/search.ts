import { intParam, searchValidator, stringParam } from '../../../lib/search-params';

// The admin list's URL state, apart from the screen: the route validates it up front while the screen loads lazily.
export interface AdminSearch {
  page?: number | undefined;
  size?: number | undefined;
  search?: string | undefined;
}

export const adminSearchSchema = searchValidator({
  page: intParam(1),
  size: intParam(1, 100),
  search: stringParam(200),
});

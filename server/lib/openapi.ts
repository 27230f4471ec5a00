export { errorBody } from '../../contract/errors';
import { errorBody } from '../../contract/errors';

/** `response` entries for the given error statuses, for route schemas. */
export function errorResponses(...statuses: number[]): Record<number, typeof errorBody> {
  return Object.fromEntries(statuses.map((s) => [s, errorBody]));
}

/**
 * Where a screen goes after saving: the `?then=` of its link when it is a path of
 * this app (the order page of a resubmission, PRODUCT.md 12.4), else `fallback`.
 * Only a path starting with a single "/" is followed, so a crafted link cannot send
 * the borrower to another site.
 */
import { useSearchParams } from 'react-router';

/** True for an in-app path: "/x", never "//host", "/\host" or "https://…". */
export function isAppPath(path: string | null): path is string {
  return !!path && path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');
}

export function useThen(fallback: string): string {
  const [params] = useSearchParams();
  const then = params.get('then');
  return isAppPath(then) ? then : fallback;
}

/**
 * Renders a query's loading and error states, and its children once the data
 * is there: one way for every screen to show "loading", "failed, retry" and the
 * content.
 */
import type { ReactNode } from 'react';
import { ErrorState, Loading } from './states';

export interface QueryLike<T> {
  data?: T;
  isLoading: boolean;
  isError: boolean;
  error?: unknown;
  refetch: () => unknown;
}

export function QueryGate<T>({ query, children }: { query: QueryLike<T>; children: (data: T) => ReactNode }) {
  if (query.isLoading) return <Loading />;
  if (query.isError || query.data === undefined) {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <>{children(query.data)}</>;
}

/**
 * Renders a query's loading and error states, and its children once the data
 * is there: one way for every screen to show "loading", "failed, retry" and the
 * content.
 */
import { useState, type ReactNode } from 'react';
import { ErrorState, Loading } from './states';

export interface QueryLike<T> {
  data?: T;
  isLoading: boolean;
  isFetching?: boolean;
  isError: boolean;
  error?: unknown;
  refetch: () => unknown;
}

export interface QueryGateProps<T> {
  query: QueryLike<T>;
  children: (data: T) => ReactNode;
  /**
   * Forms that copy the data into their own state wait for a fresh answer before
   * they first render (a cached copy may predate the last change); later
   * refetches leave the rendered form alone.
   */
  fresh?: boolean;
}

export function QueryGate<T>({ query, children, fresh }: QueryGateProps<T>) {
  const [settled, setSettled] = useState(!fresh);
  if (!settled && query.data !== undefined && !query.isFetching) setSettled(true);
  if (query.isLoading || (!settled && query.isFetching)) return <Loading />;
  if (query.isError || query.data === undefined) {
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <>{children(query.data)}</>;
}

/** A thin bar at the top of the screen while any request is in flight (PRODUCT.md 3). */
import { useAppSelector } from '@/app/hooks';

export function GlobalLoading() {
  const busy = useAppSelector((state) => {
    const pending = (entries: Record<string, { status?: string } | undefined>) =>
      Object.values(entries).some((entry) => entry?.status === 'pending');
    return pending(state.api.queries) || pending(state.api.mutations);
  });
  return busy ? <div className="global-loading" role="progressbar" aria-label="loading" /> : null;
}

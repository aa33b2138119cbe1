/** Routes that need a signed-in borrower send everyone else to `/login`. */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAppSelector } from '@/app/hooks';

export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useAppSelector((state) => state.session.token);
  const location = useLocation();
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

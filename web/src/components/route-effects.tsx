/**
 * Follows the session redirects that the base query asks for (401/20001/7 →
 * `/login`, 20003 → `/lock`, PRODUCT.md 9). (The `code` and `channel` parameters
 * are saved by the router itself, app/router.tsx.)
 */
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { redirected } from '@/lib/session';

export function RouteEffects() {
  const location = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const redirect = useAppSelector((state) => state.session.redirect);

  useEffect(() => {
    if (!redirect) return;
    dispatch(redirected());
    if (location.pathname !== redirect && !location.pathname.startsWith('/admin')) {
      navigate(redirect, { replace: true });
    }
  }, [redirect, dispatch, navigate, location.pathname]);

  return null;
}

/**
 * An image served by `GET /files/{key}`, which answers only the owner (and
 * auditors) and so needs the bearer token: a plain `<img src>` cannot send it.
 * Fetches the bytes with the token and shows them as an object URL.
 */
import { useEffect, useState, type ImgHTMLAttributes } from 'react';
import { useAppSelector } from '@/app/hooks';

export interface AuthImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> {
  /** A `/files/...` path (or any same-origin URL). */
  src: string | null | undefined;
  /** Overrides the borrower token (the auditor console passes its own). */
  token?: string | null;
}

export function AuthImage({ src, token, alt = '', ...rest }: AuthImageProps) {
  const borrowerToken = useAppSelector((state) => state.session.token);
  const bearer = token ?? borrowerToken;
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!src) return;
    let objectUrl: string | null = null;
    let live = true;
    setFailed(false);
    fetch(src, { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} })
      .then(async (res) => {
        const type = res.headers.get('content-type') ?? '';
        if (!res.ok || !type.startsWith('image/')) throw new Error(`image ${res.status}`);
        const blob = await res.blob();
        objectUrl = URL.createObjectURL(blob);
        if (live) setUrl(objectUrl);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [src, bearer]);

  if (!src || failed) return <span className="auth-image auth-image--missing" role="img" aria-label={alt} />;
  if (!url) return <span className="auth-image auth-image--loading" role="img" aria-label={alt} />;
  return <img src={url} alt={alt} {...rest} />;
}

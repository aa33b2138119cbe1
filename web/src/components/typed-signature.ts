/**
 * The signature pad's alternative for people who cannot draw (keyboard, switch or
 * screen-reader users; WCAG 2.1.1): the borrower types their full name and it is
 * set in a handwriting-style face on the same 800×300 white image the pad saves.
 */
import { SIGNATURE } from '@/config/constants';

/** Longest typed name kept (characters). */
export const TYPED_NAME_MAX = 60;

/** The typed name, trimmed and with runs of spaces collapsed; '' when empty. */
export function cleanTypedName(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, TYPED_NAME_MAX);
}

/** An 800×300 PNG data URL of `name` in black on white, sized to fit; null without a 2D context. */
export function typedSignaturePng(name: string): string | null {
  const canvas = document.createElement('canvas');
  canvas.width = SIGNATURE.width;
  canvas.height = SIGNATURE.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = SIGNATURE.color;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const face = (size: number) => `italic ${size}px "Segoe Script", "Brush Script MT", "Snell Roundhand", cursive, serif`;
  let size = 120;
  ctx.font = face(size);
  while (size > 24 && ctx.measureText(name).width > canvas.width - 80) {
    size -= 6;
    ctx.font = face(size);
  }
  ctx.fillText(name, canvas.width / 2, canvas.height / 2);
  return canvas.toDataURL('image/png');
}

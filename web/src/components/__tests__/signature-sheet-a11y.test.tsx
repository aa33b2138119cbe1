/**
 * The signature sheet for people who cannot draw (issue 15, WCAG 2.1.1, 4.1.2):
 * it is a dialog named by its title, the pad has a name, a typed full name
 * signs (an image of the name is confirmed), and Escape closes the sheet.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SignatureSheet } from '@/components/signature-sheet';
import { cleanTypedName } from '@/components/typed-signature';
import '@/lib/i18n';

describe('the signature sheet', () => {
  beforeEach(() => {
    // jsdom has no canvas: a 2D context that records the text drawn, and a fixed PNG.
    const drawn: string[] = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function () {
      return {
        fillRect: () => undefined,
        fillText: (text: string) => drawn.push(text),
        measureText: (text: string) => ({ width: text.length * 40 }),
        scale: () => undefined,
        clearRect: () => undefined,
        drawImage: () => undefined,
        beginPath: () => undefined,
        fill: () => undefined,
        arc: () => undefined,
        moveTo: () => undefined,
        lineTo: () => undefined,
        stroke: () => undefined,
        closePath: () => undefined,
      } as unknown as CanvasRenderingContext2D;
    } as never);
    vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockImplementation(() => `data:image/png;base64,${btoa(drawn.join('|'))}`);
  });
  afterEach(() => vi.restoreAllMocks());

  it('is a named dialog whose pad has a name; a typed name signs; Escape closes', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    render(<SignatureSheet visible onClose={onClose} onConfirm={onConfirm} />);
    const dialog = await screen.findByRole('dialog', { name: 'Your signature' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('img', { name: /Signature pad/ })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Or type your full name to sign' }), '  Kiko   Mendoza ');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    const png = onConfirm.mock.calls[0][0] as string;
    expect(png).toMatch(/^data:image\/png;base64,/);
    expect(atob(png.split(',')[1])).toContain('Kiko Mendoza');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('keeps the name field focused when it was tapped before the sheet moved focus in', async () => {
    const user = userEvent.setup();
    render(<SignatureSheet visible onClose={() => undefined} onConfirm={() => undefined} />);
    const field = await screen.findByRole('textbox', { name: 'Or type your full name to sign' });
    field.focus();
    // Past the moment the sheet focuses itself (50 ms after opening).
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(field).toHaveFocus();
    await user.keyboard('Kiko');
    expect(field).toHaveValue('Kiko');
  });

  it('keeps Tab inside the open sheet (WCAG 2.4.3)', async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">Behind the sheet</button>
        <SignatureSheet visible onClose={() => undefined} onConfirm={() => undefined} />
      </>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Your signature' });
    const inside = Array.from(dialog.querySelectorAll<HTMLElement>('button, input'));
    inside[inside.length - 1].focus();
    await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(inside[0]);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(inside[inside.length - 1]);
    for (let i = 0; i < inside.length + 2; i += 1) {
      await user.tab();
      expect(document.activeElement).not.toBe(screen.getByRole('button', { name: 'Behind the sheet', hidden: true }));
    }
  });

  it('without a drawing or a name, confirms nothing', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(<SignatureSheet visible onClose={() => undefined} onConfirm={onConfirm} />);
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('cleans the typed name', () => {
    expect(cleanTypedName('  Ana   de la  Cruz ')).toBe('Ana de la Cruz');
    expect(cleanTypedName('   ')).toBe('');
    expect(cleanTypedName('x'.repeat(100))).toHaveLength(60);
  });
});

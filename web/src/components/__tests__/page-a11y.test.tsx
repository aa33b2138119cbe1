/**
 * The frame of every borrower screen and the refusal dialog, for assistive
 * technology and the keyboard (issue 15, WCAG 2.1 AA): one h1 per screen, a
 * header, main and navigation landmark, a named back button, a tab bar of links
 * that says which page is current, and a dialog that is not hidden from screen
 * readers, takes the focus and closes with Escape.
 */
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { OverlayDialog } from '@/components/overlay-dialog';
import { Page } from '@/components/page';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';

describe('the page frame', () => {
  beforeEach(() => {
    server.use(answer('jackey/loan/getAllCompanyConfigs', {}), answer('jackey/loan/getCustomerService', null));
  });

  it('has one h1 (the title), a header, a main and a named tab navigation', async () => {
    const { router } = renderWithProviders(
      <Page title="Repayment schedule" back tabs>
        <p>content</p>
      </Page>,
      { route: '/my', others: { '/': <p>home</p> } },
    );
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Repayment schedule');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent('content');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(screen.getByRole('link', { name: 'My' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    expect(nav).toContainElement(screen.getByRole('link', { name: 'Home' }));
    // The tabs are links: Enter on a focused one navigates.
    const user = userEvent.setup();
    screen.getByRole('link', { name: 'Home' }).focus();
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/');
  });

  it('has a back button with a name that the keyboard reaches and presses', async () => {
    const user = userEvent.setup();
    const { router } = renderWithProviders(
      <Page title="Contract" back="/my">
        <p>content</p>
      </Page>,
      { route: '/contract', others: { '/my': <p>my page</p> } },
    );
    await user.tab();
    expect(screen.getByRole('button', { name: 'Back' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/my');
  });

  it('has no unnamed button when there is no back button', () => {
    renderWithProviders(
      <Page title="Home">
        <p>content</p>
      </Page>,
    );
    for (const button of screen.queryAllByRole('button')) expect(button).toHaveAccessibleName();
    expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
  });
});

function DialogHarness() {
  const [open, setOpen] = useState(false);
  return (
    <MemoryRouter>
      <button type="button" onClick={() => setOpen(true)}>
        open
      </button>
      <OverlayDialog visible={open} title="Application not approved" onClose={() => setOpen(false)}>
        <p>Income could not be verified</p>
        <button type="button" onClick={() => setOpen(false)}>
          OK
        </button>
      </OverlayDialog>
    </MemoryRouter>
  );
}

describe('the overlay dialog', () => {
  it('is a named dialog outside any aria-hidden layer; focus goes in, Escape closes and focus returns', async () => {
    const user = userEvent.setup();
    render(<DialogHarness />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    const dialog = screen.getByRole('dialog', { name: 'Application not approved' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog.closest('[aria-hidden="true"]')).toBeNull();
    expect(screen.getByRole('button', { name: 'OK' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'open' })).toHaveFocus();
  });
});

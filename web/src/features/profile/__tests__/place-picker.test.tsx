/**
 * The location picker (PRODUCT.md 11): region → province → city/municipality from
 * the server's PSGC tree, NCR without provinces, the stored "Region,Province,City"
 * form, and the full profile sending the chosen city.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Form from 'antd-mobile/es/components/form';
import { http, HttpResponse } from 'msw';
import { useState } from 'react';
import { ProfileForm } from '@/features/profile/profile-form';
import { PlacePicker } from '@/features/profile/place-picker';
import type { Region } from '@/lib/place';
import { userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { answer, server } from '@/testing/server';

const regions: Region[] = [
  { region: 'National Capital Region (NCR)', cities: ['City of Manila', 'Quezon City'] },
  {
    region: 'Region VII (Central Visayas)',
    provinces: [
      { province: 'Bohol', cities: ['City of Tagbilaran', 'Panglao'] },
      { province: 'Cebu', cities: ['City of Cebu', 'City of Mandaue'] },
    ],
  },
];

function Harness({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <Form>
      <PlacePicker regions={regions} value={value} onChange={setValue} />
      <output data-testid="stored">{value}</output>
    </Form>
  );
}

const select = (name: string) => screen.getByRole('combobox', { name });
const optionTexts = (name: string) =>
  Array.from(select(name).querySelectorAll('option'))
    .map((o) => o.textContent)
    .slice(1);

beforeEach(() => {
  server.use(answer('jackey/loan/getAllCompanyConfigs', {}), answer('jackey/loan/getCustomerService', null));
});

describe('place picker', () => {
  it('chooses a city under its region and province', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    expect(select('Province')).toBeDisabled();
    expect(select('City / municipality')).toBeDisabled();

    await user.selectOptions(select('Region'), 'Region VII (Central Visayas)');
    expect(optionTexts('Province')).toEqual(['Bohol', 'Cebu']);
    expect(select('City / municipality')).toBeDisabled();
    expect(screen.getByTestId('stored')).toHaveTextContent(/^$/);

    await user.selectOptions(select('Province'), 'Cebu');
    expect(optionTexts('City / municipality')).toEqual(['City of Cebu', 'City of Mandaue']);
    await user.selectOptions(select('City / municipality'), 'City of Mandaue');
    expect(screen.getByTestId('stored')).toHaveTextContent('Region VII (Central Visayas),Cebu,City of Mandaue');

    // Another province clears the city: nothing is stored until one is chosen again.
    await user.selectOptions(select('Province'), 'Bohol');
    expect(select('City / municipality')).toHaveValue('');
    expect(screen.getByTestId('stored')).toHaveTextContent(/^$/);
  });

  it('offers the cities of a region without provinces directly', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await user.selectOptions(select('Region'), 'National Capital Region (NCR)');
    expect(screen.queryByRole('combobox', { name: 'Province' })).not.toBeInTheDocument();
    expect(screen.getByTestId('no-province')).toHaveTextContent('No province');
    await user.selectOptions(select('City / municipality'), 'Quezon City');
    expect(screen.getByTestId('stored')).toHaveTextContent('National Capital Region (NCR),,Quezon City');
  });

  it('shows a stored place as chosen', () => {
    renderWithProviders(<Harness initial="Region VII (Central Visayas),Cebu,City of Cebu" />);
    expect(select('Region')).toHaveValue('Region VII (Central Visayas)');
    expect(select('Province')).toHaveValue('Cebu');
    expect(select('City / municipality')).toHaveValue('City of Cebu');
    expect(screen.queryByTestId('place-unlisted')).not.toBeInTheDocument();
  });

  it('shows a location saved in the old form and leaves the choice open', () => {
    renderWithProviders(<Harness initial="National Capital Region,Manila" />);
    expect(screen.getByTestId('place-unlisted')).toHaveTextContent('Manila, National Capital Region');
    expect(select('Region')).toHaveValue('');
  });
});

describe('full profile location', () => {
  it('sends the chosen city as "Region,Province,City"', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    server.use(
      http.post('http://localhost/jackey/loan/getConfigByKey', async ({ request }) => {
        const { key } = (await request.json()) as { key: string };
        const lists: Record<string, unknown> = {
          provinces: regions,
          marriage: ['Single', 'Married'],
          education: ['College'],
          banks: ['BDO Unibank', 'GCash'],
          eWallets: ['GCash'],
        };
        return HttpResponse.json({ code: 0, msg: 'ok', data: lists[key] ?? [] });
      }),
      http.post('http://localhost/jackey/user/update', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    const fixture = { ...userFixture(), provinceCity: 'Metro Manila,Quezon City' };
    renderWithProviders(<ProfileForm user={fixture} full next="/done" />, {
      route: '/baseInfo',
      preloadedState: { session: { token: 'tok', redirect: null } },
      others: { '/done': <p>done</p> },
    });
    await waitFor(() => expect(optionTexts('Region')).toHaveLength(2));
    expect(screen.getByTestId('place-unlisted')).toHaveTextContent('Quezon City, Metro Manila');

    await user.selectOptions(select('Region'), 'Region VII (Central Visayas)');
    await user.selectOptions(select('Province'), 'Cebu');
    await user.selectOptions(select('City / municipality'), 'City of Cebu');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(await screen.findByText('done')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ provinceCity: 'Region VII (Central Visayas),Cebu,City of Cebu' });
  });
});

/** Which customer-service links can be offered (issue 15): only ones that can open. */
import { contactDetails, isPublicHost, openableLink, reachableEmail } from '@/lib/service-link';
import { companyConfigFixture } from '@/testing/fixtures';

describe('the customer-service link', () => {
  it('opens a real https link on a public host', () => {
    expect(openableLink('https://help.honestlending.ph/chat')).toBe('https://help.honestlending.ph/chat');
    expect(openableLink(' https://m.me/honestlending ')).toBe('https://m.me/honestlending');
  });

  it('refuses the demo placeholder and other links that cannot open', () => {
    for (const link of [
      'https://honestlending.example/help', // RFC 2606 reserved name: the demo config
      'https://support.example.com/',
      'https://help.test',
      'https://intranet/help',
      'https://localhost:8080/help',
      'https://127.0.0.1/help',
      'http://honestlending.ph/help', // not https
      'javascript:alert(1)',
      'facebook.com/honestlending', // not absolute
      'https://user:secret@honestlending.ph/',
      '',
      null,
      undefined,
      42,
    ]) {
      expect(openableLink(link)).toBeNull();
    }
  });

  it('tells public host names from reserved ones', () => {
    expect(isPublicHost('honestlending.ph')).toBe(true);
    expect(isPublicHost('HONESTLENDING.EXAMPLE')).toBe(false);
    expect(isPublicHost('mail.example.org')).toBe(false);
    expect(isPublicHost('printer.local')).toBe(false);
  });

  it('links an e-mail address only when its domain can receive mail', () => {
    expect(reachableEmail('help@honestlending.ph')).toBe('help@honestlending.ph');
    expect(reachableEmail('help@honestlending.example')).toBeNull();
    expect(reachableEmail('not an address')).toBeNull();
  });
});

describe('the contact details from the company configuration', () => {
  const config = {
    'customer-service-phone': '+63 2 8000 0000',
    'customer-service-email': 'help@honestlending.ph',
    'customer-service-hours': 'Mon–Sat 08:00–20:00',
  };

  it('offers tel: and mailto: links in a real deployment', () => {
    expect(contactDetails(companyConfigFixture({ ...config, demo: false }))).toEqual({
      phone: '+63 2 8000 0000',
      phoneHref: 'tel:+63280000000',
      email: 'help@honestlending.ph',
      emailHref: 'mailto:help@honestlending.ph',
      hours: 'Mon–Sat 08:00–20:00',
      demo: false,
    });
  });

  it('shows the demo details as text, not links that reach no one', () => {
    const details = contactDetails(companyConfigFixture({ ...config, demo: true }));
    expect(details.phone).toBe('+63 2 8000 0000');
    expect(details.phoneHref).toBeNull();
    expect(details.emailHref).toBeNull();
    expect(details.demo).toBe(true);
  });

  it('is empty when nothing is configured', () => {
    expect(contactDetails(undefined)).toMatchObject({ phone: null, email: null, hours: null, demo: false });
  });
});

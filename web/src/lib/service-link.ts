/**
 * Which customer-service contacts can really be offered (issue 15): a link the
 * browser cannot open must not be shown as one. Pure, so it is tested without a
 * screen.
 *
 * A link opens a new window only when it is an absolute `https:` URL on a public
 * host name. Names reserved for documentation and tests never resolve (RFC 2606,
 * RFC 6761: `.example`, `.test`, `.invalid`, `.localhost`, `example.com|net|org`),
 * nor does a bare word or `.local`; the demo configuration uses them on purpose.
 */
import { companyText } from './company-text';
import type { CompanyConfig } from './api-types';

const RESERVED_SUFFIXES = ['.example', '.test', '.invalid', '.localhost', '.local'];
const RESERVED_DOMAINS = ['example.com', 'example.net', 'example.org'];

/** True when `host` (lower case, no port) is a public DNS name. */
export function isPublicHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!name.includes('.') || name === 'localhost') return false;
  if (/^[\d.]+$/.test(name) || name.startsWith('[')) return false; // IP literals: not a lender's help page
  if (RESERVED_SUFFIXES.some((suffix) => name.endsWith(suffix))) return false;
  return !RESERVED_DOMAINS.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** The customer-service link to open in a new window, or null when it cannot open. */
export function openableLink(link: unknown): string | null {
  if (typeof link !== 'string' || link.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return null;
  return isPublicHost(url.hostname) ? url.href : null;
}

/** An e-mail address whose domain can receive mail, else null. */
export function reachableEmail(email: unknown): string | null {
  if (typeof email !== 'string') return null;
  const match = /^[^\s@]+@([^\s@]+)$/.exec(email.trim());
  return match && isPublicHost(match[1]) ? email.trim() : null;
}

/** The lender's contact details from the company configuration, for the in-app dialog. */
export interface ContactDetails {
  /** Phone number as configured (`customer-service-phone`), shown as text. */
  phone: string | null;
  /** `tel:` URI of `phone`, or null in the demo (its numbers reach no one). */
  phoneHref: string | null;
  /** E-mail as configured (`customer-service-email`). */
  email: string | null;
  /** `mailto:` URI, only for a domain that can receive mail. */
  emailHref: string | null;
  /** Opening hours as configured (`customer-service-hours`), in `language` where given in several. */
  hours: string | null;
  /** True in the demo: the details are examples and reach no one. */
  demo: boolean;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

export function contactDetails(config: CompanyConfig | undefined, language = 'en'): ContactDetails {
  const demo = config?.demo === true;
  const phone = text(config?.['customer-service-phone']);
  const email = text(config?.['customer-service-email']);
  const mail = reachableEmail(email);
  return {
    phone,
    phoneHref: phone && !demo ? `tel:${phone.replace(/[^\d+]/g, '')}` : null,
    email,
    emailHref: mail && !demo ? `mailto:${mail}` : null,
    hours: text(companyText(config, 'customer-service-hours', language)),
    demo,
  };
}

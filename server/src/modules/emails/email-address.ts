/**
 * One e-mail address: validated and normalized (docs/emails.md), and what its parts tell —
 * a role address (info@, sales@), a free-mail or a disposable domain.
 *
 * - The domain is lower-cased and converted to ASCII (IDN labels as punycode) with
 *   node:url's `domainToASCII` (UTS #46, as browsers do), then checked as an RFC 5321 host
 *   name: labels of letters, digits and hyphens, at most 63 characters each, 253 in all, and
 *   a top-level label that is not all digits. IP literals (`[192.0.2.1]`) are refused: a
 *   list address is a mailbox at a domain.
 * - The local part is lower-cased: RFC 5321 §2.4 lets a mail server tell `Jane@` from `jane@`,
 *   but in practice none does, and people type the same mailbox both ways — kept as typed,
 *   `jane@Example.com` and `JANE@example.com` were two items of one list. At most 64 octets;
 *   the whole address (its ASCII form) at most 254 (RFC 5321 §4.5.3.1).
 * - The stored address (`email`) is the one canonical form: that local part, @, the domain in
 *   Unicode (`bücher.de`, not `xn--bcher-kva.de`), the form people read everywhere it shows;
 *   `ascii` beside it is what a mail server is given.
 * - The syntax (dot-atoms, quoted strings and their escapes, UTF-8 local parts of RFC 6532)
 *   is checked by the `email-addresses` package, an RFC 5322 parser, in its strict mode
 *   (no obsolete syntax).
 */
import { domainToASCII, domainToUnicode } from 'node:url';
import { createRequire } from 'node:module';
import addresses from 'email-addresses';

const require = createRequire(import.meta.url);
/**
 * Free-mail providers (gmail.com, yahoo.co.uk, …): the `free-email-domains` package's list as
 * published (its install script, which would download a newer one, is not run: package.json
 * allowScripts).
 */
const FREE_MAIL: ReadonlySet<string> = new Set(require('free-email-domains') as string[]);
/** Throw-away mail services: the `disposable-email-domains` package's exact domains … */
const DISPOSABLE: ReadonlySet<string> = new Set(require('disposable-email-domains') as string[]);
/** … and the domains whose every subdomain is one. */
const DISPOSABLE_WILDCARDS: readonly string[] = require('disposable-email-domains/wildcard.json') as string[];
/** Local parts naming a function rather than a person (info, sales, support, …): `role-based-email-addresses`. */
const ROLE_LOCAL_PARTS: ReadonlySet<string> = new Set((require('role-based-email-addresses') as string[]).map((part) => part.toLowerCase()));

export const LOCAL_PART_MAX_OCTETS = 64;
export const ADDRESS_MAX_LENGTH = 254;
const DOMAIN_MAX_LENGTH = 253;
const LABEL_MAX_LENGTH = 63;

/** Why a piece of text is no address, in words a user can act on. */
export const INVALID_REASONS = {
  noAt: 'An address needs an @ between its two parts.',
  noLocalPart: 'Nothing before the @.',
  noDomain: 'Nothing after the @.',
  manyAts: 'More than one @ outside quotes.',
  ipLiteral: 'An IP address instead of a domain.',
  badDomain: 'The part after the @ is not a valid domain name.',
  noTopLevel: 'The domain has no top-level part (such as .com).',
  domainTooLong: 'The domain is longer than 253 characters.',
  badLocalPart: 'The part before the @ is not valid (spaces, two dots in a row, a dot at its start or end, or characters that need quotes).',
  localTooLong: 'The part before the @ is longer than 64 characters.',
  tooLong: 'The address is longer than 254 characters.',
} as const;

export interface NormalizedAddress {
  /** The canonical form, stored and shown: the local part lower case, @, the domain lower case in Unicode. */
  email: string;
  /** The same with the domain in ASCII (IDN labels as punycode): what a mail server is given. */
  ascii: string;
  /** Lower case. */
  local: string;
  /** The local part as it was typed (organizations' and people's addresses may hold it so). */
  typedLocal: string;
  /** ASCII, lower case. */
  domain: string;
  /** The domain in Unicode when it differs from its ASCII form (an IDN), else null. */
  domainUnicode: string | null;
}

export type AddressResult = { ok: true; value: NormalizedAddress } | { ok: false; reason: string };

const fail = (reason: string): AddressResult => ({ ok: false, reason });

/**
 * Normalizes the domain part: ASCII lower case, or the reason it is no domain. Trailing dots
 * (a fully qualified name, "example.com.") are dropped.
 */
export function normalizeDomain(input: string): { ok: true; ascii: string; unicode: string | null } | { ok: false; reason: string } {
  const text = input.normalize('NFC').replace(/[.\u3002\uff0e\uff61]+$/u, '');
  if (text === '') return { ok: false, reason: INVALID_REASONS.noDomain };
  if (text.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(text)) return { ok: false, reason: INVALID_REASONS.ipLiteral };
  // Letters, digits, hyphens, dots and non-ASCII symbols (☃.net) only: domainToASCII would read
  // "example.com/path" as a URL's host.
  if (!/^(?:[\p{L}\p{M}\p{N}.\u3002\uff0e\uff61-]|(?![!-~])\p{S})+$/u.test(text)) return { ok: false, reason: INVALID_REASONS.badDomain };
  // domainToASCII applies UTS #46 (case folding, full-width dots, IDNA) and answers '' for what is no domain.
  const ascii = domainToASCII(text);
  if (ascii === '' || !/^[a-z0-9.-]+$/.test(ascii)) return { ok: false, reason: INVALID_REASONS.badDomain };
  if (ascii.length > DOMAIN_MAX_LENGTH) return { ok: false, reason: INVALID_REASONS.domainTooLong };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, reason: INVALID_REASONS.noTopLevel };
  for (const label of labels) {
    if (label === '' || label.length > LABEL_MAX_LENGTH || label.startsWith('-') || label.endsWith('-')) {
      return { ok: false, reason: INVALID_REASONS.badDomain };
    }
  }
  const top = labels[labels.length - 1]!;
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(top)) return { ok: false, reason: INVALID_REASONS.noTopLevel };
  const unicode = domainToUnicode(ascii);
  return { ok: true, ascii, unicode: unicode !== '' && unicode !== ascii ? unicode : null };
}

/** Validates and normalizes a local part and a domain as found apart (in pasted text). */
export function normalizeParts(localInput: string, domainInput: string): AddressResult {
  const local = localInput.normalize('NFC');
  if (local === '') return fail(INVALID_REASONS.noLocalPart);
  // A quoted local part is one quoted string; an unquoted one has no comments, spaces or
  // quotes (the grammar would take comments and spaces as folding white space and drop them).
  if (local.startsWith('"') ? !/^"(?:[^"\\]|\\.)*"$/.test(local) : /[\s()"<>[\]]/.test(local)) return fail(INVALID_REASONS.badLocalPart);
  const domain = normalizeDomain(domainInput);
  if (!domain.ok) return fail(domain.reason);
  if (Buffer.byteLength(local, 'utf8') > LOCAL_PART_MAX_OCTETS) return fail(INVALID_REASONS.localTooLong);
  const typed = `${local}@${domain.ascii}`;
  if (typed.length > ADDRESS_MAX_LENGTH) return fail(INVALID_REASONS.tooLong);
  // The RFC 5322 grammar decides the rest of the local part (the domain is a checked host name by now).
  const parsed = addresses.parseOneAddress({ input: typed, rfc6532: true, strict: true, rejectTLD: true });
  if (!parsed || parsed.type !== 'mailbox' || parsed.domain !== domain.ascii) return fail(INVALID_REASONS.badLocalPart);
  const lower = local.toLowerCase();
  return {
    ok: true,
    value: {
      email: `${lower}@${domain.unicode ?? domain.ascii}`,
      ascii: `${lower}@${domain.ascii}`,
      local: lower,
      typedLocal: local,
      domain: domain.ascii,
      domainUnicode: domain.unicode,
    },
  };
}

/**
 * Validates one address typed as a whole (a form, the public widget): surrounding spaces and a
 * `mailto:` prefix are dropped; the last @ outside quotes splits it.
 */
export function normalizeAddress(input: string): AddressResult {
  const text = input.trim().replace(/^mailto:/i, '');
  if (text === '') return fail(INVALID_REASONS.noLocalPart);
  const at = splitAt(text);
  if (at === 'many') return fail(INVALID_REASONS.manyAts);
  if (at === null) return fail(INVALID_REASONS.noAt);
  return normalizeParts(text.slice(0, at), text.slice(at + 1));
}

/**
 * The position of the @ separating local part and domain: after a quoted string that opens the
 * address, else the only @; null without one, 'many' for more than one outside quotes. A quote
 * that does not open the address is left to the local part's check.
 */
function splitAt(text: string): number | 'many' | null {
  let from = 0;
  if (text.startsWith('"')) {
    let index = 1;
    while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
    if (text[index + 1] === '@') from = index + 1;
  }
  const first = text.indexOf('@', from);
  if (first === -1) return from > 0 ? from : text.lastIndexOf('@') === -1 ? null : text.lastIndexOf('@');
  return text.indexOf('@', first + 1) === -1 ? first : 'many';
}

export interface DomainTraits {
  isFreeMail: boolean;
  isDisposable: boolean;
}

/**
 * What the lists say of a domain (ASCII, lower case). The free-mail list also holds throw-away
 * services (it answers "no company address"); a domain the disposable list names is disposable,
 * not free mail, so the two flags tell different things.
 */
export function domainTraits(domain: string): DomainTraits {
  const isDisposable = DISPOSABLE.has(domain) || DISPOSABLE_WILDCARDS.some((parent) => domain === parent || domain.endsWith(`.${parent}`));
  return { isFreeMail: !isDisposable && FREE_MAIL.has(domain), isDisposable };
}

/** Whether a local part names a role (info, sales+eu, no-reply) rather than a person. */
export function isRoleLocalPart(local: string): boolean {
  const bare = local.toLowerCase().replace(/^"|"$/g, '').split('+')[0]!;
  return ROLE_LOCAL_PARTS.has(bare);
}

/**
 * The forms an address may be stored in elsewhere (organizations' and people's emails): the
 * local part as typed or lower case, the domain ASCII or Unicode.
 */
export function addressVariants(address: NormalizedAddress): string[] {
  const domains = [address.domain, ...(address.domainUnicode ? [address.domainUnicode] : [])];
  const locals = [address.local, address.typedLocal];
  return [...new Set(locals.flatMap((local) => domains.map((domain) => `${local}@${domain}`)))];
}

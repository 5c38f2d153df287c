/**
 * Suggested organization fields from a fetched web page (SPEC: GET
 * assets/organizations/suggested_fields_from_url/?url=). Structured data wins
 * over meta tags, meta tags over visible markup. Pure: no I/O, never throws.
 */
import { Parser } from 'htmlparser2';

export interface OrganizationSuggestion {
  name: string | null;
  description: string | null;
  emails: string[];
  phones: string[];
  /** The page's canonical URL first, then sameAs and social profile links. */
  associated_urls: string[];
}

const MAX_DESCRIPTION = 2000;
const MAX_ITEMS = 20;

const SOCIAL_HOSTS = [
  'linkedin.com',
  'twitter.com',
  'x.com',
  'facebook.com',
  'instagram.com',
  'github.com',
  'youtube.com',
  'crunchbase.com',
  'wikipedia.org',
];

/** Share buttons, tracking pixels and embeds point at social hosts without naming the organization's profile. */
const NON_PROFILE_PATH = /^\/(sharer|share|sharing|shareArticle|intent|dialog|plugins|tr|embed|watch|home|search|hashtag|login|signup)(\/|\.php|$)/i;

const ORGANIZATION_TYPES = new Set([
  'Organization',
  'Corporation',
  'LocalBusiness',
  'NGO',
  'OnlineBusiness',
  'OnlineStore',
  'Airline',
  'Consortium',
  'EducationalOrganization',
  'CollegeOrUniversity',
  'School',
  'GovernmentOrganization',
  'LibrarySystem',
  'MedicalOrganization',
  'Hospital',
  'NewsMediaOrganization',
  'PerformingGroup',
  'MusicGroup',
  'PoliticalParty',
  'ResearchOrganization',
  'SportsOrganization',
  'SportsTeam',
  'WorkersUnion',
  'FundingScheme',
  'Project',
  'ResearchProject',
  'FundingAgency',
  'Restaurant',
  'Store',
  'BankOrCreditUnion',
  'Dentist',
  'Physician',
  'Attorney',
  'Hotel',
]);
/** LocalBusiness alone has well over a hundred subtypes; their names mostly share these endings. */
const ORGANIZATION_TYPE_SUFFIX = /(Organization|Business|Store|Service|Agency|Company)$/;

const GENERIC_TITLE_SEGMENTS = new Set([
  'home',
  'homepage',
  'home page',
  'welcome',
  'official site',
  'official website',
  'startseite',
  'accueil',
  'inicio',
]);
const TITLE_SEPARATOR = /\s+(?:\||-|–|—|·|•|::|»|«|:)\s+/;

type JsonObject = Record<string, unknown>;

interface PageData {
  title: string;
  meta: Map<string, string>;
  canonical: string | null;
  baseHref: string | null;
  jsonLd: string[];
  links: string[];
}

export function extractOrganizationSuggestion(html: string, pageUrl: string): OrganizationSuggestion {
  const page = scanHtml(html);
  const baseUrl = resolveUrl(page.baseHref, pageUrl) ?? pageUrl;
  const organization = pickOrganization(page.jsonLd.flatMap(parseJsonLd), pageUrl);

  const emails = new UniqueList<string>((email) => email);
  const phones = new UniqueList<string>(phoneKey);
  const urls = new UniqueList<string>((url) => url);

  if (organization) {
    for (const email of organizationValues(organization, 'email')) emails.add(cleanEmail(email));
    for (const phone of organizationValues(organization, 'telephone')) phones.add(cleanPhone(phone));
  }

  urls.add(
    resolveUrl(page.canonical, baseUrl) ?? resolveUrl(page.meta.get('og:url') ?? null, baseUrl) ?? resolveUrl(pageUrl, pageUrl),
  );
  for (const sameAs of organization ? strings(organization['sameAs']) : []) urls.add(resolveUrl(sameAs, baseUrl));

  for (const href of page.links) {
    const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
    if (scheme === 'mailto') {
      for (const email of mailtoAddresses(href)) emails.add(email);
    } else if (scheme === 'tel') {
      phones.add(telNumber(href));
    } else {
      const url = resolveUrl(href, baseUrl);
      if (url && isSocialProfile(url)) urls.add(url);
    }
  }

  return {
    name: suggestName(organization, page, pageUrl),
    description: truncate(
      firstText(organization && text(organization['description']), page.meta.get('description'), page.meta.get('og:description')),
      MAX_DESCRIPTION,
    ),
    emails: emails.items,
    phones: phones.items,
    associated_urls: urls.items,
  };
}

// ---------------------------------------------------------------------------
// HTML scanning

function scanHtml(html: string): PageData {
  const page: PageData = { title: '', meta: new Map(), canonical: null, baseHref: null, jsonLd: [], links: [] };
  let titleDepth = 0;
  let titleDone = false;
  let svgDepth = 0;
  let jsonLdText: string | null = null;

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        switch (name) {
          case 'svg':
            svgDepth++;
            break;
          case 'title':
            // An <svg><title> is an icon tooltip, not the page title.
            if (svgDepth === 0 && !titleDone) titleDepth++;
            break;
          case 'meta': {
            const key = (attributes['property'] ?? attributes['name'] ?? '').trim().toLowerCase();
            const content = attributes['content'];
            if (key && content !== undefined && !page.meta.has(key)) page.meta.set(key, content);
            break;
          }
          case 'link': {
            const rel = (attributes['rel'] ?? '').toLowerCase().split(/\s+/);
            if (rel.includes('canonical') && attributes['href'] && page.canonical === null) page.canonical = attributes['href'];
            break;
          }
          case 'base':
            if (attributes['href'] && page.baseHref === null) page.baseHref = attributes['href'];
            break;
          case 'script':
            if ((attributes['type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/ld+json') jsonLdText = '';
            break;
          case 'a':
          case 'area':
            if (attributes['href']) page.links.push(attributes['href']);
            break;
        }
      },
      ontext(data) {
        if (jsonLdText !== null) jsonLdText += data;
        else if (titleDepth > 0) page.title += data;
      },
      onclosetag(name) {
        if (name === 'svg' && svgDepth > 0) svgDepth--;
        else if (name === 'title' && titleDepth > 0) {
          titleDepth--;
          titleDone = true;
        } else if (name === 'script' && jsonLdText !== null) {
          page.jsonLd.push(jsonLdText);
          jsonLdText = null;
        }
      },
    },
    { decodeEntities: true },
  );
  try {
    parser.end(html);
  } catch {
    // htmlparser2 recovers from malformed markup by itself; whatever was scanned before an internal error is still useful.
  }
  return page;
}

// ---------------------------------------------------------------------------
// JSON-LD

function parseJsonLd(raw: string): JsonObject[] {
  // Pages wrap JSON-LD in comment or CDATA markers and leave raw newlines inside strings; JSON allows neither.
  const cleaned = raw
    .trim()
    .replace(/^(?:<!--|(?:\/\/\s*)?<!\[CDATA\[)/, '')
    .replace(/(?:-->|(?:\/\/\s*)?\]\]>)$/, '')
    .replace(/[^\x20-\uffff]+/g, ' ');
  let data: unknown;
  try {
    data = JSON.parse(cleaned);
  } catch {
    return [];
  }
  const nodes: JsonObject[] = [];
  const collect = (value: unknown, depth: number) => {
    if (depth > 4) return;
    if (Array.isArray(value)) {
      for (const item of value) collect(item, depth + 1);
    } else if (isObject(value)) {
      nodes.push(value);
      if (value['@graph'] !== undefined) collect(value['@graph'], depth + 1);
    }
  };
  collect(data, 0);
  return nodes;
}

/**
 * The site's own organization: a top-level node of an organization type,
 * preferring one whose url is on the page's host; failing that, the publisher
 * of the page or site. Organizations nested elsewhere (authors, mentions,
 * brands) usually describe someone else.
 */
function pickOrganization(nodes: JsonObject[], pageUrl: string): JsonObject | null {
  let candidates = nodes.filter(isOrganization);
  if (candidates.length === 0) {
    candidates = nodes
      .flatMap((node) => [node['publisher'], node['copyrightHolder']])
      .flatMap((value) => (Array.isArray(value) ? value : [value]))
      .filter((value): value is JsonObject => isObject(value) && isOrganization(value));
  }
  const pageHost = hostKey(pageUrl);
  return candidates.find((node) => pageHost !== null && hostKey(text(node['url'])) === pageHost) ?? candidates[0] ?? null;
}

function isOrganization(node: JsonObject): boolean {
  return strings(node['@type']).some((type) => {
    const bare = type.replace(/^.*[/:#]/, '');
    return ORGANIZATION_TYPES.has(bare) || ORGANIZATION_TYPE_SUFFIX.test(bare);
  });
}

/** `field` on the organization itself and on each of its contact points. */
function organizationValues(organization: JsonObject, field: 'email' | 'telephone'): string[] {
  const contactPoints = [organization['contactPoint'], organization['contactPoints']]
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter(isObject);
  return [organization, ...contactPoints].flatMap((node) => strings(node[field]));
}

function suggestName(organization: JsonObject | null, page: PageData, pageUrl: string): string | null {
  const structured = organization && firstText(text(organization['legalName']), text(organization['name']));
  if (structured) return structured;
  const siteName = firstText(page.meta.get('og:site_name'));
  if (siteName) return siteName;
  const title = firstText(page.meta.get('og:title'), page.title);
  return title ? cleanTitle(title, pageUrl) : null;
}

/** "Acme Corp | Widgets since 1900" → "Acme Corp"; "Home - Acme" → "Acme"; a segment naming the host wins. */
function cleanTitle(title: string, pageUrl: string): string {
  const segments = title
    .split(TITLE_SEPARATOR)
    .map((segment) => segment.trim())
    .filter((segment) => segment && !GENERIC_TITLE_SEGMENTS.has(segment.toLowerCase()));
  if (segments.length === 0) return title;
  const labels = hostLabels(pageUrl);
  const naming = segments.find((segment) => {
    const compact = segment.toLowerCase().replace(/[^a-z0-9]/g, '');
    return labels.some((label) => compact.includes(label));
  });
  return naming ?? segments[0]!;
}

/** Host labels that can carry a brand: acme from www.acme.co.uk. */
function hostLabels(pageUrl: string): string[] {
  const host = hostKey(pageUrl);
  if (!host) return [];
  return host
    .split('.')
    .slice(0, -1)
    .map((label) => label.replace(/[^a-z0-9]/g, ''))
    .filter((label) => label.length >= 3 && !['com', 'org', 'net', 'gov', 'edu'].includes(label));
}

// ---------------------------------------------------------------------------
// Contacts and links

const EMAIL_RE = /^[^\s@<>()[\]",;:]+@[^\s@<>()[\]",;:]+\.[^\s@<>()[\]",;:]+$/;

function cleanEmail(raw: string): string | null {
  const email = safeDecodeURIComponent(raw.trim().replace(/^mailto:/i, ''))
    .trim()
    .toLowerCase();
  return EMAIL_RE.test(email) ? email : null;
}

/** mailto:a@x.com,b@x.com?subject=hi&cc=c@x.com lists a, b and c. */
function mailtoAddresses(href: string): string[] {
  const rest = href.trim().replace(/^mailto:/i, '');
  const queryAt = rest.indexOf('?');
  const to = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rest.slice(queryAt + 1);
  const copies = new URLSearchParams(query);
  const raw = [to, copies.get('to') ?? '', copies.get('cc') ?? ''].join(',');
  return raw
    .split(',')
    .map(cleanEmail)
    .filter((email): email is string => email !== null);
}

function cleanPhone(raw: string): string | null {
  const phone = collapse(safeDecodeURIComponent(raw.replace(/^tel:/i, '')));
  return (phone.match(/\d/g) ?? []).length >= 3 ? phone : null;
}

/** tel:+1-201-555-0123;ext=12?foo → "+1-201-555-0123 ext. 12", a form phone parsers understand. */
function telNumber(href: string): string | null {
  const value = href.trim().replace(/^tel:/i, '').split('?')[0]!;
  const [number = '', ...params] = value.split(';');
  const extension = params.find((param) => /^ext=/i.test(param))?.slice(4);
  return cleanPhone(extension ? `${number} ext. ${extension}` : number);
}

/** The same number often appears formatted in JSON-LD and compact in a tel: link. */
function phoneKey(phone: string): string {
  return phone.replace(/\D/g, '');
}

function isSocialProfile(url: string): boolean {
  const parsed = new URL(url);
  const host = parsed.hostname.toLowerCase();
  if (!SOCIAL_HOSTS.some((social) => host === social || host.endsWith(`.${social}`))) return false;
  return parsed.pathname.replace(/\/+$/, '') !== '' && !NON_PROFILE_PATH.test(parsed.pathname);
}

/** An absolute http(s) URL without its fragment, or null. */
function resolveUrl(href: string | null | undefined, base: string): string | null {
  if (!href?.trim()) return null;
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

function hostKey(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------
// Values

class UniqueList<T> {
  readonly items: T[] = [];
  private readonly keys = new Set<string>();

  constructor(private readonly keyOf: (item: T) => string) {}

  add(item: T | null): void {
    if (item === null || this.items.length >= MAX_ITEMS) return;
    const key = this.keyOf(item);
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.items.push(item);
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON-LD values may be a string, a list, or a {"@value"} / {"@id"} object; this yields the strings. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [decodeEntities(value)];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (isObject(value)) return strings(value['@value'] ?? value['@id']);
  return [];
}

function text(value: unknown): string | null {
  return strings(value)[0] ?? null;
}

function firstText(...values: Array<string | null | undefined>): string | null {
  for (const value of values) {
    const collapsed = value ? collapse(value) : '';
    if (collapsed) return collapsed;
  }
  return null;
}

function collapse(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function truncate(value: string | null, max: number): string | null {
  if (value === null || value.length <= max) return value;
  // Never leave half of a surrogate pair at the cut.
  return value.slice(0, max).replace(/[\ud800-\udbff]$/, '').trimEnd();
}

function safeDecodeURIComponent(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** JSON-LD is raw script text, yet many sites HTML-escape inside it ("Acme &amp; Co"). */
function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  let decoded = '';
  const parser = new Parser({ ontext: (data) => (decoded += data) }, { decodeEntities: true });
  parser.end(value.replace(/</g, '&lt;'));
  return decoded;
}

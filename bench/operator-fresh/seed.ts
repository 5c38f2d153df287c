/**
 * The Operator evaluation's seed (bench/operator-fresh): about 200 organizations, 150 people,
 * 80 ledger entries with investments, 60 library entries, keywords and lists with members, written
 * through the HTTP API as an admin of the default tenant, so the product's own validation,
 * relation checks and counters apply. Deterministic: a fixed pseudo-random sequence, no clock.
 *
 * Named "anchor" records carry the values the questions of dev.jsonl / holdout.jsonl talk about
 * (Acme Robotics, Northwind Capital, Jane Doe, "Top Fintech 2024", …); the rest is filler drawn
 * from bench/words.ts-like lists with realistic variety (accented cities, incomplete dates, every
 * visibility, amounts in several currencies).
 *
 * Also creates a paywall reader (READER below) so questions can be asked as one.
 *
 * Used by bench/operator-eval.ts; alone (against a running product, default tenant):
 *   node --import tsx bench/operator-fresh/seed.ts <port>
 */
import { call } from '../server.ts';

export const ADMIN = { email: 'admin@intelnotes.local', password: 'intelnotes-admin' };
export const READER = { email: 'reader@operator-fresh.test', password: 'reader-password-27' };

type Vis = 'public' | 'paywalled' | 'hidden';

/** mulberry32: a small deterministic generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedRefs {
  organizations: Map<string, string>;
  people: Map<string, string>;
  ledger_entries: Map<string, string>;
  library: Map<string, string>;
  keywords: Map<string, string>;
  lists: Map<string, string>;
  geos: Map<string, string>;
  readerToken: string;
  adminToken: string;
}

// ---------------------------------------------------------------------------
// Vocabulary

export const ORG_CITIES: Array<[string, number]> = [
  ['London', 22], ['Paris', 16], ['Berlin', 14], ['New York', 16], ['São Paulo', 11], ['Zürich', 11], ['Düsseldorf', 9],
  ['Munich', 7], ['Tokyo', 9], ['Singapore', 8], ['Madrid', 7], ['Toronto', 7], ['Geneva', 5], ['Lyon', 5],
  ['Manchester', 6], ['Rio de Janeiro', 5], ['Kraków', 4], ['Málaga', 3], ['Stockholm', 5],
];
export const COUNTRY_OF_CITY: Record<string, string> = {
  London: 'United Kingdom', Manchester: 'United Kingdom', Paris: 'France', Lyon: 'France', Berlin: 'Germany',
  Düsseldorf: 'Germany', Munich: 'Germany', 'New York': 'United States', 'São Paulo': 'Brazil', 'Rio de Janeiro': 'Brazil',
  Zürich: 'Switzerland', Geneva: 'Switzerland', Tokyo: 'Japan', Singapore: 'Singapore', Madrid: 'Spain', Málaga: 'Spain',
  Toronto: 'Canada', Kraków: 'Poland', Stockholm: 'Sweden',
};
const OWNERSHIP: Array<[string | null, number]> = [
  ['Private', 40], ['Public', 20], ['State-owned', 10], ['Non-profit', 8], ['Partnership', 8], ['Cooperative', 5], [null, 9],
];
const VISIBILITY: Array<[Vis, number]> = [['public', 45], ['paywalled', 30], ['hidden', 25]];
const PASSPORTS: Array<[string | null, number]> = [
  ['United Kingdom', 16], ['France', 13], ['Germany', 13], ['Brazil', 9], ['Switzerland', 8], ['United States', 12],
  ['Japan', 6], ['Spain', 6], ['Italy', 5], ['Poland', 4], ['Canada', 4], ['India', 4], ['Sweden', 3], [null, 10],
];
const CURRENCIES: Array<[string | null, number]> = [['USD', 30], ['EUR', 25], ['GBP', 14], ['CHF', 8], ['BRL', 6], ['JPY', 5], [null, 12]];
const PUBLISHERS = ['Financial Times', 'Reuters', 'Bloomberg', 'Le Monde', 'Handelsblatt', 'Folha de S.Paulo', 'NZZ', 'The Economist', 'Nikkei', 'TechCrunch'];
const LIBRARY_TYPES = ['Article', 'Report', 'Book', 'Podcast', 'Filing', 'Bio/Obituary/Profile/Interview', 'Deck/Memo/Presentation', 'Literature/Paper', 'Event', 'Database/List/Ranking'];
export const KEYWORDS = ['fintech', 'AI', 'climate', 'healthcare', 'logistics', 'energy', 'defense', 'crypto', 'mining', 'robotics', 'retail', 'semiconductors'];

const ORG_PREFIXES = [
  'Blue', 'Silver', 'Meridian', 'Summit', 'Harbor', 'Pioneer', 'Granite', 'Evergreen', 'Redwood', 'Cobalt', 'Falcon',
  'Horizon', 'Keystone', 'Lighthouse', 'Nova', 'Orion', 'Pacific', 'Riverside', 'Titan', 'Unity', 'Vanguard', 'Westbrook',
  'Aurora', 'Beacon', 'Cedar', 'Delta', 'Eagle', 'Frontier', 'Golden', 'Highland', 'Juniper', 'Kestrel', 'Lakeside',
  'Oakridge', 'Polaris', 'Sapphire', 'Trident', 'Willow', 'Bright', 'Dynamo', 'Élan', 'Hélios', 'Mistral', 'Nébula',
  'Olympus', 'Prairie', 'Solstice', 'Tundra', 'Estrela', 'Sonnen',
];
const ORG_CORES = [
  'Logistics', 'Analytics', 'Energy', 'Holdings', 'Systems', 'Solutions', 'Media', 'Pharma', 'Biotech', 'Foods',
  'Textiles', 'Shipping', 'Software', 'Consulting', 'Insurance', 'Telecom', 'Aerospace', 'Agritech', 'Motors', 'Chemicals',
  'Construction', 'Realty', 'Security', 'Networks', 'Diagnostics', 'Electronics', 'Optics', 'Packaging', 'Publishing', 'Recycling',
];
const SUFFIX_BY_COUNTRY: Record<string, string[]> = {
  'United Kingdom': ['Ltd', 'plc'], France: ['SAS', 'S.A.'], Germany: ['GmbH', 'AG'], 'United States': ['Inc.', 'LLC', 'Corp.'],
  Brazil: ['S.A.', 'Ltda'], Switzerland: ['AG', 'SA'], Japan: ['K.K.'], Singapore: ['Pte Ltd'], Spain: ['S.L.', 'S.A.'],
  Canada: ['Inc.'], Poland: ['Sp. z o.o.'], Sweden: ['AB'],
};
const GIVEN_F = ['Maria', 'Anna', 'Sofia', 'Emma', 'Chloé', 'Zoë', 'Inès', 'Julia', 'Laura', 'Elena', 'Hannah', 'Ingrid', 'Astrid', 'Aisha', 'Mei', 'Yuki', 'Camila', 'Lucía', 'Claire', 'Amélie', 'Agnieszka', 'Grace', 'Charlotte', 'Nora', 'Siobhán', 'Giulia', 'Beatriz', 'Helena'];
const GIVEN_M = ['José', 'Juan', 'Carlos', 'Pedro', 'André', 'François', 'Étienne', 'Hugo', 'Lucas', 'James', 'William', 'Henry', 'Søren', 'Björn', 'Erik', 'Jörg', 'Stefan', 'Łukasz', 'Piotr', 'Ahmed', 'Ravi', 'Kenji', 'Wei', 'Mateo', 'Marco', 'Luca', 'David', 'Felix'];
const FAMILY: Record<string, string[]> = {
  'United Kingdom': ['Smith', 'Taylor', 'Brown', 'Wilson', 'Walsh', 'Hughes', 'Clarke', 'Patel'],
  France: ['Dubois', 'Durand', 'Lefèvre', 'Moreau', 'Roux', 'Fournier', 'Girard'],
  Germany: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Wagner', 'Hoffmann'],
  Brazil: ['Santos', 'Ferreira', 'Oliveira', 'Costa', 'Gonçalves', 'Ribeiro'],
  Switzerland: ['Meier', 'Keller', 'Huber', 'Brunner', 'Frei'],
  'United States': ['Johnson', 'Miller', 'Davis', 'Anderson', 'Moore', 'Jackson', 'Harris'],
  Japan: ['Suzuki', 'Takahashi', 'Watanabe', 'Yamamoto', 'Nakamura'],
  Spain: ['García', 'Martínez', 'López', 'Sánchez', 'Torres'],
  Italy: ['Rossi', 'Russo', 'Bianchi', 'Ricci', 'Greco'],
  Poland: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik'],
  Canada: ['Tremblay', 'Gagnon', 'Roy', 'Campbell'],
  India: ['Sharma', 'Singh', 'Kumar', 'Gupta'],
  Sweden: ['Johansson', 'Karlsson', 'Nilsson'],
  none: ['Cohen', 'Haddad', 'Yılmaz', 'Novak', 'Kim'],
};
const PROFILES = ['Managing Partner', 'Chief Executive Officer', 'Chief Financial Officer', 'Head of Research', 'Senior Analyst', 'Investment Director', 'Board Member', 'Founder', 'Journalist', 'Economist', 'Professor'];
const DEAL_WORDS = ['Series A', 'Series B', 'Series C', 'seed round', 'bond issue', 'acquisition', 'joint venture', 'IPO', 'debt refinancing', 'growth round', 'plant expansion', 'licensing deal'];
const LIB_TOPICS = ['supply chains', 'central banks', 'battery storage', 'drug pricing', 'payments regulation', 'shipping rates', 'chip export controls', 'family offices', 'carbon markets', 'rare earths', 'venture debt', 'sovereign funds', 'open banking', 'hydrogen', 'AI regulation'];

// ---------------------------------------------------------------------------
// Anchors: the records questions name. Fields as the API takes them; relations by name.

interface OrgSpec { name: string; dba?: string; city: string | null; own: string | null; founded: string | null; vis: Vis; kw?: string[]; notes?: string; emails?: string[] }
export const ANCHOR_ORGS: OrgSpec[] = [
  { name: 'Acme Robotics Ltd', dba: 'Acme Robotics', city: 'London', own: 'Private', founded: '2012-05-14', vis: 'public', kw: ['AI', 'robotics'], emails: ['info@acmerobotics.co.uk'] },
  { name: 'Northwind Capital LLP', dba: 'Northwind Capital', city: 'London', own: 'Partnership', founded: '1998', vis: 'public', kw: ['fintech'] },
  { name: 'Helvetia Privatbank AG', city: 'Zürich', own: 'Private', founded: '1857-03-01', vis: 'paywalled', kw: ['fintech'] },
  { name: 'Banco Paulista S.A.', city: 'São Paulo', own: 'Public', founded: '1921', vis: 'public', kw: ['fintech'] },
  { name: 'Rheinmetall Logistik GmbH', city: 'Düsseldorf', own: 'Private', founded: '1968-09', vis: 'public', kw: ['logistics'] },
  { name: 'Lumière Analytics SAS', dba: 'Lumière Analytics', city: 'Paris', own: 'Private', founded: '2016-11-02', vis: 'public', kw: ['AI'] },
  { name: 'Nordic Grid AB', city: 'Stockholm', own: 'State-owned', founded: '1992', vis: 'public', kw: ['energy'] },
  { name: 'Helios Energy plc', dba: 'Helios Energy', city: 'London', own: 'Public', founded: '1987-04-21', vis: 'public', kw: ['energy', 'climate'] },
  { name: 'Kronos Defence Systems S.A.', city: 'Paris', own: 'State-owned', founded: '1946', vis: 'hidden', kw: ['defense'] },
  { name: 'Sakura Mobility K.K.', city: 'Tokyo', own: 'Public', founded: '1955', vis: 'paywalled', kw: ['robotics'] },
  { name: 'Zenith Payments Ltd', dba: 'Zenith Payments', city: 'London', own: 'Private', founded: '2019-02', vis: 'public', kw: ['fintech', 'crypto'] },
  { name: 'PayFlux GmbH', city: 'Berlin', own: 'Private', founded: '2020-07-01', vis: 'public', kw: ['fintech'] },
  { name: 'Monarch Health Trust', city: 'Manchester', own: 'Non-profit', founded: '1950', vis: 'public', kw: ['healthcare'] },
  { name: 'Coastal Fisheries Cooperative', city: 'Málaga', own: 'Cooperative', founded: '1979', vis: 'public', kw: ['retail'] },
  { name: 'Royal Exchange Assurance plc', city: 'London', own: 'Public', founded: '1720-06-22', vis: 'public' },
  { name: 'Quantum Fjord Labs AG', city: 'Zürich', own: 'Private', founded: '2024-03-15', vis: 'public', kw: ['AI', 'semiconductors'] },
  { name: 'Singapore Sovereign Holdings Pte Ltd', city: 'Singapore', own: 'State-owned', founded: '1974', vis: 'paywalled' },
  { name: 'Toronto Ledger Works Inc.', city: 'Toronto', own: 'Private', founded: '2015', vis: 'hidden', kw: ['crypto'] },
  { name: 'Jade Harbor Trading Pte Ltd', city: 'Singapore', own: 'Private', founded: '2008-10-10', vis: 'public', kw: ['logistics'] },
  { name: 'Ibérica Solar S.L.', city: 'Madrid', own: 'Public', founded: '2006-06', vis: 'paywalled', kw: ['energy', 'climate'] },
  { name: 'Crescent Genomics Inc.', city: 'New York', own: 'Public', founded: '2001-09-17', vis: 'public', kw: ['healthcare', 'AI'] },
  { name: 'Vertex Freight Corp.', city: 'New York', own: 'Private', founded: '1994', vis: 'public', kw: ['logistics'] },
  { name: 'Düsseldorf Stahl AG', city: 'Düsseldorf', own: 'Public', founded: '1899', vis: 'public', kw: ['mining'] },
  { name: 'Alpine Ventures AG', dba: 'Alpine Ventures', city: 'Zürich', own: 'Partnership', founded: '2010', vis: 'public', kw: ['fintech'] },
  { name: 'Maple Leaf Pension Fund', city: 'Toronto', own: 'State-owned', founded: '1966', vis: 'public' },
  { name: 'Rio Verde Mineração S.A.', city: 'Rio de Janeiro', own: 'Private', founded: '1983', vis: 'paywalled', kw: ['mining'] },
  { name: 'Kraków Software Works Sp. z o.o.', dba: 'Kraków Software Works', city: 'Kraków', own: 'Private', founded: '2013-04-04', vis: 'public', kw: ['AI'] },
  { name: 'Atlas Shadow Partners Ltd', city: 'London', own: 'Private', founded: '2003', vis: 'hidden' },
  { name: 'Sterling Media Group plc', city: 'London', own: 'Public', founded: '1962', vis: 'paywalled' },
  { name: 'Gaia Climate Fund', city: 'Paris', own: 'Non-profit', founded: '2018-01-09', vis: 'public', kw: ['climate'] },
  { name: 'Berliner Volksbank eG', city: 'Berlin', own: 'Cooperative', founded: '1946-05', vis: 'public', kw: ['fintech'] },
  { name: 'Lyon Biotech Partners', city: 'Lyon', own: null, founded: null, vis: 'public', kw: ['healthcare'] },
];

interface PersonSpec { given: string; family: string; city: string | null; passport: string | null; gender: 'M' | 'F' | null; born: string | null; vis: Vis; profile?: string; kw?: string[]; fav?: boolean; passportCity?: string }
export const ANCHOR_PEOPLE: PersonSpec[] = [
  { given: 'Jane', family: 'Doe', city: 'London', passport: 'United Kingdom', gender: 'F', born: '1975-04-12', vis: 'public', profile: 'Angel investor', kw: ['fintech'], fav: true },
  { given: 'Margarethe', family: 'Vogel', city: 'Zürich', passport: 'Switzerland', gender: 'F', born: '1931-02-11', vis: 'public', profile: 'Founder of Helvetia Privatbank' },
  { given: 'Léa', family: 'Fontaine', city: 'Paris', passport: 'France', gender: 'F', born: '2004-08-30', vis: 'public', profile: 'Student founder' },
  { given: 'João', family: 'Silva', city: 'São Paulo', passport: 'Brazil', gender: 'M', born: '1968', vis: 'public', profile: 'Chief Financial Officer, Banco Paulista' },
  { given: 'Hiroshi', family: 'Tanaka', city: 'Tokyo', passport: 'Japan', gender: 'M', born: '1959-07-07', vis: 'paywalled', profile: 'Chief Executive Officer, Sakura Mobility' },
  { given: 'Oliver', family: 'Bennett', city: 'London', passport: 'United Kingdom', gender: 'M', born: '1982-12-01', vis: 'public', profile: 'Chief Executive Officer, Acme Robotics', kw: ['robotics'] },
  { given: 'Sophie', family: 'Laurent', city: 'Paris', passport: 'France', gender: 'F', born: '1990-03', vis: 'paywalled', profile: 'Journalist' },
  { given: 'Jürgen', family: 'Becker', city: 'Düsseldorf', passport: 'Germany', gender: 'M', born: '1961', vis: 'public', profile: 'Board Member, Düsseldorf Stahl' },
  { given: 'Amara', family: 'Okafor', city: 'London', passport: 'Nigeria', gender: 'F', born: '1987-05-19', vis: 'hidden', profile: 'Investment Director' },
  { given: 'Emily', family: 'Carter', city: 'New York', passport: 'United States', gender: 'F', born: '1979', vis: 'public', profile: 'Journalist', fav: true },
  { given: 'Lars', family: 'Eriksson', city: 'Stockholm', passport: 'Sweden', gender: 'M', born: '1970-10-02', vis: 'public', profile: 'Chief Executive Officer, Nordic Grid', kw: ['energy'] },
  { given: 'Priya', family: 'Raman', city: 'Singapore', passport: 'India', gender: 'F', born: '1985-01-25', vis: 'public', profile: 'Portfolio Manager' },
  { given: 'Mateo', family: 'García', city: 'Madrid', passport: 'Spain', gender: 'M', born: '1993-09-09', vis: 'public', profile: 'Founder, Ibérica Solar', kw: ['energy'] },
  { given: 'Anna', family: 'Kowalska', city: 'Kraków', passport: 'Poland', gender: 'F', born: '1972', vis: 'public', profile: 'Chief Technology Officer, Kraków Software Works' },
  { given: 'Victor', family: 'Crane', city: 'London', passport: 'United Kingdom', gender: 'M', born: '1966-06-06', vis: 'hidden', profile: 'Managing Partner' },
  { given: 'Aoife', family: 'Byrne', city: 'Manchester', passport: 'Ireland', gender: 'F', born: '1988-11', vis: 'paywalled', profile: 'Senior Analyst' },
  { given: 'Ethan', family: 'Cole', city: 'Toronto', passport: 'Canada', gender: 'M', born: '1977-02-14', vis: 'public', profile: 'Managing Partner, Maple Leaf Pension Fund' },
  { given: 'Klaus', family: 'Richter', city: 'Berlin', passport: 'Germany', gender: 'M', born: null, vis: 'public', profile: 'Founder, PayFlux' },
  { given: 'Chiara', family: 'Rossi', city: null, passport: 'Italy', gender: 'F', born: '1983-07', vis: 'public' },
  { given: 'Sam', family: 'Okoro', city: 'London', passport: null, gender: null, born: null, vis: 'public', profile: 'Consultant' },
];

interface EntrySpec { caption: string; symbol?: string; year: number | null; quarter?: string; amount: number | null; currency: string | null; orgs: string[]; people?: string[]; geos?: string[]; vis: Vis; kw?: string[]; investors?: Array<{ org?: string; person?: string; pct?: number; vehicle?: string }> }
export const ANCHOR_ENTRIES: EntrySpec[] = [
  { caption: 'Acme Robotics Series B', symbol: 'ACME', year: 2021, quarter: 'Q2', amount: 45_000_000, currency: 'USD', orgs: ['Acme Robotics Ltd'], people: ['Oliver Bennett'], geos: ['United Kingdom'], vis: 'public', kw: ['robotics'], investors: [{ org: 'Northwind Capital LLP', pct: 12, vehicle: 'VC' }, { person: 'Jane Doe', pct: 3 }] },
  { caption: 'Zenith Payments seed round', year: 2019, quarter: 'Q4', amount: 2_500_000, currency: 'GBP', orgs: ['Zenith Payments Ltd'], vis: 'public', kw: ['fintech'], investors: [{ org: 'Northwind Capital LLP', pct: 8, vehicle: 'VC' }] },
  { caption: 'Helios Energy takeover of Nordic Grid', year: 2022, quarter: 'Q3', amount: 12_000_000_000, currency: 'USD', orgs: ['Helios Energy plc', 'Nordic Grid AB'], people: ['Lars Eriksson'], geos: ['Sweden'], vis: 'public', kw: ['energy'] },
  { caption: 'Banco Paulista bond issue', symbol: 'BPAU3', year: 2022, quarter: 'Q1', amount: 3_200_000_000, currency: 'BRL', orgs: ['Banco Paulista S.A.'], people: ['João Silva'], geos: ['Brazil'], vis: 'paywalled', kw: ['fintech'] },
  { caption: 'Lumière Analytics Series A', year: 2020, quarter: 'Q1', amount: 8_000_000, currency: 'EUR', orgs: ['Lumière Analytics SAS'], people: ['Sophie Laurent'], geos: ['France'], vis: 'public', kw: ['AI'], investors: [{ org: 'Alpine Ventures AG', pct: 15, vehicle: 'VC' }, { person: 'Jane Doe', pct: 2 }] },
  { caption: 'PayFlux Series C', year: 2022, quarter: 'Q2', amount: 120_000_000, currency: 'EUR', orgs: ['PayFlux GmbH'], people: ['Klaus Richter'], geos: ['Germany'], vis: 'public', kw: ['fintech'], investors: [{ org: 'Northwind Capital LLP', pct: 5, vehicle: 'PE' }] },
  { caption: 'Sakura Mobility EV plant', year: 2023, quarter: 'Q1', amount: 150_000_000_000, currency: 'JPY', orgs: ['Sakura Mobility K.K.'], people: ['Hiroshi Tanaka'], geos: ['Japan'], vis: 'paywalled' },
  { caption: 'Ibérica Solar IPO', symbol: 'ISOL', year: 2021, quarter: 'Q4', amount: 650_000_000, currency: 'EUR', orgs: ['Ibérica Solar S.L.'], people: ['Mateo García'], geos: ['Spain'], vis: 'public', kw: ['energy', 'climate'] },
  { caption: 'Crescent Genomics acquisition of Helix Labs', year: 2018, quarter: 'Q2', amount: 1_500_000_000, currency: 'USD', orgs: ['Crescent Genomics Inc.'], vis: 'public', kw: ['healthcare'] },
  { caption: 'Kronos Defence frigate contract', year: 2022, quarter: 'Q4', amount: 2_000_000_000, currency: 'EUR', orgs: ['Kronos Defence Systems S.A.'], vis: 'hidden', kw: ['defense'] },
  { caption: 'Helvetia Privatbank merger talks', year: 2024, quarter: 'Q1', amount: 900_000_000, currency: 'CHF', orgs: ['Helvetia Privatbank AG'], people: ['Margarethe Vogel'], vis: 'paywalled', kw: ['fintech'], investors: [{ org: 'Alpine Ventures AG', pct: 4, vehicle: 'FA' }] },
  { caption: 'Rio Verde Mineração expansion', year: 2017, quarter: 'Q3', amount: 400_000_000, currency: 'BRL', orgs: ['Rio Verde Mineração S.A.'], vis: 'public', kw: ['mining'] },
  { caption: 'Maple Leaf stake in Vertex Freight', year: 2023, quarter: 'Q2', amount: 300_000_000, currency: 'CAD', orgs: ['Vertex Freight Corp.'], people: ['Ethan Cole'], vis: 'public', kw: ['logistics'], investors: [{ org: 'Maple Leaf Pension Fund', pct: 25, vehicle: 'PE' }] },
  { caption: 'Kraków Software Works seed', year: 2014, quarter: 'Q3', amount: 1_200_000, currency: 'PLN', orgs: ['Kraków Software Works Sp. z o.o.'], people: ['Anna Kowalska'], vis: 'public', kw: ['AI'], investors: [{ person: 'Jane Doe', pct: 10 }] },
  { caption: 'Düsseldorf Stahl restructuring', year: 2016, quarter: 'Q1', amount: null, currency: null, orgs: ['Düsseldorf Stahl AG'], people: ['Jürgen Becker'], geos: ['Germany'], vis: 'public', kw: ['mining'] },
  { caption: 'Acme Robotics licensing deal with Sakura Mobility', year: 2023, quarter: 'Q3', amount: 6_000_000, currency: 'USD', orgs: ['Acme Robotics Ltd', 'Sakura Mobility K.K.'], people: ['Oliver Bennett', 'Hiroshi Tanaka'], vis: 'public', kw: ['robotics'] },
  { caption: 'Zenith Payments Series A', year: 2022, quarter: 'Q2', amount: 18_000_000, currency: 'GBP', orgs: ['Zenith Payments Ltd'], people: ['Jane Doe'], vis: 'paywalled', kw: ['fintech', 'crypto'], investors: [{ org: 'Alpine Ventures AG', pct: 9, vehicle: 'VC' }] },
  { caption: 'Toronto Ledger Works token sale', year: 2018, quarter: 'Q1', amount: 25_000_000, currency: 'USD', orgs: ['Toronto Ledger Works Inc.'], vis: 'hidden', kw: ['crypto'] },
];

interface LibSpec { title: string; type: string; date: string | null; publisher: string | null; authors?: string[]; assets?: string[]; vis: Vis; kw?: string[]; fav?: boolean }
export const ANCHOR_LIBRARY: LibSpec[] = [
  { title: 'The Rise of Acme Robotics', type: 'Article', date: '2022-03-15', publisher: 'Financial Times', authors: ['Emily Carter'], assets: ['org:Acme Robotics Ltd', 'entry:Acme Robotics Series B'], vis: 'public', kw: ['robotics'] },
  { title: 'European Fintech Report 2024', type: 'Report', date: '2024-02', publisher: 'Bloomberg', assets: ['org:Zenith Payments Ltd', 'org:PayFlux GmbH'], vis: 'paywalled', kw: ['fintech'], fav: true },
  { title: 'Interview with Margarethe Vogel', type: 'Bio/Obituary/Profile/Interview', date: '2019-06-01', publisher: 'NZZ', authors: ['Sophie Laurent'], assets: ['org:Helvetia Privatbank AG'], vis: 'public' },
  { title: 'Energy Transition Podcast #12', type: 'Podcast', date: '2023', publisher: 'Reuters', authors: ['Lars Eriksson'], assets: ['org:Helios Energy plc', 'org:Nordic Grid AB'], vis: 'public', kw: ['energy'] },
  { title: 'Sovereign Wealth in Asia', type: 'Book', date: '2015', publisher: 'The Economist', authors: ['Priya Raman'], assets: ['org:Singapore Sovereign Holdings Pte Ltd'], vis: 'hidden' },
  { title: 'Banco Paulista Annual Filing 2022', type: 'Filing', date: '2023-04-30', publisher: 'Folha de S.Paulo', assets: ['org:Banco Paulista S.A.', 'entry:Banco Paulista bond issue'], vis: 'public', kw: ['fintech'] },
  { title: 'Why Zürich Banks Are Consolidating', type: 'Essay/Thoughts/Whitepaper/Opinion/Post', date: '2024-05-20', publisher: 'NZZ', authors: ['Margarethe Vogel'], assets: ['org:Helvetia Privatbank AG'], vis: 'paywalled', kw: ['fintech'] },
  { title: 'Robotics Market Map 2023', type: 'Database/List/Ranking', date: '2023-11', publisher: 'TechCrunch', authors: ['Jane Doe'], assets: ['org:Acme Robotics Ltd', 'org:Sakura Mobility K.K.'], vis: 'public', kw: ['robotics', 'AI'] },
  { title: 'The Helios–Nordic Grid Deal Explained', type: 'Article', date: '2022-09-02', publisher: 'Reuters', authors: ['Emily Carter'], assets: ['entry:Helios Energy takeover of Nordic Grid'], vis: 'public', kw: ['energy'] },
  { title: 'Angel Investing Notes', type: 'Documents/Notes', date: '2021', publisher: null, authors: ['Jane Doe'], vis: 'hidden', kw: ['fintech'] },
];

export const LISTS: Array<{ name: string; kind: string; vis: Vis; items: string[]; description?: string }> = [
  { name: 'Top Fintech 2024', kind: 'OrganizationsList', vis: 'public', description: 'The fintechs we follow most closely.', items: ['Zenith Payments Ltd', 'PayFlux GmbH', 'Banco Paulista S.A.', 'Northwind Capital LLP', 'Helvetia Privatbank AG', 'Berliner Volksbank eG', 'Toronto Ledger Works Inc.'] },
  { name: 'Watchlist Europe', kind: 'OrganizationsList', vis: 'paywalled', items: ['Acme Robotics Ltd', 'Lumière Analytics SAS', 'Nordic Grid AB', 'Ibérica Solar S.L.', 'Düsseldorf Stahl AG', 'Kraków Software Works Sp. z o.o.', 'Gaia Climate Fund'] },
  { name: 'Internal Targets', kind: 'OrganizationsList', vis: 'hidden', items: ['Atlas Shadow Partners Ltd', 'Jade Harbor Trading Pte Ltd', 'Vertex Freight Corp.'] },
  { name: 'Key Investors', kind: 'PeopleList', vis: 'public', items: ['Jane Doe', 'Ethan Cole', 'Priya Raman', 'Victor Crane', 'Amara Okafor'] },
  { name: 'Founders to Meet', kind: 'PeopleList', vis: 'paywalled', items: ['Léa Fontaine', 'Mateo García', 'Klaus Richter', 'Oliver Bennett'] },
  { name: 'Mega Deals', kind: 'LedgerList', vis: 'public', items: ['Helios Energy takeover of Nordic Grid', 'Sakura Mobility EV plant', 'Banco Paulista bond issue', 'Kronos Defence frigate contract', 'Crescent Genomics acquisition of Helix Labs'] },
  { name: 'Required Reading', kind: 'LibraryList', vis: 'paywalled', items: ['The Rise of Acme Robotics', 'European Fintech Report 2024', 'Robotics Market Map 2023'] },
];

// ---------------------------------------------------------------------------

export async function seed(port: number, host = `localhost:${port}`, log: (line: string) => void = () => {}): Promise<SeedRefs> {
  const random = rng(27);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const weighted = <T>(items: Array<[T, number]>): T => {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let r = random() * total;
    for (const [value, w] of items) {
      r -= w;
      if (r < 0) return value;
    }
    return items[items.length - 1]![0];
  };
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pad = (n: number) => String(n).padStart(2, '0');
  /** A date of mixed precision: a day (55%), a month (15%), a year (20%) or none (10%). */
  const mixedDate = (lo: number, hi: number, noneShare = 0.1): string | null => {
    const r = random();
    const y = int(lo, hi);
    if (r < noneShare) return null;
    if (r < noneShare + 0.2) return String(y);
    if (r < noneShare + 0.35) return `${y}-${pad(int(1, 12))}`;
    return `${y}-${pad(int(1, 12))}-${pad(int(1, 28))}`;
  };

  const login = await call(port, host, 'POST', '/api/v1/auth/login/', ADMIN);
  if (login.status !== 200) throw new Error(`admin sign-in: ${login.status} ${JSON.stringify(login.json)}`);
  const token = login.json.token as string;
  const post = async (url: string, body: unknown) => {
    const response = await call(port, host, 'POST', url, body, token);
    if (response.status !== 201 && response.status !== 200) throw new Error(`POST ${url} ${JSON.stringify(body).slice(0, 300)}: ${response.status} ${JSON.stringify(response.json).slice(0, 500)}`);
    return response.json;
  };
  const get = async (url: string) => {
    const response = await call(port, host, 'GET', url, undefined, token);
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(response.json).slice(0, 300)}`);
    return response.json;
  };

  const refs: SeedRefs = {
    organizations: new Map(), people: new Map(), ledger_entries: new Map(), library: new Map(),
    keywords: new Map(), lists: new Map(), geos: new Map(), readerToken: '', adminToken: token,
  };

  // The paywall reader.
  await post('/api/v1/users/', { email: READER.email, password: READER.password, alias: 'Reader', is_admin: false, is_research: false });
  const readerLogin = await call(port, host, 'POST', '/api/v1/auth/login/', READER);
  if (readerLogin.status !== 200) throw new Error(`reader sign-in: ${readerLogin.status}`);
  refs.readerToken = readerLogin.json.token as string;

  for (const name of KEYWORDS) refs.keywords.set(name, (await post('/api/v1/keywords/', { name })).id);
  const kwIds = (names: string[] | undefined) => (names ?? []).map((name) => refs.keywords.get(name)!);
  for (const country of ['United Kingdom', 'Sweden', 'Brazil', 'France', 'Germany', 'Japan', 'Spain', 'United States', 'Switzerland']) {
    const found = await get(`/api/v1/geos/?search=${encodeURIComponent(country)}&limit=20`);
    const geo = (found.results as Array<{ id: string; name: string; geo_type: string }>).find((g) => g.name === country);
    if (geo) refs.geos.set(country, geo.id);
  }

  // Organizations: anchors, then filler up to 200.
  const orgSpecs: OrgSpec[] = [...ANCHOR_ORGS];
  const used = new Set(orgSpecs.map((o) => o.name));
  while (orgSpecs.length < 200) {
    const city = random() < 0.06 ? null : weighted(ORG_CITIES.map(([c, w]) => [c, w] as [string, number]));
    const country = city ? COUNTRY_OF_CITY[city]! : 'United States';
    const base = `${pick(ORG_PREFIXES)} ${pick(ORG_CORES)}`;
    const name = `${base} ${pick(SUFFIX_BY_COUNTRY[country] ?? ['Ltd'])}`;
    if (used.has(name) || [...used].some((u) => u.startsWith(base + ' '))) continue;
    used.add(name);
    const kw = random() < 0.5 ? [pick(KEYWORDS)] : random() < 0.3 ? [pick(KEYWORDS), pick(KEYWORDS)] : [];
    orgSpecs.push({
      name, dba: random() < 0.25 ? base : undefined, city, own: weighted(OWNERSHIP), founded: mixedDate(1880, 2023, 0.12),
      vis: weighted(VISIBILITY), kw: [...new Set(kw)],
    });
  }
  for (const o of orgSpecs) {
    const body: Record<string, unknown> = {
      name_inc: o.name, name_dba: o.dba ?? null, hq_city: o.city, ownership_type: o.own, founding_date: o.founded,
      visibility: o.vis, keywords: kwIds(o.kw), emails: o.emails ?? [], notes: o.notes ?? null,
      phones: random() < 0.3 ? [`+${int(1, 49)} ${int(100, 999)} ${int(100000, 999999)}`] : [],
    };
    refs.organizations.set(o.name, (await post('/api/v1/assets/organizations/', body)).id);
  }
  log(`organizations: ${refs.organizations.size}`);

  // People.
  const personSpecs: PersonSpec[] = [...ANCHOR_PEOPLE];
  const usedPeople = new Set(personSpecs.map((p) => `${p.given} ${p.family}`));
  while (personSpecs.length < 150) {
    const passport = weighted(PASSPORTS);
    const gender: 'M' | 'F' | null = random() < 0.08 ? null : random() < 0.5 ? 'F' : 'M';
    const given = gender === 'F' ? pick(GIVEN_F) : gender === 'M' ? pick(GIVEN_M) : pick([...GIVEN_F, ...GIVEN_M]);
    const family = pick(FAMILY[passport ?? 'none'] ?? FAMILY['none']!);
    const full = `${given} ${family}`;
    if (usedPeople.has(full)) continue;
    usedPeople.add(full);
    // Most live in a city of their passport's country; some abroad.
    const homeCities = ORG_CITIES.filter(([c]) => COUNTRY_OF_CITY[c] === passport);
    const city = random() < 0.08 ? null : homeCities.length && random() < 0.7 ? pick(homeCities)[0] : weighted(ORG_CITIES);
    personSpecs.push({
      given, family, city, passport, gender, born: mixedDate(1940, 2001, 0.15), vis: weighted(VISIBILITY),
      profile: random() < 0.7 ? pick(PROFILES) : undefined, kw: random() < 0.3 ? [pick(KEYWORDS)] : [], fav: random() < 0.1,
    });
  }
  const MAIL_DOMAINS = ['gmail.com', 'proton.me', 'outlook.com', 'gmx.de', 'orange.fr'];
  const ascii = (text: string) => text.normalize('NFKD').replace(/[^A-Za-z]/g, '').toLowerCase() || 'x';
  const METS = ['Web Summit', 'Davos Forum', 'Slush', 'VivaTech', 'Money20/20'];
  for (const p of personSpecs) {
    const met = random() < 0.3;
    const body: Record<string, unknown> = {
      name_given: p.given, name_family: p.family, current_address_city: p.city, passport_country: p.passport, gender: p.gender,
      birth_date: p.born, visibility: p.vis, professional_profile: p.profile ?? null, keywords: kwIds(p.kw), is_fav: p.fav ?? false,
      met_event_name: met ? pick(METS) : null, met_event_date: met ? `${int(2015, 2024)}-${pad(int(1, 12))}` : null,
      emails: random() < 0.6 ? [`${ascii(p.given)}.${ascii(p.family)}@${pick(MAIL_DOMAINS)}`] : [],
    };
    refs.people.set(`${p.given} ${p.family}`, (await post('/api/v1/assets/people/', body)).id);
  }
  log(`people: ${refs.people.size}`);

  // Ledger entries, with their investments.
  const orgNames = [...refs.organizations.keys()];
  const personNames = [...refs.people.keys()];
  const entrySpecs: EntrySpec[] = [...ANCHOR_ENTRIES];
  const investorOrgs = ['Northwind Capital LLP', 'Alpine Ventures AG', 'Maple Leaf Pension Fund', 'Singapore Sovereign Holdings Pte Ltd'];
  const usedCaptions = new Set(entrySpecs.map((e) => e.caption));
  while (entrySpecs.length < 80) {
    const org = pick(orgNames.slice(ANCHOR_ORGS.length));
    const caption = `${org.replace(/ (Ltd|plc|SAS|S\.A\.|GmbH|AG|Inc\.|LLC|Corp\.|Ltda|SA|K\.K\.|Pte Ltd|S\.L\.|Sp\. z o\.o\.|AB)$/, '')} ${pick(DEAL_WORDS)}`;
    if (usedCaptions.has(caption)) continue;
    usedCaptions.add(caption);
    const currency = weighted(CURRENCIES);
    const magnitude = pick([1e5, 1e6, 1e6, 1e7, 1e7, 1e8, 1e8, 1e9]);
    const amount = currency === null && random() < 0.5 ? null : Math.round((1 + random() * 8.9) * magnitude * (currency === 'JPY' ? 100 : 1));
    const orgs = [org, ...(random() < 0.3 ? [pick(orgNames)] : [])];
    const people = random() < 0.4 ? [pick(personNames.slice(ANCHOR_PEOPLE.length))] : [];
    const investors = random() < 0.25 ? [{ org: pick(investorOrgs.slice(1)), pct: int(1, 30), vehicle: pick(['VC', 'PE', 'FA']) }] : [];
    entrySpecs.push({
      caption, year: random() < 0.05 ? null : int(2012, 2025), quarter: pick(['Q1', 'Q2', 'Q3', 'Q4']), amount, currency,
      orgs: [...new Set(orgs)], people, vis: weighted(VISIBILITY), kw: random() < 0.4 ? [pick(KEYWORDS)] : [], investors,
    });
  }
  let investments = 0;
  for (const e of entrySpecs) {
    const body: Record<string, unknown> = {
      caption: e.caption, symbol: e.symbol ?? null, year: e.year, quarter: e.quarter ?? 'Q1', amount: e.amount, currency: e.currency,
      organizations: e.orgs.map((name) => refs.organizations.get(name)!), people: (e.people ?? []).map((name) => refs.people.get(name)!),
      geos: (e.geos ?? []).map((name) => refs.geos.get(name)).filter(Boolean), keywords: kwIds(e.kw), visibility: e.vis,
      data: e.amount === null ? `${e.caption}: terms not disclosed.` : `${e.caption}: ${e.currency ?? ''} ${e.amount.toLocaleString('en-US')}`,
    };
    const id = (await post('/api/v1/assets/ledger/', body)).id as string;
    refs.ledger_entries.set(e.caption, id);
    for (const inv of e.investors ?? []) {
      await post('/api/v1/assets/investments/', {
        ledger_entry: id, owner: inv.org ? refs.organizations.get(inv.org) : null, owner_person: inv.person ? refs.people.get(inv.person) : null,
        ownership_percentage: inv.pct ?? null, inv_vehicle_type: inv.vehicle ?? null, has_inv_vehicle: Boolean(inv.vehicle),
        inv_currency: e.currency, inv_date: e.year ? String(e.year) : null, visibility: e.vis, owned: true,
      });
      investments += 1;
    }
  }
  log(`ledger entries: ${refs.ledger_entries.size}, investments: ${investments}`);

  // Library entries.
  const libSpecs: LibSpec[] = [...ANCHOR_LIBRARY];
  const usedTitles = new Set(libSpecs.map((l) => l.title));
  const entryNames = [...refs.ledger_entries.keys()];
  while (libSpecs.length < 60) {
    const topic = pick(LIB_TOPICS);
    const type = pick(LIBRARY_TYPES);
    const title = `${pick(['Notes on', 'The future of', 'A primer on', 'What next for', 'Inside', 'Rethinking'])} ${topic}${random() < 0.5 ? ` (${int(2010, 2025)})` : ''}`;
    if (usedTitles.has(title)) continue;
    usedTitles.add(title);
    const assets = random() < 0.5 ? [`org:${pick(orgNames)}`] : random() < 0.3 ? [`entry:${pick(entryNames)}`] : [];
    libSpecs.push({
      title, type, date: mixedDate(2005, 2025, 0.08), publisher: random() < 0.1 ? null : pick(PUBLISHERS),
      authors: random() < 0.6 ? [pick(personNames)] : [], assets, vis: weighted(VISIBILITY), kw: random() < 0.4 ? [pick(KEYWORDS)] : [], fav: random() < 0.1,
    });
  }
  for (const l of libSpecs) {
    const body: Record<string, unknown> = {
      title: l.title, type: l.type, publish_date: l.date, publisher: l.publisher, visibility: l.vis, keywords: kwIds(l.kw), is_fav: l.fav ?? false,
      authors: (l.authors ?? []).map((name) => refs.people.get(name)!),
      assets: (l.assets ?? []).map((ref) => (ref.startsWith('org:') ? refs.organizations.get(ref.slice(4)) : refs.ledger_entries.get(ref.slice(6)))!),
      abstract: `About ${l.title.toLowerCase()}.`,
    };
    refs.library.set(l.title, (await post('/api/v1/library/', body)).id);
  }
  log(`library entries: ${refs.library.size}`);

  // Lists with members (auto-tagging off: members keep exactly their keywords).
  for (const list of LISTS) {
    const id = (await post('/api/v1/lists/', { kind: list.kind, name: list.name, visibility: list.vis, description: list.description ?? null, auto_tagging: false })).id as string;
    refs.lists.set(list.name, id);
    const map = list.kind === 'OrganizationsList' ? refs.organizations : list.kind === 'PeopleList' ? refs.people : list.kind === 'LedgerList' ? refs.ledger_entries : refs.library;
    for (const item of list.items) {
      const itemId = map.get(item);
      if (!itemId) throw new Error(`list ${list.name}: no record ${item}`);
      await post(`/api/v1/lists/${id}/items/`, { id: itemId });
    }
  }
  log(`lists: ${refs.lists.size}`);
  return refs;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const port = Number(process.argv[2]);
  if (!port) throw new Error('usage: node --import tsx bench/operator-fresh/seed.ts <port>');
  const refs = await seed(port, `localhost:${port}`, (line) => console.error(line));
  console.error(`seeded: ${refs.organizations.size} organizations, ${refs.people.size} people, ${refs.ledger_entries.size} ledger entries, ${refs.library.size} library entries`);
}

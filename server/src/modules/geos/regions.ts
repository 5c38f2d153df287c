/**
 * Regions seeded beside the ISO 3166 countries: i18n-iso-countries has no
 * groupings, so a few widely used ones are listed here by member country
 * (ISO 3166-1 alpha-2). Tenant managers can edit or add regions; seeding only
 * adds a region whose code is missing, so their changes are kept.
 */
export interface RegionSeed {
  code: string;
  name: string;
  countries: string[];
}

export const REGIONS: RegionSeed[] = [
  {
    code: 'EU',
    name: 'European Union',
    countries: ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'],
  },
  { code: 'ASEAN', name: 'Association of Southeast Asian Nations', countries: ['BN', 'KH', 'ID', 'LA', 'MY', 'MM', 'PH', 'SG', 'TH', 'TL', 'VN'] },
  { code: 'GCC', name: 'Gulf Cooperation Council', countries: ['BH', 'KW', 'OM', 'QA', 'SA', 'AE'] },
  {
    code: 'MENA',
    name: 'Middle East and North Africa',
    countries: ['DZ', 'BH', 'EG', 'IR', 'IQ', 'IL', 'JO', 'KW', 'LB', 'LY', 'MA', 'OM', 'PS', 'QA', 'SA', 'SY', 'TN', 'AE', 'YE'],
  },
  {
    code: 'LATAM',
    name: 'Latin America',
    countries: ['AR', 'BO', 'BR', 'CL', 'CO', 'CR', 'CU', 'DO', 'EC', 'SV', 'GT', 'HT', 'HN', 'MX', 'NI', 'PA', 'PY', 'PE', 'UY', 'VE'],
  },
  { code: 'NORDICS', name: 'Nordic countries', countries: ['DK', 'FI', 'IS', 'NO', 'SE'] },
  { code: 'G7', name: 'Group of Seven (G7)', countries: ['CA', 'FR', 'DE', 'IT', 'JP', 'GB', 'US'] },
];

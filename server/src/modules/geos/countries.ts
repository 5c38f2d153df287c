/** ISO 3166-1 countries from the i18n-iso-countries package (English names). */
import isoCountries from 'i18n-iso-countries';

export interface CountrySeed {
  code: string;
  name: string;
}

/** Every ISO 3166-1 alpha-2 code the package knows (plus XK, Kosovo, which it includes). */
const ALPHA2 = new Set(Object.keys(isoCountries.getAlpha2Codes()).map((code) => code.toUpperCase()));

export const isCountryCode = (code: string) => ALPHA2.has(code.toUpperCase());

/** All countries with their official English short names, by code. */
export function countrySeeds(): CountrySeed[] {
  const names = isoCountries.getNames('en', { select: 'official' });
  return Object.entries(names)
    .map(([code, name]) => ({ code: code.toUpperCase(), name }))
    .sort((a, b) => a.code.localeCompare(b.code));
}

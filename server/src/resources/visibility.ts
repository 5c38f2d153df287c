/** Which visibilities each audience reads (SPEC §1, §6; DESIGN "Audiences"). */
import type { AccessLevel } from '../contracts.ts';
import type { Visibility } from './fields.ts';

const READABLE: Record<AccessLevel, Visibility[]> = {
  public: ['public'],
  paywall: ['public', 'paywalled'],
  research: ['public', 'paywalled'],
  admin: ['public', 'paywalled', 'hidden'],
};

export const visibleTo = (access: AccessLevel): Visibility[] => READABLE[access];

// Tables (tables.ts, docs/processing.md "Tables"): a role column's cells are names of its type,
// read from the text as the CSV, XLSX and HTML readers write rows ("a | b | c", one a line).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractEntities } from './index.ts';
import { findTableNames, headerType } from './tables.ts';

const named = (text: string) => extractEntities(text).mentions
  .filter((mention) => mention.type === 'PER' || mention.type === 'ORG')
  .map((mention) => `${mention.type} ${mention.text}${mention.role ? ` (${mention.role.title}, ${mention.role.organization ?? '-'})` : ''}`);

describe('tables', () => {
  it('types a header by its last role word', () => {
    assert.deepEqual(['CEO', 'Company name', 'Company CEO', 'Lead investor(s)', 'Co-founders', 'Employer', 'Revenue', 'Name'].map(headerType),
      ['PER', 'ORG', 'PER', 'ORG', 'PER', 'ORG', undefined, undefined]);
  });

  it('gives bare names typed by their column, a person with the role and the row\'s company', () => {
    const csv = 'Company | CEO | Founded\nOrion Freight Holdings | Miriam Okonkwo | 1998\nBaltic Rail Logistics | Jonas Lindqvist | 2004\nVeld | n/a | 2010';
    assert.deepEqual(named(csv), [
      'ORG Orion Freight Holdings', 'PER Miriam Okonkwo (CEO, Orion Freight Holdings)',
      'ORG Baltic Rail Logistics', 'PER Jonas Lindqvist (CEO, Baltic Rail Logistics)',
      'ORG Veld',
    ]);
  });

  it('reads an XLSX sheet and an HTML table as their readers write them, lists of founders split', () => {
    const xlsx = 'Portfolio\n\nStartup | Founders | Lead investor\nKinetic Grid | Aisha Rahman, Tom Becker | Sablewood Capital\nLattice Farms | Ines Duarte and Piet Mulder | Northgate Ventures';
    assert.deepEqual(named(xlsx).filter((name) => name.startsWith('PER')), [
      'PER Aisha Rahman (Founders, Kinetic Grid)', 'PER Tom Becker (Founders, Kinetic Grid)',
      'PER Ines Duarte (Founders, Lattice Farms)', 'PER Piet Mulder (Founders, Lattice Farms)',
    ]);
    assert.ok(named(xlsx).includes('ORG Sablewood Capital') && named(xlsx).includes('ORG Northgate Ventures'));
  });

  it('skips rows it cannot align (an empty cell was left out), and tables with no role column', () => {
    const text = 'Company | CEO | Country\nOrion Freight Holdings | Norway\nBaltic Rail Logistics | Jonas Lindqvist | Sweden\n\nItem | Price\nCoffee | 3';
    assert.deepEqual(findTableNames(text).map((name) => text.slice(name.start, name.end)), ['Baltic Rail Logistics', 'Jonas Lindqvist']);
  });
});

describe('tables: blocks', () => {
  it('joins rows written a blank line apart (HTML), and starts a table at a second header (XLSX sheets)', () => {
    const text = 'Startup | Founder\n\nBrindlewood Labs | Yusuf Demir\n\nCalyx Grid | Noor Haddad\n\nInvestor | Partner\nNordic Seed Fund | Ola Berg';
    assert.deepEqual(findTableNames(text).map((name) => `${name.type} ${text.slice(name.start, name.end)}${name.role?.organization ? ` @ ${text.slice(name.role.organization.start, name.role.organization.end)}` : ''}`), [
      'ORG Brindlewood Labs', 'PER Yusuf Demir @ Brindlewood Labs', 'ORG Calyx Grid', 'PER Noor Haddad @ Calyx Grid', 'ORG Nordic Seed Fund', 'PER Ola Berg @ Nordic Seed Fund',
    ]);
  });
});

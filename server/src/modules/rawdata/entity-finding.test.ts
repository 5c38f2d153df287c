// Linking the names found in a text to the tenant's records (docs/processing.md "Linking"):
// by the gazetteer (name and aliases), a shared e-mail or URL (in the sentence, or the item's
// source URL) when the name fits the record, a very similar name — all the names of an item in
// one query per kind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SQL } from 'drizzle-orm';
import { inTenant, systemActor, type EngineContext } from '../../resources/context.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { findEntities, fitsContact, sameName, urlMatchKeys, type FindOptions, type LinkedEntity } from './entity-finding.ts';

describe('linking names to records', () => {
  let t: TestContext;
  let tenant: TenantRow;
  let token: string;

  before(async () => {
    t = await createTestApp();
    tenant = await t.createTenant('links');
    await t.createUser(tenant, 'admin@links.test', { is_admin: true });
    token = await t.login(tenant, 'admin@links.test');
  });
  after(() => t.close());

  const create = async (kind: 'organizations' | 'people', fields: Record<string, unknown>): Promise<string> => {
    const response = await t.request(tenant, { method: 'POST', url: `/api/v1/assets/${kind}/`, token, payload: fields });
    assert.equal(response.statusCode, 201, response.body);
    return String(response.json().id);
  };

  /** Finds and links as processing does; `statements` counts the statements link() sent. */
  const link = (text: string, options: FindOptions = {}) =>
    inTenant(t.db, systemActor(tenant.id), async (ctx) => {
      const found = await findEntities(ctx, text, options);
      let statements = 0;
      const counting = new Proxy(ctx.tx, {
        get(target, property, receiver) {
          if (property === 'execute') {
            return (statement: SQL) => {
              statements += 1;
              return target.execute(statement);
            };
          }
          return Reflect.get(target, property, receiver);
        },
      });
      const { entities } = await found.link({ ...ctx, tx: counting } as EngineContext);
      return { entities, statements };
    });
  const named = (entities: LinkedEntity[], text: string) => {
    const entity = entities.find((candidate) => candidate.text === text);
    assert.ok(entity, `"${text}" found among ${entities.map((candidate) => candidate.text).join(' | ')}`);
    return entity;
  };

  it('keys a URL as url_keys do, with the pages above it', () => {
    assert.deepEqual(urlMatchKeys('https://www.Corvane.example/Press/2025/hub?x=1#top'), ['corvane.example', 'corvane.example/press', 'corvane.example/press/2025', 'corvane.example/press/2025/hub']);
    assert.deepEqual(urlMatchKeys('https://corvane.example/'), ['corvane.example']);
  });

  it('links without a shared address only the same name written otherwise, never a near miss', () => {
    const org = (text: string, ...names: string[]) => sameName({ type: 'ORG', text }, { names });
    const person = (text: string, given: string, family: string, nickname: string | null = null) => sameName({ type: 'PER', text }, { given, family, nickname, legal: null });
    assert.equal(org('Halden Energy Group', 'Halden Energy ASA'), true, 'a generic word more');
    assert.equal(org('Nord Ferry AB', 'Nordic Ferry Lines AB', 'NordFerry'), true, 'spacing');
    assert.equal(org('Brightline Analytica', 'Brightline Analytics Ltd'), false);
    assert.equal(org('Halden Energy Services', 'Halden Energy ASA'), false, 'a subsidiary is not its parent');
    assert.equal(person('Samuel J. Okonkwo', 'Samuel', 'Okonkwo'), true, 'a middle initial');
    assert.equal(person('Dr S. Okonkwo', 'Samuel', 'Okonkwo'), true, 'an initial and a title');
    assert.equal(person('Segun Adeyemi', 'Olusegun', 'Adeyemi', 'Segun'), true, 'the nickname');
    assert.equal(person('Christophe Vandenberghe', 'Christopher', 'Vandenberghe'), false);
    assert.equal(person('Lotte Dekkers', 'Lotte', 'Dekker'), false);
    assert.equal(person('Katarzyna Nowak-Lis', 'Katarzyna', 'Nowak'), false);
    assert.equal(person('Gustavo Lima', 'Gustavo', 'Pereira Lima'), false);
    assert.equal(person('Okonkwo', 'Samuel', 'Okonkwo'), false, 'a family name alone is anybody of that family');
  });

  it('links by a shared address only a name that fits the record', () => {
    const org = (text: string, ...names: string[]) => fitsContact({ type: 'ORG', text }, { names });
    const person = (text: string, given: string, family: string) => fitsContact({ type: 'PER', text }, { given, family, nickname: null, legal: null });
    assert.equal(org('Velora Pay', 'Velora Payments BV'), true);
    assert.equal(org('NFL', 'Nordic Ferry Lines AB'), true, 'initials');
    assert.equal(org('Osterlund Shipping AB', 'Ferrowind Turbines SA'), false, 'another company of the sentence');
    assert.equal(org('North Sea Oil Ltd', 'North Star Shipping Ltd'), false, 'a first word many share');
    assert.equal(person('Priya', 'Priya', 'Venkataraman'), true);
    assert.equal(person('Ms Venkataraman', 'Priya', 'Venkataraman'), true);
    assert.equal(person('Dana Whitcomb', 'Dana', 'Whitcombe'), true, 'one letter off');
    assert.equal(person('Orsolya Kertesz-Nagy', 'Orsolya', 'Kertesz'), true, 'a double-barrelled name');
    assert.equal(person('Luca Benedetti', 'Chiara', 'Benedetti'), false, 'her brother');
    assert.equal(person('Franco Russo', 'Chiara', 'Benedetti'), false);
  });

  it('links a name to the record whose URL its sentence or its item carries, when the name fits the record', async () => {
    const corvane = await create('organizations', { name_inc: 'Corvane Logistics GmbH', associated_urls: ['https://corvane.example'] });
    const ines = await create('people', { name_given: 'Inês', name_family: 'Duarte Carvalho', associated_urls: ['https://www.linkedin.com/in/ines-duarte-carvalho'] });
    const saltmarsh = await create('organizations', { name_inc: 'Saltmarsh Biosciences Ltd', associated_urls: ['https://saltmarsh-bio.example'] });

    const { entities } = await link(
      'Corvane Freight Group Ltd (https://corvane.example/press/2025/duisburg) opened a hub with Osterlund Shipping AB, its partner.\n\n' +
        'Inês Duarte, head of the Lisbon office, said so on https://www.linkedin.com/in/ines-duarte-carvalho today.',
    );
    const group = named(entities, 'Corvane Freight Group Ltd');
    assert.deepEqual([group.record, group.linkedBy], [{ kind: 'organizations', id: corvane }, 'url']);
    assert.equal(named(entities, 'Osterlund Shipping AB').record, null, "another name of the sentence is not the URL's record");
    const person = named(entities, 'Inês Duarte');
    assert.deepEqual([person.record, person.linkedBy], [{ kind: 'people', id: ines }, 'url']);

    // The item's source URL: every name of the item is a candidate, when it fits.
    const text = 'Saltmarsh Therapeutics Group Ltd said its trial met its goal; Quenby Labs Ltd ran the assays.';
    const sourced = (await link(text, { sourceUrl: 'https://www.saltmarsh-bio.example/news/2025/phase-two' })).entities;
    assert.deepEqual(named(sourced, 'Saltmarsh Therapeutics Group Ltd').record, { kind: 'organizations', id: saltmarsh });
    assert.equal(named(sourced, 'Quenby Labs Ltd').record, null);
    assert.equal(named((await link(text)).entities, 'Saltmarsh Therapeutics Group Ltd').record, null, 'without the source URL, nothing links it');
  });

  it("links by a shared e-mail the name that fits its record, not the sentence's other names", async () => {
    const dana = await create('people', { name_given: 'Dana', name_family: 'Whitcombe', emails: ['d.whitcombe@ferrowind.example'] });
    await create('organizations', { name_inc: 'Ferrowind Turbines SA', emails: ['press@ferrowind.example'] });
    const { entities } = await link(
      'Dana Whitcomb, head of communications, said interviews can be booked at d.whitcombe@ferrowind.example today.\n\n' +
        'Franco Russo, the head of sales, said he can also be reached at d.whitcombe@ferrowind.example.\n\n' +
        'Questions about the tender won by Osterlund Shipping AB should go to press@ferrowind.example, the turbine maker said.',
    );
    const whitcomb = named(entities, 'Dana Whitcomb');
    assert.deepEqual([whitcomb.record?.id, whitcomb.linkedBy], [dana, 'email']);
    assert.equal(named(entities, 'Franco Russo').record, null);
    assert.equal(named(entities, 'Osterlund Shipping AB').record, null);
  });

  it('links a short form of a name linked in the same item', async () => {
    const sigrun = await create('people', { name_given: 'Sigrun', name_family: 'Tveitane' });
    const { entities } = await link('Sigrun Tveitane, finance chief of Vassbotn Energy ASA, spoke first. Ms Tveitane said the company would keep its dividend.');
    const short = entities.find((entity) => entity.type === 'PER' && entity.text.endsWith('Tveitane') && entity.text !== 'Sigrun Tveitane');
    assert.ok(short, `a short form found among ${entities.map((entity) => entity.text).join(' | ')}`);
    assert.deepEqual([short.record?.id, short.linkedBy], [sigrun, 'short']);
  });

  it('links every name of an item with one statement per kind', async () => {
    const syllables = ['kor', 'val', 'dren', 'mes', 'tav', 'lun', 'bri', 'sor', 'quen', 'zal', 'ober', 'fen'];
    const word = (i: number) => {
      const name = `${syllables[i % 12]}${syllables[Math.floor(i / 12) % 12]}${['ex', 'ora', 'ind'][Math.floor(i / 144) % 3]}`;
      return name[0]!.toUpperCase() + name.slice(1);
    };
    // Records 0–29: found by e-mail (0–9), by URL (10–19), by their exact name (20–29).
    const records: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      records.push(await create('organizations', { name_inc: `${word(i)} Shipping Ltd`, emails: [`desk@${word(i).toLowerCase()}.example`], associated_urls: [`https://${word(i).toLowerCase()}.example`] }));
    }
    const people = [
      await create('people', { name_given: 'Orsolya', name_family: 'Kertesz', emails: ['o.kertesz@korkorex.example'] }),
      await create('people', { name_given: 'Tobiah', name_family: 'Lindgren', name_nickname: 'Toby', associated_urls: ['https://www.linkedin.com/in/tobiah-lindgren'] }),
    ];
    const sentences: string[] = [];
    for (let i = 0; i < 10; i += 1) sentences.push(`${word(i)} Group Ltd can be reached at desk@${word(i).toLowerCase()}.example for comment.`);
    for (let i = 10; i < 20; i += 1) sentences.push(`${word(i)} Holdings Ltd (https://${word(i).toLowerCase()}.example/news) reported results.`);
    for (let i = 20; i < 30; i += 1) sentences.push(`${word(i)} Shipping Ltd signed the charter.`);
    // 150 organizations the tenant does not have.
    for (let i = 200; i < 350; i += 1) sentences.push(`${word(i)} Freight Ltd hired more drivers.`);
    sentences.push('Orsolya Kertesz-Nagy, chief executive, said so in a message from o.kertesz@korkorex.example on Monday.');
    sentences.push('Toby Lindgren, the new chairman, said so at https://www.linkedin.com/in/tobiah-lindgren/recent-activity yesterday.');
    sentences.push('Mireille Aubertin, a lawyer, said she would appeal.');

    const { entities, statements } = await link(sentences.join('\n\n'));
    assert.equal(statements, 2, 'one statement for the people, one for the organizations');
    for (let i = 0; i < 10; i += 1) assert.deepEqual(named(entities, `${word(i)} Group Ltd`).record?.id, records[i], `${word(i)} Group Ltd by e-mail`);
    for (let i = 10; i < 20; i += 1) assert.deepEqual(named(entities, `${word(i)} Holdings Ltd`).record?.id, records[i], `${word(i)} Holdings Ltd by URL`);
    for (let i = 20; i < 30; i += 1) assert.equal(named(entities, `${word(i)} Shipping Ltd`).linkedBy, 'name');
    const unknown = entities.filter((entity) => entity.type === 'ORG' && / Freight Ltd$/.test(entity.text));
    assert.equal(unknown.length, 150);
    assert.ok(unknown.every((entity) => entity.record === null), 'names the tenant does not have stay unlinked');
    assert.equal(named(entities, 'Orsolya Kertesz-Nagy').record?.id, people[0]);
    assert.equal(named(entities, 'Toby Lindgren').record?.id, people[1]);
    assert.equal(named(entities, 'Mireille Aubertin').record, null);

    // Nothing left to link: no statement at all.
    assert.equal((await link(`${word(20)} Shipping Ltd signed the charter.`)).statements, 0);
  });
});

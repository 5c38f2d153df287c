import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RESOURCES } from '../registry.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { applyTaggingRules } from './apply-tagging-rules.ts';

const RULES = '/api/v1/taggingrules';
const ORGS = '/api/v1/assets/organizations';

describe('tagging rules API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  const tokens: Record<string, string | undefined> = {};
  const kw: Record<string, string> = {};
  let fintechRule: Record<string, unknown> & { id: string };

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    await t.createUser(beta, 'research@beta.test', { is_research: true });
    Object.assign(tokens, await t.signInAudiences(acme));
    tokens['beta'] = await t.login(beta, 'research@beta.test');
    for (const name of ['Fintech', 'Banking', 'IPO', 'Manual']) {
      kw[name] = (await t.request(acme, { method: 'POST', url: '/api/v1/keywords/', token: tokens['research'], payload: { name } })).json().id;
    }
    kw['beta'] = (await t.request(beta, { method: 'POST', url: '/api/v1/keywords/', token: tokens['beta'], payload: { name: 'Fintech' } })).json().id;
    const created = await t.request(acme, {
      method: 'POST', url: `${RULES}/`, token: tokens['research'],
      payload: { name: 'Fintech', pattern: 'fintech', keywords: [kw['Fintech']] },
    });
    assert.equal(created.statusCode, 201, created.body);
    fintechRule = created.json();
  });
  after(() => t.close());

  const createRule = (payload: object, role = 'research', tenant = acme) => t.request(tenant, { method: 'POST', url: `${RULES}/`, token: tokens[role], payload });
  const testRule = (payload: object, role = 'research') => t.request(acme, { method: 'POST', url: `${RULES}/test/`, token: tokens[role], payload });
  const keywordNames = (record: { keywords: Array<{ display_name: string }> }) => record.keywords.map((ref) => ref.display_name).sort();

  describe('rules', () => {
    it('defaults to an enabled, case-insensitive word rule', () => {
      assert.deepEqual(
        [fintechRule.match_type, fintechRule.case_sensitive, fintechRule.enabled, fintechRule.display_name],
        ['word', false, true, 'Fintech'],
      );
    });

    it('only research users and admins read or write rules', async () => {
      assert.equal((await t.request(acme, { method: 'GET', url: `${RULES}/` })).statusCode, 401);
      assert.equal((await t.request(acme, { method: 'GET', url: `${RULES}/`, token: tokens['paywall'] })).statusCode, 403);
      assert.equal((await t.request(acme, { method: 'GET', url: `${RULES}/${fintechRule.id}/`, token: tokens['paywall'] })).statusCode, 403);
      assert.equal((await createRule({ pattern: 'x', keywords: [kw['IPO']] }, 'paywall')).statusCode, 403);
      assert.equal((await testRule({ pattern: 'x', text: 'x' }, 'paywall')).statusCode, 403);
      assert.equal((await testRule({ pattern: 'x', text: 'x' }, 'public')).statusCode, 401);
      const list = await t.request(acme, { method: 'GET', url: `${RULES}/`, token: tokens['admin'] });
      assert.equal(list.statusCode, 200);
      assert.ok(list.json().results.some((rule: { id: string }) => rule.id === fintechRule.id));
      assert.equal(list.json().count, list.json().results.length);
    });

    it("another tenant's rules are 404s, and its keywords unknown", async () => {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const response = await t.request(beta, { method, url: `${RULES}/${fintechRule.id}/`, token: tokens['beta'], ...(method === 'PATCH' ? { payload: { name: 'x' } } : {}) });
        assert.equal(response.statusCode, 404, method);
      }
      const foreign = await createRule({ pattern: 'x', keywords: [kw['beta']] });
      assert.equal(foreign.statusCode, 400);
      assert.ok(foreign.json().errors.keywords);
      const byId = await t.request(beta, { method: 'POST', url: `${RULES}/test/`, token: tokens['beta'], payload: { id: fintechRule.id, text: 'fintech' } });
      assert.equal(byId.statusCode, 404);
    });

    const bad: Array<[string, Record<string, unknown>, string, RegExp?]> = [
      ['no pattern', { keywords: ['K'] }, 'pattern'],
      ['a blank pattern', { pattern: '   ', keywords: ['K'] }, 'pattern'],
      ['no keywords', { pattern: 'x' }, 'keywords'],
      ['an empty keyword list', { pattern: 'x', keywords: [] }, 'keywords'],
      ['an unknown match type', { pattern: 'x', match_type: 'glob', keywords: ['K'] }, 'match_type'],
      ['a non-boolean case flag', { pattern: 'x', case_sensitive: 'sometimes', keywords: ['K'] }, 'case_sensitive'],
      ['a non-boolean enabled flag', { pattern: 'x', enabled: 'sometimes', keywords: ['K'] }, 'enabled'],
      ['a pattern too long', { pattern: 'x'.repeat(1001), keywords: ['K'] }, 'pattern'],
      ['a word rule of two words', { pattern: 'central bank', keywords: ['K'] }, 'pattern', /phrase/],
      ['an invalid regex', { pattern: '(unclosed', match_type: 'regex', keywords: ['K'] }, 'pattern', /missing closing \)/],
      ['a backreference', { pattern: '(a)\\1', match_type: 'regex', keywords: ['K'] }, 'pattern', /Backreferences .* linear-time/],
      ['a lookahead', { pattern: 'x(?=y)', match_type: 'regex', keywords: ['K'] }, 'pattern', /Lookahead/],
      ['a regex matching empty text', { pattern: '.*', match_type: 'regex', keywords: ['K'] }, 'pattern', /empty text/],
    ];
    for (const [what, payload, field, message] of bad) {
      it(`refuses ${what} with a 400 naming ${field}`, async () => {
        const body = { ...payload, ...(Array.isArray(payload['keywords']) && payload['keywords'][0] === 'K' ? { keywords: [kw['IPO']] } : {}) };
        const response = await createRule(body);
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[field], response.body);
        if (message) assert.match(response.json().errors[field][0], message);
      });
    }

    it('an edit that makes the pattern invalid for its match type is refused', async () => {
      const rule = (await createRule({ pattern: 'a+b', keywords: [kw['IPO']], match_type: 'regex' })).json();
      const response = await t.request(acme, { method: 'PATCH', url: `${RULES}/${rule.id}/`, token: tokens['research'], payload: { pattern: '(a' } });
      assert.equal(response.statusCode, 400);
      assert.ok(response.json().errors.pattern);
      const asWord = await t.request(acme, { method: 'PATCH', url: `${RULES}/${rule.id}/`, token: tokens['research'], payload: { match_type: 'word', pattern: 'a+b' } });
      assert.equal(asWord.statusCode, 200, asWord.body);
      assert.equal((await t.request(acme, { method: 'DELETE', url: `${RULES}/${rule.id}/`, token: tokens['research'] })).statusCode, 204);
    });

    it('keeps a regex as typed (spaces included)', async () => {
      const response = await createRule({ pattern: 'a  b ', match_type: 'regex', keywords: [kw['IPO']], enabled: false });
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(response.json().pattern, 'a  b ');
    });
  });

  describe('test this rule', () => {
    it('answers where an unsaved rule matches', async () => {
      const response = await testRule({ pattern: 'central bank', match_type: 'phrase', text: 'The Central  Bank met. central banking' });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), { matches: [{ start: 4, end: 17, text: 'Central  Bank' }], truncated: false });
    });

    it('tests a saved rule by id, with the keywords it adds', async () => {
      const response = await testRule({ id: fintechRule.id, text: 'Fintech and fintechs' });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json().matches, [{ start: 0, end: 7, text: 'Fintech' }]);
      assert.deepEqual(response.json().keywords, [{ id: kw['Fintech'], display_name: 'Fintech', kind: 'keyword' }]);
      assert.equal((await testRule({ id: '00000000-0000-0000-0000-000000000000', text: 'x' })).statusCode, 404);
    });

    it('a hostile regex against a long text answers (the linear-time matcher, see matcher.test.ts)', async () => {
      const response = await testRule({ pattern: '(a+)+$', match_type: 'regex', text: `${'a'.repeat(100_000)}!` });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().matches, []);
    });

    it('caps the matches it lists', async () => {
      const response = await testRule({ pattern: 'a', text: 'a '.repeat(1500) });
      assert.equal(response.json().matches.length, 1000);
      assert.equal(response.json().truncated, true);
    });

    const bad: Array<[string, Record<string, unknown>, string]> = [
      ['no text', { pattern: 'x' }, 'text'],
      ['text that is not text', { pattern: 'x', text: 5 }, 'text'],
      ['text over 200,000 characters', { pattern: 'x', text: 'x'.repeat(200_001) }, 'text'],
      ['no pattern', { text: 'x' }, 'pattern'],
      ['an unknown match type', { pattern: 'x', match_type: 'fuzzy', text: 'x' }, 'match_type'],
      ['a non-boolean case flag', { pattern: 'x', case_sensitive: 'yes please', text: 'x' }, 'case_sensitive'],
      ['an invalid regex', { pattern: '(?P<', match_type: 'regex', text: 'x' }, 'pattern'],
      ['an id that is not text', { id: 5, text: 'x' }, 'id'],
    ];
    for (const [what, payload, field] of bad) {
      it(`refuses ${what} with a 400 naming ${field}`, async () => {
        const response = await testRule(payload);
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(response.json().errors[field], response.body);
      });
    }
  });

  describe('applied on save', () => {
    before(async () => {
      for (const payload of [
        { pattern: 'bank', keywords: [kw['Banking']] },
        { pattern: '\\bIPO\\b|initial public offering', match_type: 'regex', keywords: [kw['IPO']] },
        { pattern: 'disabled words', match_type: 'phrase', keywords: [kw['Manual']], enabled: false },
      ]) {
        const response = await createRule(payload);
        assert.equal(response.statusCode, 201, response.body);
      }
      // A rule of another tenant never applies here.
      await createRule({ pattern: 'acme', keywords: [kw['beta']] }, 'beta', beta);
    });

    it('every resource with keywords and text gets the hook, except rules themselves', () => {
      const tagged = RESOURCES.filter((resource) => resource.beforeSave?.includes(applyTaggingRules)).map((resource) => resource.kind);
      for (const kind of ['organizations', 'people', 'terminology']) assert.ok(tagged.includes(kind), kind);
      assert.ok(!tagged.includes('tagging_rules'));
      assert.ok(!tagged.includes('keyword'));
    });

    it('adds the keywords of matching rules when an organization is created, keeping its own', async () => {
      const response = await t.request(acme, {
        method: 'POST', url: `${ORGS}/`, token: tokens['research'],
        payload: { name_inc: 'Acme Fintech Ltd', notes: 'A bank preparing its IPO. Disabled words here.', keywords: [kw['Manual']] },
      });
      assert.equal(response.statusCode, 201, response.body);
      assert.deepEqual(keywordNames(response.json()), ['Banking', 'Fintech', 'IPO', 'Manual']);
    });

    it('adds them when an edit changes the text, never removing any', async () => {
      const created = (await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: tokens['research'], payload: { name_inc: 'Plain Co', keywords: [kw['Manual']], visibility: 'paywalled' } })).json();
      assert.deepEqual(keywordNames(created), ['Manual']);
      const edited = await t.request(acme, { method: 'PATCH', url: `${ORGS}/${created.id}/`, token: tokens['research'], payload: { hq_city: 'Bank' } });
      assert.equal(edited.statusCode, 200, edited.body);
      assert.deepEqual(keywordNames(edited.json()), ['Banking', 'Manual']);
    });

    it('an edit that leaves the text alone does not add back a keyword removed by hand', async () => {
      const created = (await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: tokens['research'], payload: { name_inc: 'Fintech Two', visibility: 'paywalled' } })).json();
      assert.deepEqual(keywordNames(created), ['Fintech']);
      const removed = await t.request(acme, { method: 'PATCH', url: `${ORGS}/${created.id}/`, token: tokens['research'], payload: { keywords: [] } });
      assert.deepEqual(keywordNames(removed.json()), []);
      const other = await t.request(acme, { method: 'PATCH', url: `${ORGS}/${created.id}/`, token: tokens['research'], payload: { show_on_dashboard: true } });
      assert.equal(other.statusCode, 200, other.body);
      assert.deepEqual(keywordNames(other.json()), []);
    });

    it('applies to people and terms too', async () => {
      const person = await t.request(acme, { method: 'POST', url: '/api/v1/assets/people/', token: tokens['research'], payload: { name_given: 'Ada', about: 'Led the initial public offering.' } });
      assert.equal(person.statusCode, 201, person.body);
      assert.deepEqual(keywordNames(person.json()), ['IPO']);
      const term = await t.request(acme, { method: 'POST', url: '/api/v1/terminology/', token: tokens['research'], payload: { term: 'Neobank', definition: 'A fintech bank.' } });
      assert.deepEqual(keywordNames(term.json()), ['Banking', 'Fintech']);
    });

    it('a disabled rule does nothing until enabled', async () => {
      const rules = (await t.request(acme, { method: 'GET', url: `${RULES}/?enabled=false&match_type=phrase`, token: tokens['research'] })).json();
      const disabled = rules.results.find((rule: { pattern: string }) => rule.pattern === 'disabled words');
      await t.request(acme, { method: 'PATCH', url: `${RULES}/${disabled.id}/`, token: tokens['research'], payload: { enabled: true } });
      const created = await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: tokens['research'], payload: { name_inc: 'Disabled   Words Inc' } });
      assert.deepEqual(keywordNames(created.json()), ['Manual']);
    });

    it("deleting a rule's keyword leaves records and the rule consistent", async () => {
      const keyword = (await t.request(acme, { method: 'POST', url: '/api/v1/keywords/', token: tokens['research'], payload: { name: 'Temporary' } })).json();
      const rule = (await createRule({ pattern: 'temporary', keywords: [keyword.id, kw['Manual']] })).json();
      assert.equal((await t.request(acme, { method: 'DELETE', url: `/api/v1/keywords/${keyword.id}/`, token: tokens['research'] })).statusCode, 204);
      const after = (await t.request(acme, { method: 'GET', url: `${RULES}/${rule.id}/`, token: tokens['research'] })).json();
      assert.deepEqual(keywordNames(after), ['Manual']);
      const created = await t.request(acme, { method: 'POST', url: `${ORGS}/`, token: tokens['research'], payload: { name_inc: 'Temporary Ltd' } });
      assert.deepEqual(keywordNames(created.json()), ['Manual']);
    });
  });
});

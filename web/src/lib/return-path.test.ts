// The checkout's return parameter (lib/return-path.ts): paths of this site only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameOriginPath } from './return-path';

const ORIGIN = 'http://acme.localhost:5173';

describe('a return path from a link', () => {
  it('keeps a path of this site with its query and fragment', () => {
    assert.equal(sameOriginPath('/library/12?tab=1#notes', ORIGIN), '/library/12?tab=1#notes');
    assert.equal(sameOriginPath('/', ORIGIN), '/');
  });

  it('refuses other sites, schemes and tricks', () => {
    for (const value of [
      'https://evil.test/',
      '//evil.test/path',
      '/\\evil.test',
      '\\\\evil.test',
      'javascript:alert(1)',
      '/\t/evil.test',
      'library/12',
      '',
      null,
      undefined,
    ]) {
      assert.equal(sameOriginPath(value, ORIGIN), null, String(value));
    }
  });
});

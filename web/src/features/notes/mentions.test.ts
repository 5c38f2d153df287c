// @mentions in a note's text (features/notes/mentions.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handleOf, insertMention, matchingTeammates, mentionAt, mentionedIn } from './mentions';

const mate = { id: 'm', email: 'mate@acme.test', alias: 'mate' };
const admin = { id: 'a', email: 'admin@acme.test', alias: null };
const jane = { id: 'j', email: 'jane@acme.test', alias: 'Jane Doe' };

describe('note mentions', () => {
  it('finds the "@…" typed before the caret, and nothing inside a word or after a space', () => {
    assert.deepEqual(mentionAt('hi @ma', 6), { start: 3, query: 'ma' });
    assert.deepEqual(mentionAt('@', 1), { start: 0, query: '' });
    assert.deepEqual(mentionAt('ask @admin@acme', 15), { start: 4, query: 'admin@acme' });
    assert.equal(mentionAt('mail me@home', 12), null);
    assert.equal(mentionAt('hi @mate done', 13), null);
  });

  it('offers teammates whose handle or address starts with the query first', () => {
    assert.deepEqual(matchingTeammates([jane, mate, admin], 'a').map((user) => user.id), ['a', 'j', 'm']);
    assert.deepEqual(matchingTeammates([admin, mate, jane], 'ma').map((user) => user.id), ['m']);
    assert.deepEqual(matchingTeammates([admin, mate, jane], 'jane').map((user) => user.id), ['j']);
    assert.equal(matchingTeammates([admin, mate, jane], '').length, 3);
  });

  it('puts the handle in place of the query, and sends only the mentions the text still holds', () => {
    assert.equal(handleOf(jane), 'Jane_Doe');
    assert.equal(handleOf(admin), 'admin@acme.test');
    assert.deepEqual(insertMention('hi @ma, look', 3, 6, mate), { text: 'hi @mate, look', caret: 8 });
    assert.deepEqual(insertMention('hi @ma', 3, 6, mate), { text: 'hi @mate ', caret: 9 });
    assert.deepEqual(insertMention('hi @ma look', 3, 6, mate), { text: 'hi @mate look', caret: 9 });
    assert.deepEqual(mentionedIn('@mate and @admin@acme.test.', [mate, admin, jane]), ['m', 'a']);
    assert.deepEqual(mentionedIn('@mateo is someone else', [mate]), []);
  });
});

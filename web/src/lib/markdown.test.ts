// A fact's light formatting (features/facts/markdown.ts): bold, italic and http(s)/mailto links
// become nodes; raw HTML, other link schemes and stray markers stay text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInline, plainText, safeHref } from './markdown';

describe('fact text formatting', () => {
  it('reads bold, italic and links, nested', () => {
    assert.deepEqual(parseInline('a **b** *c* _d_ [**e** f](https://x.test/p?q=1)'), [
      { type: 'text', text: 'a ' },
      { type: 'strong', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'c' }] },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'd' }] },
      { type: 'text', text: ' ' },
      { type: 'link', href: 'https://x.test/p?q=1', children: [{ type: 'strong', children: [{ type: 'text', text: 'e' }] }, { type: 'text', text: ' f' }] },
    ]);
    assert.deepEqual(parseInline('**bold with *italic* inside**'), [
      { type: 'strong', children: [{ type: 'text', text: 'bold with ' }, { type: 'em', children: [{ type: 'text', text: 'italic' }] }, { type: 'text', text: ' inside' }] },
    ]);
    assert.deepEqual(parseInline('[mail](mailto:a@b.test)'), [{ type: 'link', href: 'mailto:a@b.test', children: [{ type: 'text', text: 'mail' }] }]);
  });

  it('keeps HTML as text and drops links it may not follow', () => {
    assert.deepEqual(parseInline('<b>x</b><script>alert(1)</script>'), [{ type: 'text', text: '<b>x</b><script>alert(1)</script>' }]);
    assert.deepEqual(parseInline('see [this](javascript:alert(1)) now'), [{ type: 'text', text: 'see this now' }]);
    assert.deepEqual(parseInline('[x](data:text/html,hi)'), [{ type: 'text', text: 'x' }]);
    assert.equal(safeHref('//evil.test'), null);
    assert.equal(safeHref(' HTTPS://ok.test '), 'HTTPS://ok.test');
  });

  it('leaves stray markers, escapes and snake_case alone', () => {
    assert.deepEqual(parseInline('2 * 3 * 4 and **open'), [{ type: 'text', text: '2 * 3 * 4 and **open' }]);
    assert.deepEqual(parseInline('snake_case_name'), [{ type: 'text', text: 'snake_case_name' }]);
    assert.deepEqual(parseInline('\\*not italic\\*'), [{ type: 'text', text: '*not italic*' }]);
    assert.deepEqual(parseInline('[no address] here'), [{ type: 'text', text: '[no address] here' }]);
  });

  it('gives the text as read', () => {
    assert.equal(plainText('**Acme** raised [$5m](https://x.test) in *2024*'), 'Acme raised $5m in 2024');
  });
});

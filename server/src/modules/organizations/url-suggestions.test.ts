import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractOrganizationSuggestion } from './url-suggestions.ts';

// Shaped like Yoast SEO output: one script, a @graph with WebPage, WebSite and Organization nodes.
const YOAST_GRAPH = `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>About us - Acme Widgets</title>
<meta name="description" content="Meta description that loses to JSON-LD.">
<link rel="canonical" href="https://www.acme.example/about/">
<meta property="og:site_name" content="Acme Site Name">
<script type="application/ld+json" class="yoast-schema-graph">{"@context":"https://schema.org","@graph":[
  {"@type":"WebPage","@id":"https://www.acme.example/about/","name":"About us","publisher":{"@id":"https://www.acme.example/#org"}},
  {"@type":"WebSite","@id":"https://www.acme.example/#website","name":"Acme"},
  {"@type":["Organization","Corporation"],"@id":"https://www.acme.example/#org","name":"Acme Widgets",
   "legalName":"Acme Widgets, Inc.","url":"https://www.acme.example/",
   "description":"Widgets since 1900.\\nFamily owned.",
   "email":"mailto:Info@Acme.example","telephone":"+1 (555) 010-0100",
   "contactPoint":[{"@type":"ContactPoint","email":"sales@acme.example","telephone":"+1-555-010-0200"},
                   {"@type":"ContactPoint","email":"INFO@acme.example","telephone":"+15550100100"}],
   "sameAs":["https://www.linkedin.com/company/acme-widgets","https://twitter.com/acme","https://en.wikipedia.org/wiki/Acme"]}
]}</script>
</head><body>
<a href="https://twitter.com/acme">Twitter</a>
<a href="https://github.com/acme-widgets">GitHub</a>
<a href="https://www.facebook.com/sharer/sharer.php?u=https://www.acme.example/">Share</a>
<a href="https://twitter.com/intent/tweet?text=hi">Tweet</a>
<a href="https://www.youtube.com/">YouTube home</a>
<a href="https://example.org/partner">Partner</a>
</body></html>`;

const META_ONLY = `<html><head>
<title>Globex Corporation | Innovation for tomorrow</title>
<meta property="og:title" content="Globex — Home">
<meta property="og:description" content="  Globex   builds
  things.  ">
<meta property="og:url" content="https://globex.example/">
</head><body>
<a href="mailto:hello@globex.example">Mail</a>
<a href="tel:+44 20 7946 0000">Call</a>
<a href="https://www.instagram.com/globex/">Instagram</a>
</body></html>`;

describe('extractOrganizationSuggestion', () => {
  it('reads the organization from a JSON-LD @graph', () => {
    const result = extractOrganizationSuggestion(YOAST_GRAPH, 'https://www.acme.example/about/?utm_source=x');
    assert.deepEqual(result, {
      name: 'Acme Widgets, Inc.',
      description: 'Widgets since 1900. Family owned.',
      emails: ['info@acme.example', 'sales@acme.example'],
      phones: ['+1 (555) 010-0100', '+1-555-010-0200'],
      associated_urls: [
        'https://www.acme.example/about/',
        'https://www.linkedin.com/company/acme-widgets',
        'https://twitter.com/acme',
        'https://en.wikipedia.org/wiki/Acme',
        'https://github.com/acme-widgets',
      ],
    });
  });

  it('falls back to meta tags and cleans a title suffix', () => {
    const result = extractOrganizationSuggestion(META_ONLY, 'https://globex.example/index.html');
    assert.deepEqual(result, {
      name: 'Globex',
      description: 'Globex builds things.',
      emails: ['hello@globex.example'],
      phones: ['+44 20 7946 0000'],
      associated_urls: ['https://globex.example/', 'https://www.instagram.com/globex/'],
    });
  });

  it('prefers og:site_name over titles', () => {
    const html = '<title>Products | Initech</title><meta property="og:site_name" content="Initech">';
    assert.equal(extractOrganizationSuggestion(html, 'https://initech.example/').name, 'Initech');
  });

  it('cleans <title> suffixes and generic segments', () => {
    const name = (title: string, url = 'https://example.net/') =>
      extractOrganizationSuggestion(`<title>${title}</title>`, url).name;
    assert.equal(name('Acme Corp | Making widgets since 1900'), 'Acme Corp');
    assert.equal(name('Acme - Home'), 'Acme');
    assert.equal(name('Home - Acme'), 'Acme');
    assert.equal(name('Welcome | Umbrella'), 'Umbrella');
    assert.equal(name('Widgets for everyone | Hooli', 'https://www.hooli.co.uk/'), 'Hooli');
    assert.equal(name('Coca-Cola Bottling'), 'Coca-Cola Bottling');
    assert.equal(name('Home'), 'Home');
    const page = (html: string) => extractOrganizationSuggestion(html, 'https://example.net/').name;
    assert.equal(page('<svg><title>icon</title></svg>'), null);
    assert.equal(page('<body><svg><title>icon</title></svg><title>Real Co</title></body>'), 'Real Co');
  });

  it('ignores malformed JSON-LD and keeps the valid blocks', () => {
    const html = `<head>
      <script type="application/ld+json">{"@type":"Organization","name":"Broken",}</script>
      <script type="application/ld+json">not json at all</script>
      <script type="application/ld+json"></script>
      <script type="application/ld+json; charset=utf-8">[{"@type":"WebSite","name":"Site"},
        {"@type":"http://schema.org/NGO","name":"Helping Hands","description":"We help."}]</script>
      <script type="application/ld+json">"just a string"</script>
      <meta name="description" content="Meta text">
    </head>`;
    const result = extractOrganizationSuggestion(html, 'https://hands.example/');
    assert.equal(result.name, 'Helping Hands');
    assert.equal(result.description, 'We help.');
  });

  it('tolerates JSON-LD wrapped in CDATA markers with raw newlines inside strings', () => {
    const html = `<script type="application/ld+json">//<![CDATA[
      {"@type":"Restaurant","name":"Chez Line","description":"Open late.
Closed Mondays."}
    //]]></script>`;
    const result = extractOrganizationSuggestion(html, 'https://chez.example/');
    assert.equal(result.name, 'Chez Line');
    assert.equal(result.description, 'Open late. Closed Mondays.');
  });

  it('finds the publisher when no organization is at the top level', () => {
    const html = `<script type="application/ld+json">{"@type":"WebSite","name":"Blog",
      "publisher":{"@type":"Organization","name":"Pub Co","sameAs":"https://x.com/pubco"}}</script>`;
    const result = extractOrganizationSuggestion(html, 'https://blog.example/');
    assert.equal(result.name, 'Pub Co');
    assert.deepEqual(result.associated_urls, ['https://blog.example/', 'https://x.com/pubco']);
  });

  it('prefers the organization whose url is on the page host', () => {
    const html = `<script type="application/ld+json">[
      {"@type":"Organization","name":"Partner","url":"https://partner.example/"},
      {"@type":"LocalBusiness","name":"Our Shop","url":"https://shop.example/"}]</script>`;
    assert.equal(extractOrganizationSuggestion(html, 'https://www.shop.example/contact').name, 'Our Shop');
  });

  it('decodes HTML entities in markup and in JSON-LD', () => {
    const html = `<title>Smith &amp; Sons &#8211; Est. 1920</title>
      <meta name="description" content="Caf&eacute;s &amp; bistros &quot;since&quot; 1920 &lt;3">
      <script type="application/ld+json">{"@type":"Corporation","name":"Smith &amp; Sons &#x2014; Ltd"}</script>`;
    const result = extractOrganizationSuggestion(html, 'https://smith.example/');
    assert.equal(result.name, 'Smith & Sons — Ltd');
    assert.equal(result.description, 'Cafés & bistros "since" 1920 <3');

    const noJsonLd = extractOrganizationSuggestion(html.replace(/<script[\s\S]*<\/script>/, ''), 'https://smith.example/');
    assert.equal(noJsonLd.name, 'Smith & Sons');
  });

  it('resolves a relative canonical URL against the page (and <base>)', () => {
    assert.deepEqual(
      extractOrganizationSuggestion('<link rel="canonical" href="/company#top">', 'https://acme.example/a/b?c=1').associated_urls,
      ['https://acme.example/company'],
    );
    assert.deepEqual(
      extractOrganizationSuggestion(
        '<base href="https://cdn.acme.example/site/"><link rel="Canonical Alternate" href="about">',
        'https://acme.example/',
      ).associated_urls,
      ['https://cdn.acme.example/site/about'],
    );
  });

  it('uses the page URL when there is no usable canonical', () => {
    const html = '<link rel="canonical" href="javascript:void(0)"><p>hi</p>';
    assert.deepEqual(extractOrganizationSuggestion(html, 'https://acme.example/home#x').associated_urls, ['https://acme.example/home']);
  });

  it('reads mailto: and tel: links with query strings and parameters', () => {
    const html = `
      <a href="mailto:info@acme.com?subject=hi&amp;body=Hello">Mail</a>
      <a href="MAILTO:Sales@Acme.com,support@acme.com?cc=boss%40acme.com">Several</a>
      <a href="mailto:info%40acme.com">Encoded duplicate</a>
      <a href="mailto:">Empty</a>
      <a href="mailto:not-an-address">Broken</a>
      <a href="tel:+1-201-555-0123;ext=42">Ext</a>
      <a href="tel:%2B49%2030%20123456?call=1">Encoded</a>
      <a href="tel:+49 30 123456">Duplicate digits</a>
      <a href="tel:12">Too short</a>`;
    const result = extractOrganizationSuggestion(html, 'https://acme.com/');
    assert.deepEqual(result.emails, ['info@acme.com', 'sales@acme.com', 'support@acme.com', 'boss@acme.com']);
    assert.deepEqual(result.phones, ['+1-201-555-0123 ext. 42', '+49 30 123456']);
  });

  it('caps lists at 20 and descriptions at 2000 characters', () => {
    const links = Array.from({ length: 30 }, (_, i) => `<a href="mailto:person${i}@acme.example">m</a>`).join('');
    const long = 'x'.repeat(2500);
    const result = extractOrganizationSuggestion(`<meta name="description" content="${long}">${links}`, 'https://acme.example/');
    assert.equal(result.emails.length, 20);
    assert.equal(result.description?.length, 2000);
  });

  it('returns empty suggestions for empty or malformed HTML without throwing', () => {
    const empty = { name: null, description: null, emails: [], phones: [], associated_urls: ['https://acme.example/'] };
    assert.deepEqual(extractOrganizationSuggestion('', 'https://acme.example/'), empty);
    assert.deepEqual(extractOrganizationSuggestion('<<<>>><a href=<title', 'https://acme.example/'), { ...empty, name: null });
    const garbage = '<html><head><title>Unclosed<meta content="x"<script type="application/ld+json">{"@type":';
    assert.doesNotThrow(() => extractOrganizationSuggestion(garbage, 'https://acme.example/'));
    assert.deepEqual(extractOrganizationSuggestion('<p>hi', 'not a url').associated_urls, []);
  });

  it('reads @value and @id objects and skips values that are not strings', () => {
    const html = `<script type="application/ld+json">{"@type":"Organization","name":{"@value":"Valued"},
      "email":["a@b.example",42,null],"telephone":{"x":1},"sameAs":[{"@id":"https://github.com/valued"},"notaurl:::"]}</script>`;
    const result = extractOrganizationSuggestion(html, 'https://valued.example/');
    assert.equal(result.name, 'Valued');
    assert.deepEqual(result.emails, ['a@b.example']);
    assert.deepEqual(result.phones, []);
    assert.deepEqual(result.associated_urls, ['https://valued.example/', 'https://github.com/valued']);
  });
});

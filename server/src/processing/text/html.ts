import { Readability } from '@mozilla/readability';
import { Parser } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import type { ExtractionContext } from './context.ts';

/** Pages larger than this skip Readability (which walks the DOM many times) for the plain text walk. */
const READABILITY_MAX_CHARS = 3_000_000;
/** Readability gives up (throws) on documents with more elements; the plain text walk then reads them. */
const READABILITY_MAX_ELEMENTS = 30_000;
/** An "article" shorter than this is not one (a cookie banner): the visible text is kept instead. */
const MIN_ARTICLE_CHARS = 80;

const NEVER_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'iframe', 'object', 'embed', 'canvas', 'select', 'button', 'input', 'textarea']);
/** Site chrome: left out of the visible-text fallback, which has no article to go by. */
const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'menu', 'form', 'dialog']);
const BLOCK = new Set([
  'address', 'article', 'blockquote', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul',
]);
const CELL = new Set(['td', 'th']);

/**
 * The readable text of HTML: block elements on their own lines, whitespace collapsed as a
 * browser would, scripts, styles and hidden elements left out (and site chrome too, when
 * `skipChrome`).
 */
export function htmlToText(html: string, skipChrome: boolean): string {
  const lines: string[] = [];
  let line = '';
  let skipDepth = 0;
  let preDepth = 0;
  const stack: boolean[] = [];
  const breakLine = () => {
    const trimmed = line.trim();
    if (trimmed !== '' || (lines.length > 0 && lines[lines.length - 1] !== '')) lines.push(trimmed);
    line = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const hidden =
          NEVER_TEXT.has(name) ||
          (skipChrome && CHROME.has(name)) ||
          'hidden' in attributes ||
          attributes['aria-hidden'] === 'true' ||
          /display\s*:\s*none|visibility\s*:\s*hidden/i.test(attributes.style ?? '');
        stack.push(hidden);
        if (hidden) skipDepth += 1;
        if (skipDepth > 0) return;
        if (name === 'pre') preDepth += 1;
        if (BLOCK.has(name)) breakLine();
        else if (CELL.has(name) && line.trim() !== '') line += ' | ';
        if (name === 'img' && attributes.alt?.trim()) line += ` ${attributes.alt.trim()} `;
      },
      ontext(text) {
        if (skipDepth > 0) return;
        if (preDepth > 0) {
          const [first, ...rest] = text.split('\n');
          line += first;
          for (const next of rest) {
            lines.push(line.trimEnd());
            line = next;
          }
        } else {
          line += text.replace(/\s+/g, ' ');
        }
      },
      onclosetag(name) {
        const hidden = stack.pop();
        if (hidden) {
          skipDepth -= 1;
          return;
        }
        if (skipDepth > 0) return;
        if (name === 'pre') preDepth -= 1;
        if (BLOCK.has(name) || name === 'p') breakLine();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  breakLine();
  return lines.join('\n');
}

interface Article {
  title: string;
  text: string;
}

/** The page's main content as Mozilla's Readability (Firefox's Reader View) finds it, or null. */
function readArticle(html: string): Article | null {
  if (html.length > READABILITY_MAX_CHARS) return null;
  try {
    const { document } = parseHTML(html);
    const article = new Readability(document as unknown as Document, { maxElemsToParse: READABILITY_MAX_ELEMENTS }).parse();
    if (!article?.content) return null;
    const text = htmlToText(article.content, false);
    if (text.replace(/\s+/g, '').length < MIN_ARTICLE_CHARS) return null;
    return { title: (article.title ?? '').trim(), text };
  } catch {
    // Readability throws on too many elements and on DOMs it cannot walk: the plain walk still works.
    return null;
  }
}

/** HTML: the article (with its title), else the visible text without navigation and footers. */
export function extractHtml(html: string, ctx: ExtractionContext): 'html' | 'html-visible' {
  const article = readArticle(html);
  if (article) {
    if (article.title && !article.text.trimStart().startsWith(article.title)) ctx.out.append(article.title, 'title');
    ctx.out.append(article.text, 'article');
    return 'html';
  }
  ctx.out.append(htmlToText(html, true), 'visible text');
  return 'html-visible';
}

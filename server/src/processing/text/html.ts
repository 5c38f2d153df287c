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
const ROW_PARTS = new Set(['tr', 'thead', 'tbody', 'tfoot']);

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
  // Inside a table cell a paragraph or line break is a space: a row stays one line ("cell | cell").
  let cellDepth = 0;
  const stack: boolean[] = [];
  const breakLine = () => {
    // Spaces from several text nodes and cells collapse as a browser shows them (not inside <pre>).
    const trimmed = preDepth > 0 ? line.trim() : line.replace(/ {2,}/g, ' ').trim();
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
        if (name === 'table' || name === 'tr') cellDepth = 0;
        if (CELL.has(name)) {
          if (line.trim() !== '') line += ' | ';
          cellDepth += 1;
        } else if (ROW_PARTS.has(name)) {
          // Rows follow each other on consecutive lines.
          if (line.trim() !== '') breakLine();
        } else if (BLOCK.has(name)) {
          if (cellDepth > 0) line += ' ';
          else breakLine();
        }
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
        if (CELL.has(name)) cellDepth = Math.max(0, cellDepth - 1);
        else if (ROW_PARTS.has(name)) {
          if (line.trim() !== '') breakLine();
        } else if (cellDepth > 0 && name !== 'table') line += ' ';
        else if (BLOCK.has(name) || name === 'p') breakLine();
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

/** Table rows the article left out: data pages (a datasheet, a price list) keep their numbers in tables Readability drops. */
const MIN_MISSING_ROWS = 2;

/**
 * HTML: the article (with its title) and the page's table rows it left out, else the visible
 * text without navigation and footers.
 */
export function extractHtml(html: string, ctx: ExtractionContext): 'html' | 'html-visible' {
  const article = readArticle(html);
  if (article) {
    if (article.title && !article.text.trimStart().startsWith(article.title)) ctx.out.append(article.title, 'title');
    ctx.out.append(article.text, 'article');
    if (html.includes('<t') || html.includes('<T')) {
      const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
      const inArticle = collapse(article.text);
      const missing = htmlToText(html, true)
        .split('\n')
        .map((line) => line.split('|').map(collapse).filter((cell) => cell !== ''))
        .filter((cells) => cells.length >= 2)
        .map((cells) => cells.join(' | '))
        .filter((row) => !inArticle.includes(row));
      if (missing.length >= MIN_MISSING_ROWS) ctx.out.append(missing.join('\n'), 'tables');
    }
    return 'html';
  }
  ctx.out.append(htmlToText(html, true), 'visible text');
  return 'html-visible';
}

/**
 * The light formatting of a fact (issue 18: bold, italic and links — a Markdown subset, never
 * raw HTML), parsed into a small tree the reader renders as React elements. Nothing here ever
 * becomes HTML markup: text stays text (React escapes it), and a link is kept only when its
 * address is http(s) or mailto; any other address, and any stray marker, is shown as written.
 *
 * Supported: `**bold**`, `*italic*` or `_italic_`, `[label](https://…)` (the label may hold
 * bold and italic), and `\` before a marker to show it as it is.
 */
export type InlineNode =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: InlineNode[] }
  | { type: 'em'; children: InlineNode[] }
  | { type: 'link'; href: string; children: InlineNode[] };

const ESCAPABLE = new Set(['\\', '*', '_', '[', ']', '(', ')']);

/** Whether a link's address may be followed: absolute http(s) and mailto only. */
export function safeHref(raw: string): string | null {
  const href = raw.trim();
  if (!/^(https?:\/\/|mailto:)/i.test(href)) return null;
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? href : null;
  } catch {
    return null;
  }
}

/** The position of the closing `marker` for one opened at `from`, or -1. */
function closing(text: string, marker: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    if (text[index] === '\\') {
      index += 1;
      continue;
    }
    if (!text.startsWith(marker, index)) continue;
    // A single `*` does not close on the first star of `**`: that one opens bold inside.
    if (marker === '*' && text[index + 1] === '*') {
      const inner = closing(text, '**', index + 2);
      if (inner === -1) return -1;
      index = inner + 1;
      continue;
    }
    const inner = text.slice(from, index);
    if (inner.trim() === '' || inner !== inner.trim()) continue;
    return index;
  }
  return -1;
}

/** The `)` closing an address that starts at `from`, parentheses inside it balanced; -1 if none. */
function addressEnd(text: string, from: number): number {
  let depth = 0;
  for (let index = from; index < text.length; index += 1) {
    const char = text[index];
    if (char === ' ' || char === '\n') return -1;
    if (char === '(') depth += 1;
    else if (char === ')') {
      if (depth === 0) return index;
      depth -= 1;
    }
  }
  return -1;
}

/** The `](address)` part of a link whose label opens at `from` (after `[`): the label's end and the address. */
function linkParts(text: string, from: number): { labelEnd: number; href: string; end: number } | null {
  let depth = 0;
  for (let index = from; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') {
      index += 1;
    } else if (char === '[') {
      depth += 1;
    } else if (char === ']') {
      if (depth > 0) {
        depth -= 1;
        continue;
      }
      if (text[index + 1] !== '(') return null;
      const close = addressEnd(text, index + 2);
      if (close === -1) return null;
      return { labelEnd: index, href: text.slice(index + 2, close), end: close + 1 };
    }
  }
  return null;
}

/** Parses a fact's text into inline nodes (see the module's comment for the subset). */
export function parseInline(text: string): InlineNode[] {
  const nodes: InlineNode[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') nodes.push({ type: 'text', text: plain });
    plain = '';
  };
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '\\' && ESCAPABLE.has(text[index + 1] ?? '')) {
      plain += text[index + 1];
      index += 2;
      continue;
    }
    if (text.startsWith('**', index)) {
      const end = closing(text, '**', index + 2);
      if (end !== -1) {
        flush();
        nodes.push({ type: 'strong', children: parseInline(text.slice(index + 2, end)) });
        index = end + 2;
        continue;
      }
    } else if (char === '*' || char === '_') {
      // An underscore inside a word (snake_case) is text.
      const wordBefore = char === '_' && /\w/.test(text[index - 1] ?? '');
      const end = wordBefore ? -1 : closing(text, char, index + 1);
      if (end !== -1 && !(char === '_' && /\w/.test(text[end + 1] ?? ''))) {
        flush();
        nodes.push({ type: 'em', children: parseInline(text.slice(index + 1, end)) });
        index = end + 1;
        continue;
      }
    } else if (char === '[') {
      const parts = linkParts(text, index + 1);
      if (parts) {
        const label = text.slice(index + 1, parts.labelEnd);
        const href = safeHref(parts.href);
        flush();
        const children = parseInline(label);
        // An address that may not be followed leaves the label as text, without the address.
        if (href) nodes.push({ type: 'link', href, children });
        else nodes.push(...children);
        index = parts.end;
        continue;
      }
    }
    plain += char;
    index += 1;
  }
  flush();
  return merged(nodes);
}

/** Adjacent text nodes joined (an unsafe link's label next to text). */
function merged(nodes: InlineNode[]): InlineNode[] {
  const out: InlineNode[] = [];
  for (const node of nodes) {
    const last = out.at(-1);
    if (node.type === 'text' && last?.type === 'text') last.text += node.text;
    else out.push(node.type === 'text' ? { ...node } : node);
  }
  return out;
}

/** The text as read, without its markers (search, titles, confirmations). */
export function plainText(text: string): string {
  const flatten = (nodes: InlineNode[]): string => nodes.map((node) => (node.type === 'text' ? node.text : flatten(node.children))).join('');
  return flatten(parseInline(text));
}

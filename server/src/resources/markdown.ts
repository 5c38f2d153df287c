/**
 * Light Markdown (a fact's text, docs/intelbooks.md): bold, italic and links, stored as
 * written and rendered by the web app with its own allow-list. No Markdown parser is among the
 * packages (marked, markdown-it), and a parser would not decide what may be stored anyway, so
 * input is checked by a small set of rules, each refusing what could become active content in
 * any renderer:
 *
 * 1. No raw HTML: `<` followed by a letter, `/`, `!` or `?` starts a tag, a comment or a
 *    processing instruction (also what an autolink `<https://…>` looks like: write the
 *    address bare or as a link). A lone `<` ("a < b") stays text.
 * 2. No images: `![alt](…)` and `![alt][ref]` (a renderer would fetch them).
 * 3. Every link target — inline `[text](target)` and reference definitions `[ref]: target` —
 *    starts with `http://`, `https://` or `mailto:` (compared ignoring case). An allow-list of
 *    prefixes, not a block-list of schemes: `javascript:`, `data:`, entity-encoded schemes
 *    (`&#106;avascript:`), protocol-relative and relative targets all fail it.
 */

const TAG = /<[A-Za-z/!?]/;
const IMAGE = /!\[[^\]]*\]\s*[([]/;
const INLINE_TARGET = /\]\(\s*<?([^\s)>]*)/g;
const REFERENCE_TARGET = /^ {0,3}\[[^\]]+\]:[ \t]*<?(\S*?)>?(?:\s|$)/gm;
const ALLOWED_TARGET = /^(https?:\/\/[^\s]+|mailto:[^\s]+)$/i;

/** Why `text` is not allowed light Markdown, or null when it is. */
export function markdownProblem(text: string): string | null {
  const tag = TAG.exec(text);
  if (tag) return `Raw HTML is not allowed (found "${text.slice(tag.index, tag.index + 12).split(/\s/)[0]}"); use **bold**, *italic* and [links](https://…).`;
  if (IMAGE.test(text)) return 'Images are not allowed; link to the picture instead.';
  for (const pattern of [INLINE_TARGET, REFERENCE_TARGET]) {
    for (const match of text.matchAll(pattern)) {
      const target = match[1] ?? '';
      if (!ALLOWED_TARGET.test(target)) {
        return target === ''
          ? 'A link needs an address (http://, https:// or mailto:).'
          : `Links may only go to http://, https:// or mailto: addresses (found "${target.slice(0, 40)}").`;
      }
    }
  }
  return null;
}

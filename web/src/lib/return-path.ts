/**
 * Where to send a reader back to, from a parameter anyone can put in a link (the checkout's
 * `next`): only a path of this site is accepted — absolute addresses, protocol-relative ones
 * ("//evil.test"), backslash tricks ("/\\evil.test") and other schemes are refused, so a link
 * cannot send a freshly signed-in reader to another site.
 */
export function sameOriginPath(value: string | null | undefined, origin: string): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  // Control characters (a tab or newline inside "/\t/evil.test") are dropped by URL parsers.
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return null;
  try {
    const url = new URL(value, origin);
    if (url.origin !== new URL(origin).origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

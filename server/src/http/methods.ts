/**
 * Requests by these methods never write: they need no read-cache notification at commit, no
 * cache invalidation and no read-your-writes mark. Every other method may have written.
 */
export const READ_ONLY_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

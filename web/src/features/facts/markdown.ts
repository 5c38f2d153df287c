/** Facts' text is the shared light Markdown (lib/markdown.ts), which notes use too. */
export * from '../../lib/markdown';

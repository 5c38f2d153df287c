/**
 * A module hook (node:module register) for worker processes: the ES modules of installed
 * packages (`node_modules/**.mjs`) are loaded as they are, without passing through tsx's load
 * hook. They are plain JavaScript and need no transform, and tsx's handling of pdf.js's
 * 2 MB modules (which `import()` their worker) grew a worker by ~300 MiB that V8 never gave
 * back: opening a one-page PDF took a process from 137 to 456 MiB RSS, 169 with this hook
 * (docs/processes.md "Memory"). Plain JavaScript, because hooks run in their own thread.
 */
import { readFile } from 'node:fs/promises';

export async function load(url, context, nextLoad) {
  if (url.startsWith('file://') && url.includes('/node_modules/') && url.endsWith('.mjs')) {
    return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true };
  }
  return nextLoad(url, context);
}

/**
 * What a process spent its CPU on, from a V8 CPU profile (`--cpu-prof`, e.g. the API's from
 * `BENCH_CPU_PROF=1 node --import tsx bench/api-under-processing.ts`): self time by function and by
 * package or source file, and how much of the time the process was idle, collecting garbage or in
 * V8 itself. With the run's results (the path of its .md/.json/.log without the extension), only
 * the samples inside each phase — the profile's end is taken as the moment the supervisor logged
 * the SIGTERM (the API stops within a few hundred ms of it, so the phases are placed within about
 * a second).
 *
 *   node --import tsx bench/cpu-profile.ts bench/results/cpu-…/CPU.….cpuprofile [bench/results/api-under-processing-…]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [profileFile, resultsBase] = process.argv.slice(2);
if (!profileFile) {
  console.error('usage: node --import tsx bench/cpu-profile.ts <file.cpuprofile> [results base path]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** Where a frame's code lives: a package, a file of ours, or V8's own bucket. */
function place(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native or builtin)';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1]!;
  if (url.startsWith('node:')) return url;
  const ours = /\/((?:server|bench)\/src\/.*|bench\/.*)$/.exec(url);
  return ours ? ours[1]! : url;
}
const label = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${place(node)}${node.callFrame.url ? `:${node.callFrame.lineNumber + 1}` : ''}`;

/** The first frame of our own code (server/src) on the sample's stack, for "on behalf of". */
function ownCaller(id: number): string {
  for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
    const node = byId.get(current)!;
    if (/\/server\/src\//.test(node.callFrame.url)) return label(node);
  }
  return '(no frame of server/src)';
}

// Sample times (µs on the profile's clock).
const times: number[] = [];
let clock = profile.startTime;
for (const delta of profile.timeDeltas) times.push((clock += delta));

/** The `count` seconds of [from, to) in which the process was busiest, each with its top functions and frames of ours. */
function busiestSeconds(from: number, to: number, count: number, zero: number): void {
  const seconds = new Map<number, Array<[number, number]>>();
  profile.samples.forEach((id, index) => {
    const at = times[index]!;
    if (at < from || at >= to || byId.get(id)!.callFrame.functionName === '(idle)') return;
    const second = Math.floor((at - zero) / 1_000_000);
    const list = seconds.get(second) ?? [];
    list.push([id, (profile.timeDeltas[index + 1] ?? 0) / 1000]);
    seconds.set(second, list);
  });
  const busiest = [...seconds].map(([second, list]) => ({ second, list, busy: list.reduce((sum, [, ms]) => sum + ms, 0) })).sort((a, b) => b.busy - a.busy).slice(0, count);
  for (const { second, list, busy } of busiest) {
    const self = new Map<string, number>();
    const ours = new Map<string, number>();
    for (const [id, ms] of list) {
      const name = label(byId.get(id)!);
      self.set(name, (self.get(name) ?? 0) + ms);
      const caller = ownCaller(id);
      ours.set(caller, (ours.get(caller) ?? 0) + ms);
    }
    const top = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`).join('; ');
    console.log(`- second ${second}: ${busy.toFixed(0)} ms busy. Self: ${top(self)}. Innermost server/src: ${top(ours)}`);
  }
}

function report(title: string, from: number, to: number): void {
  const self = new Map<string, number>();
  const places = new Map<string, number>();
  const callers = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const at = times[index]!;
    if (at < from || at >= to) return;
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    const node = byId.get(id)!;
    total += ms;
    if (node.callFrame.functionName === '(idle)') {
      idle += ms;
      return;
    }
    self.set(label(node), (self.get(label(node)) ?? 0) + ms);
    places.set(place(node), (places.get(place(node)) ?? 0) + ms);
    const caller = ownCaller(id);
    callers.set(caller, (callers.get(caller) ?? 0) + ms);
  });
  const busy = total - idle;
  const top = (map: Map<string, number>, count: number) =>
    [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, ms]) => `| ${name.replace(/\|/g, '\\|')} | ${ms.toFixed(0)} | ${((ms / Math.max(busy, 1)) * 100).toFixed(1)}% |`);
  console.log(`\n## ${title}: ${(total / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy (${((busy / Math.max(total, 1)) * 100).toFixed(0)}%), ${(idle / 1000).toFixed(1)} s idle\n`);
  console.log('| Package or file (self time) | ms | of busy |\n|---|---:|---:|');
  console.log(top(places, 15).join('\n'));
  console.log('\n| Function (self time) | ms | of busy |\n|---|---:|---:|');
  console.log(top(self, 25).join('\n'));
  console.log('\n| Innermost frame of server/src on the stack | ms | of busy |\n|---|---:|---:|');
  console.log(top(callers, 15).join('\n'));
}

console.log(`# ${path.basename(profileFile)}`);
report('whole profile', -Infinity, Infinity);
if (resultsBase) {
  const results = JSON.parse(readFileSync(`${resultsBase}.json`, 'utf8')) as { results: Array<{ phase: string; wallWindow?: [number, number] }> };
  const sigterm = readFileSync(`${resultsBase}.log`, 'utf8').split('\n').find((line) => line.includes('"role":"supervisor"') && line.includes('shutting down'));
  const endWall = sigterm ? (JSON.parse(sigterm) as { time: number }).time : NaN;
  if (!Number.isFinite(endWall)) throw new Error('no SIGTERM line of the supervisor in the log');
  // Profile clock (µs) = wall (ms) * 1000 + offset.
  const offset = profile.endTime - endWall * 1000;
  for (const result of results.results) {
    if (!result.wallWindow) continue;
    const from = result.wallWindow[0] * 1000 + offset;
    const to = result.wallWindow[1] * 1000 + offset;
    report(`phase ${result.phase}`, from, to);
    console.log(`\nThe busiest seconds of the ${result.phase} phase (counted from its start):\n`);
    busiestSeconds(from, to, 5, from);
  }
}

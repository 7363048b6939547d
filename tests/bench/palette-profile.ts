/**
 * Where a CPU profile's time goes, by source module: for `npm run bench:palette -- --profile`,
 * which builds the bench page unminified, where rolldown heads every module with a
 * `// node_modules/…` or `// ../../../src/…` line.
 */

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

const MODULE_HEAD = /^\/\/ (\S+\.(?:m?js|cjs|tsx?|jsx))$/;

/** The module a bundle line belongs to, from the bundle's module head comments. */
export function moduleIndex(bundle: string): (line: number) => string {
  const heads: { line: number; name: string }[] = [];
  bundle.split('\n').forEach((text, line) => {
    const m = MODULE_HEAD.exec(text);
    if (m?.[1]) heads.push({ line, name: m[1] });
  });
  return (line) => {
    let lo = 0;
    let hi = heads.length - 1;
    let found = '(bundle prelude)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const h = heads[mid] as { line: number; name: string };
      if (h.line <= line) {
        found = h.name;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** Module names short enough for a table: a package name, or a path under src/ or tests/. */
export function shortModule(name: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(name);
  if (pkg?.[1]) return pkg[1];
  const local = /((?:src|tests)\/.*)$/.exec(name);
  return local?.[1] ?? name;
}

export interface SelfTime {
  totalMs: number;
  byModule: [string, number][];
  byFunction: [string, number][];
}

/** Self time per module and per function (ms) over several profiles, `(idle)` left out. */
export function selfTime(profiles: readonly CpuProfile[], bundleUrl: string, moduleOf: (line: number) => string, bundleLines: readonly string[] = []): SelfTime {
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) {
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      const node = nodes.get(samples[i] as number);
      // timeDeltas[i] is the gap before sample i; the time a sample stands for is the gap after it.
      const dt = ((deltas[i + 1] ?? 0) as number) / 1000;
      if (!node || dt <= 0) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      if (functionName === '(idle)') continue;
      let mod: string;
      if (url === bundleUrl) mod = shortModule(moduleOf(lineNumber));
      else if (!url) mod = functionName.startsWith('(') ? functionName : '(native)';
      else mod = url.startsWith('http') ? '(other script)' : url;
      total += dt;
      byModule.set(mod, (byModule.get(mod) ?? 0) + dt);
      // An anonymous function is named by the bundle line it starts on (unminified, so readable).
      const where = url === bundleUrl && !functionName ? (bundleLines[lineNumber] ?? '').trim().slice(0, 70) : '';
      const fn = `${functionName || (where ? `(anonymous) \`${where}\`` : '(anonymous)')} · ${mod}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + dt);
    }
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs: total, byModule: sorted(byModule), byFunction: sorted(byFunction) };
}

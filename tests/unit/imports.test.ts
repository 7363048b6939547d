import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** DESIGN §2: shared ← client, shared ← server; shared runs in the browser too. */
const root = path.resolve(__dirname, '../../src');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
}

function violations(area: string, forbidden: (spec: string, resolved: string) => boolean): string[] {
  return files(path.join(root, area)).flatMap((file) =>
    importsOf(file)
      .filter((spec) => forbidden(spec, spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : spec))
      .map((spec) => `${path.relative(root, file)} → ${spec}`),
  );
}

const inside = (resolved: string, area: string) => resolved.startsWith(path.join(root, area) + path.sep);

describe('one-way imports', () => {
  it('shared imports neither client, server, node built-ins nor database code', () => {
    expect(
      violations('shared', (spec, r) => inside(r, 'client') || inside(r, 'server') || spec.startsWith('node:') || /^(drizzle-orm|pg|@electric-sql|fastify|react)/.test(spec)),
    ).toEqual([]);
  });

  it('the client never imports the server, and the server never imports the client', () => {
    expect(violations('client', (_s, r) => inside(r, 'server'))).toEqual([]);
    expect(violations('server', (_s, r) => inside(r, 'client'))).toEqual([]);
  });

  it('file names are kebab-case', () => {
    const bad = files(root).filter((f) => !/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*\.(ts|tsx)$/.test(path.basename(f)));
    expect(bad.map((f) => path.relative(root, f))).toEqual([]);
  });
});

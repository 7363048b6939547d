// The hash of a build's inputs, shared by the two builds `npm start` skips when nothing changed: the
// server bundle (launch.mjs, plain JavaScript: it runs before any TypeScript loader) and the console
// (console-build.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

function files(root, rel) {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [rel];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .flatMap((e) => files(root, path.join(rel, e.name)))
    .sort();
}

/** The sha256 of every input file's path and bytes, in a fixed order (hex). */
export function inputsHash(root, inputs) {
  const hash = createHash('sha256');
  for (const rel of inputs.flatMap((i) => files(root, i))) {
    hash.update(`${rel.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, rel)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

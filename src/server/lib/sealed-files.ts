import { createHash } from 'node:crypto';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/connection';
import { sealedFiles } from '../db/schema';
import type { Pii } from './pii';

/**
 * Applicants' images, sealed at rest (the `sealed_files` frame table): the review queues of 线上验卡,
 * 线上办卡 and 意见反馈 store through here and read back only through their own reasoned, audited
 * `material` call (second wave §1). Each module reads and purges only its own kind.
 */
export type SealedFileKind = 'verify' | 'handle' | 'feedback';

export interface NewSealedFile {
  kind: SealedFileKind;
  refId: number;
  label: string;
  mime: string;
  data: Buffer;
  width?: number;
  height?: number;
}

/** What a list or a detail may show of a file: never its bytes. */
export interface SealedFileInfo {
  id: number;
  label: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  sha256: string;
  purged: boolean;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Seals and stores files (in the caller's transaction); answers their ids in order. */
export async function storeSealedFiles(db: Db, pii: Pii, files: readonly NewSealedFile[], now: Date): Promise<number[]> {
  if (!files.length) return [];
  const rows = await db
    .insert(sealedFiles)
    .values(
      files.map((f) => ({
        kind: f.kind,
        refId: f.refId,
        label: f.label,
        mime: f.mime,
        bytes: f.data.length,
        width: f.width ?? null,
        height: f.height ?? null,
        sha256: sha256(f.data),
        data: pii.sealBytes(f.data),
        createdAt: now,
      })),
    )
    .returning({ id: sealedFiles.id });
  return rows.map((r) => r.id);
}

/** The files of some records of one kind, without their bytes, by record id. */
export async function sealedFileInfos(db: Db, kind: SealedFileKind, refIds: readonly number[]): Promise<Map<number, SealedFileInfo[]>> {
  const out = new Map<number, SealedFileInfo[]>();
  if (!refIds.length) return out;
  const rows = await db
    .select({
      id: sealedFiles.id,
      refId: sealedFiles.refId,
      label: sealedFiles.label,
      mime: sealedFiles.mime,
      bytes: sealedFiles.bytes,
      width: sealedFiles.width,
      height: sealedFiles.height,
      sha256: sealedFiles.sha256,
      purgedAt: sealedFiles.purgedAt,
    })
    .from(sealedFiles)
    .where(and(eq(sealedFiles.kind, kind), inArray(sealedFiles.refId, [...refIds])))
    .orderBy(sealedFiles.id);
  for (const { refId, purgedAt, ...r } of rows) out.set(refId, [...(out.get(refId) ?? []), { ...r, purged: purgedAt !== null }]);
  return out;
}

/**
 * One file's bytes, opened: only when it belongs to the given record of the given kind (a file id
 * of another application answers nothing). Null when missing or purged. The caller checks the
 * permission and the district, asks for the reason and writes the audit row.
 */
export async function openSealedFile(db: Db, pii: Pii, kind: SealedFileKind, refId: number, fileId: number): Promise<{ info: SealedFileInfo; data: Buffer } | null> {
  const [row] = await db
    .select()
    .from(sealedFiles)
    .where(and(eq(sealedFiles.id, fileId), eq(sealedFiles.kind, kind), eq(sealedFiles.refId, refId)));
  if (!row?.data) return null;
  const { data, purgedAt, refId: _ref, kind: _kind, createdAt: _at, ...info } = row;
  return { info: { ...info, purged: purgedAt !== null }, data: pii.openBytes(data) };
}

/** Drops the bytes of these records' files (the hash stays); answers how many were purged. */
export async function purgeSealedFiles(db: Db, kind: SealedFileKind, refIds: readonly number[], now: Date): Promise<number> {
  if (!refIds.length) return 0;
  const rows = await db
    .update(sealedFiles)
    .set({ data: null, purgedAt: now })
    .where(and(eq(sealedFiles.kind, kind), inArray(sealedFiles.refId, [...refIds]), isNotNull(sealedFiles.data)))
    .returning({ id: sealedFiles.id });
  return rows.length;
}

/**
 * A generated stand-in image for the demo and the tests (second wave §4: placeholders, no faces):
 * an SVG of the given size naming what it stands for. Real uploads are PNG or JPEG.
 */
export function placeholderImage(label: string, width: number, height: number, tint = '#dbeafe'): { mime: string; data: Buffer; width: number; height: number } {
  const text = label.replace(/[<>&"']/g, '');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${tint}"/><rect x="8" y="8" width="${width - 16}" height="${height - 16}" fill="none" stroke="#64748b" stroke-dasharray="6 4"/><text x="50%" y="50%" font-size="${Math.round(Math.min(width, height) / 8)}" text-anchor="middle" dominant-baseline="middle" fill="#334155">${text}</text></svg>`;
  return { mime: 'image/svg+xml', data: Buffer.from(svg, 'utf8'), width, height };
}

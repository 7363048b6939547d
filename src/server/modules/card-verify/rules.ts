import { isValidCitizenId } from '../../../shared/domain/citizen-id';
import { shanghaiDate } from '../../../shared/domain/time';
import { type Checks, MATERIAL_KINDS, type VerifyCategory } from '../../../shared/api/card-verify';

/**
 * The automatic checks (second wave §4), pure: what a submission is judged on and what an approval
 * re-checks against the live card. Kept apart from the service so the seed computes the same.
 */

export interface ConfigValues {
  enabled: boolean;
  windowMonthsBefore: number;
  validMonths: number;
  requireFace: boolean;
  faceThreshold: number;
  requireOcr: boolean;
  yearlyProof: boolean;
  graceDays: number;
  suspendOnMiss: boolean;
  ageMin: number;
  ageMax: number;
  materials: string[];
  noticeCode: string | null;
}

/** The design's defaults per category (老年 60+, 学生 6–22; S8–S10). */
export function defaultConfig(category: VerifyCategory): ConfigValues {
  return category === 5
    ? { enabled: true, windowMonthsBefore: 3, validMonths: 12, requireFace: true, faceThreshold: 80, requireOcr: true, yearlyProof: false, graceDays: 30, suspendOnMiss: true, ageMin: 60, ageMax: 120, materials: [MATERIAL_KINDS[0], MATERIAL_KINDS[1], MATERIAL_KINDS[4]], noticeCode: 'VERIFY_DUE_SENIOR' }
    : { enabled: true, windowMonthsBefore: 3, validMonths: 12, requireFace: true, faceThreshold: 80, requireOcr: true, yearlyProof: true, graceDays: 30, suspendOnMiss: true, ageMin: 6, ageMax: 22, materials: [MATERIAL_KINDS[0], MATERIAL_KINDS[1], MATERIAL_KINDS[2], MATERIAL_KINDS[3], MATERIAL_KINDS[4]], noticeCode: 'VERIFY_DUE_STUDENT' };
}

/** The birth date a citizen id carries, `YYYY-MM-DD` (null when the id has none that exists). */
export function birthDateOf(idNo: string): string | null {
  const id = idNo.trim();
  if (!/^\d{17}[\dXx]$/.test(id)) return null;
  const [y, m, d] = [Number(id.slice(6, 10)), Number(id.slice(10, 12)), Number(id.slice(12, 14))];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`;
}

/** Whole years from a birth date to a Shanghai day. */
export function ageOn(birth: string | null, day: string): number | null {
  if (!birth) return null;
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** A Shanghai day plus whole months (the 31st into a shorter month ends on its last day). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return `${first.getUTCFullYear()}-${String(first.getUTCMonth() + 1).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export interface CheckInput {
  idNo: string;
  category: VerifyCategory;
  cardState: number;
  /** The blind index of the card holder's citizen id (null: the card has no known holder). */
  holderIdx: string | null;
  /** The blind index of the applicant's id. */
  idIdx: string;
  faceScore: number | null;
  config: Pick<ConfigValues, 'ageMin' | 'ageMax' | 'requireFace' | 'faceThreshold'>;
  now: Date;
}

export function computeChecks(q: CheckInput): { checks: Checks; birthDate: string | null; age: number | null; autoPass: boolean } {
  const birthDate = birthDateOf(q.idNo);
  const age = ageOn(birthDate, shanghaiDate(q.now));
  const checks: Checks = {
    idChecksum: isValidCitizenId(q.idNo, q.now),
    age: age !== null && age >= q.config.ageMin && age <= q.config.ageMax,
    cardState: q.cardState === 1,
    holderMatch: q.holderIdx !== null && q.holderIdx === q.idIdx,
    face: !q.config.requireFace || (q.faceScore !== null && q.faceScore >= q.config.faceThreshold),
  };
  return { checks, birthDate, age, autoPass: Object.values(checks).every(Boolean) };
}

/** Province and region codes: the first two digits of a citizen id (GB/T 2260). */
const PROVINCES = new Set([
  '11', '12', '13', '14', '15', '21', '22', '23', '31', '32', '33', '34', '35', '36', '37', '41', '42', '43', '44', '45', '46',
  '50', '51', '52', '53', '54', '61', '62', '63', '64', '65', '71', '81', '82', '91',
]);
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

/** The check character of the first 17 characters (GB 11643: weights, sum mod 11 → 1 0 X 9 8 7 6 5 4 3 2). */
export function citizenCheckChar(first17: string): string {
  const sum = WEIGHTS.reduce((acc, w, i) => acc + w * Number(first17[i]), 0);
  return CHECK[sum % 11]!;
}

/**
 * The spec's rule (§5): 18 characters, a known province, a real birth date, the mod-11 check; X in
 * either case. Births from 1800 (GB 11643's own example is born in 1880) up to `today`, never later.
 */
export function isValidCitizenId(raw: string, today: Date = new Date()): boolean {
  const id = raw.trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  if (!PROVINCES.has(id.slice(0, 2))) return false;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1800 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  if (date.getTime() > today.getTime()) return false;
  return citizenCheckChar(id) === id[17];
}

/**
 * Masking of personal data for places where a record is shown to people who may not read it in
 * full (the system log now; riders and cards later). Pure: no Node, no DOM.
 *
 * Shapes kept, so a reader can still tell records apart and a support call can confirm a number:
 *   mobile       13800138001         → 138****8001          (3 + 4 hidden + 4)
 *   citizen id   11010519491231002X  → 110***********002X   (province kept; county, birth date hidden; sequence/check kept)
 *   name         欧阳娜娜            → 欧***                 (first character)
 * Anything else is masked in the middle, never shown in more than half.
 */

const MASK = '*';
const stars = (n: number) => MASK.repeat(Math.max(0, n));

/** Code points, so a name in an astral plane is not cut in half. */
const chars = (s: string) => Array.from(s);

/** Keeps a short head and tail of an arbitrary string; short strings are hidden entirely. */
function maskMiddle(s: string): string {
  const c = chars(s);
  if (c.length <= 4) return stars(c.length);
  const [head, tail] = c.length >= 8 ? [3, 2] : [1, 1];
  return c.slice(0, head).join('') + stars(c.length - head - tail) + c.slice(c.length - tail).join('');
}

const MOBILE = /^1[3-9]\d{9}$/;
const MASKED_MOBILE = /^\d{3}\*{4}\d{4}$/;
/** Region (first digit 1–9), a birth date of 18xx–20xx that could exist, sequence, check. Checksum not required: a typo is still personal. */
const CITIZEN_ID = /^[1-9]\d{5}(18|19|20)\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}[\dXx]$/;
const MASKED_CITIZEN_ID = /^\d{3}\*{11}\d{3}[\dXx]$/;

/** 11-digit numbers starting with 1 → `138****8001`; other lengths keep at most the first 3 and last 2. */
export function maskPhone(raw: string): string {
  const s = raw.trim();
  if (MASKED_MOBILE.test(s)) return s;
  if (/^1\d{10}$/.test(s)) return `${s.slice(0, 3)}****${s.slice(7)}`;
  return maskMiddle(s);
}

/**
 * 18 characters → the first 3, 11 stars (county and birth date), the last 4 (sequence and check):
 * `110***********123X` as the call centre reads it out; the older 15-digit form → the first 3, 9
 * stars, the last 3; anything else in the middle.
 */
export function maskCitizenId(raw: string): string {
  const s = raw.trim();
  if (MASKED_CITIZEN_ID.test(s)) return s;
  const c = chars(s);
  if (c.length === 18) return `${c.slice(0, 3).join('')}${stars(11)}${c.slice(14).join('')}`;
  if (c.length === 15) return `${c.slice(0, 3).join('')}${stars(9)}${c.slice(12).join('')}`;
  return maskMiddle(s);
}

/** 张三 → 张*, 欧阳娜娜 → 欧***: the first character and one star per hidden character. */
export function maskName(raw: string): string {
  const c = chars(raw.trim());
  if (c.length <= 1) return stars(c.length);
  return (c[0] ?? '') + stars(c.length - 1);
}

/** True for a string that is, once trimmed, exactly a mainland mobile number. */
export const looksLikeMobile = (s: string) => MOBILE.test(s.trim());
/** True for a string that is, once trimmed, exactly an 18-character citizen id in form (checksum not checked). */
export const looksLikeCitizenId = (s: string) => CITIZEN_ID.test(s.trim());

/**
 * Whether a typed query holds a number that may name a person or a card: seven or more digits in a
 * row once every separator is dropped and full-width digits (a Chinese IME's) read as digits: a
 * phone `138 0013 8001`, `138.0013.8001` or `１３８００１３８００１`, a citizen id, a card number, or
 * the better part of one typed so far. A search by name never sends such a query to the server:
 * its GET would put the number in a URL, which proxies, access logs and saved HAR files keep.
 */
export const holdsPersonalNumber = (q: string): boolean => /\d{7}/.test(q.normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ''));

type Kind = 'phone' | 'citizenId' | 'name';

/** Keys compared lower-case without `_`, `-` or spaces: `id_card`, `ID-Card` and `idCard` are one key. */
const normalize = (key: string) => key.toLowerCase().replace(/[\s_-]/g, '');

const PHONE_KEYS = new Set(['phone', 'mobile', 'tel', 'telephone', 'telno', 'phoneno', 'phonenumber', 'mobileno', 'mobilenumber', 'cellphone', 'contactphone', 'contacttel']);
const CITIZEN_ID_KEYS = new Set(['idcard', 'idcardno', 'idcardnumber', 'citizenid', 'citizenidno', 'idno', 'idnumber', 'certno', 'certnumber', 'certificateno', 'certificatenumber', 'identityno', 'identitynumber']);
const NAME_KEYS = new Set(['realname', 'holdername', 'cardholdername', 'ridername', 'contactname', 'fullname']);

/** Credentials: never stored, not even masked. */
function isSecretKey(k: string): boolean {
  return k.includes('password') || k.includes('passwd') || k === 'pwd' || k.endsWith('secret') || k.endsWith('token');
}

function kindOfKey(k: string): Kind | null {
  if (PHONE_KEYS.has(k) || k.endsWith('phone') || k.endsWith('mobile')) return 'phone';
  if (CITIZEN_ID_KEYS.has(k)) return 'citizenId';
  if (NAME_KEYS.has(k)) return 'name';
  return null;
}

const MASKERS: Record<Kind, (s: string) => string> = { phone: maskPhone, citizenId: maskCitizenId, name: maskName };

/** Whatever its key: a value that is exactly a mobile number or a citizen id is masked, and so is one inside free text. */
function backstop(s: string): string {
  if (looksLikeMobile(s)) return maskPhone(s);
  if (looksLikeCitizenId(s)) return maskCitizenId(s);
  return maskInText(s);
}

/**
 * Free text an operator typed (a note, a reason) may quote a number: a mobile number or a citizen id
 * standing alone among other characters (a phone also as `139 1234 5678`) is masked where it stands. Digit runs of other lengths
 * (card numbers, order numbers, dates) are left as they are.
 */
export function maskInText(s: string): string {
  return s.replace(/(?<![\dA-Za-z])\d{17}[\dXx](?![\dA-Za-z])/g, (m) => maskCitizenId(m)).replace(/(?<!\d)1[3-9]\d(?:[\s-]?\d){8}(?!\d)/g, (m) => maskPhone(m.replace(/[\s-]/g, '')));
}

/** As JSON.stringify would see it: a Date becomes its ISO string, not an empty object. */
function toJsonish(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}

function walk(raw: unknown, kind: Kind | null): unknown {
  const value = toJsonish(raw);
  if (typeof value === 'string') return kind ? MASKERS[kind](value) : backstop(value);
  // A number where a phone is expected (or an 11-digit mobile anywhere) is masked as its digits.
  if (typeof value === 'number') {
    if (kind) return MASKERS[kind](String(value));
    return Number.isSafeInteger(value) && looksLikeMobile(String(value)) ? maskPhone(String(value)) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => walk(v, kind));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const k = normalize(key);
    if (isSecretKey(k)) continue;
    // Everything under a personal key is that kind of data, however deep (`phone: { home, work }`).
    out[key] = walk(v, kind ?? kindOfKey(k));
  }
  return out;
}

/**
 * A copy of a JSON value with personal data masked: by key (case-insensitive, ignoring `_`/`-`),
 *   phone:      phone, mobile, tel, telephone, telNo, phoneNo, phoneNumber, mobileNo, mobileNumber,
 *               cellPhone, contactPhone, contactTel, and any key ending in `phone` or `mobile`;
 *   citizen id: idCard, idCardNo, idCardNumber, citizenId, citizenIdNo, idNo, idNumber, certNo,
 *               certNumber, certificateNo, certificateNumber, identityNo, identityNumber;
 *   name:       realName, holderName, cardHolderName, riderName, contactName, fullName;
 * and, whatever the key, any string that is exactly a mobile number or an 18-character citizen id.
 * Credential keys (containing `password` or `passwd`, `pwd`, ending in `secret` or `token`) are
 * dropped. `firstName`/`name` are not personal keys here: staff names are shown to the same
 * audience in the account list, and `name` also names districts, groups and lines.
 */
export function maskPersonal(value: unknown): unknown {
  return walk(value, null);
}

import { asc } from 'drizzle-orm';
import { citizenCheckChar } from '../../../shared/domain/citizen-id';
import { addDays, shanghaiDate } from '../../../shared/domain/time';
import { DISTRICTS, GIVEN_NAMES, SURNAMES } from '../../db/seed/city';
import type { SeedContext } from '../../db/seed/context';
import * as t from '../../db/schema';
import { customCars, customDrivers } from './schema';

const PLATE_LETTERS = 'ABCDEFGHJKLMN';
const MODELS = [
  { model: '宇通ZK6107', seats: 49 },
  { model: '金龙XMQ6110', seats: 51 },
  { model: '申沃SWB6128', seats: 45 },
  { model: '海格KLQ6902', seats: 37 },
  { model: '比亚迪K9（新能源）', seats: 33 },
  { model: '宇通ZK6826（新能源）', seats: 25 },
];
const COMPANIES = ['巴士一公司', '巴士二公司', '浦东公交', '强生客运', '锦江旅游客运'];

/**
 * 车辆与司机 (second wave §13): 40 cars and 50 drivers spread over the districts in the demo — three
 * cars in repair, one out of service, two inspections running out within 30 days and one already
 * expired; three driver licences running out within 30 days, two drivers on leave — and two of
 * each per district in the small profile, all fit to drive (tests make the odd cases they need).
 * Bulk VALUES, one insert per table; the classes part that follows picks its cars and drivers here.
 */
export async function seedFleet(ctx: SeedContext): Promise<void> {
  const { db, rng, now, profile, pii } = ctx;
  const demo = profile.name === 'demo';
  const districts = await db.select({ id: t.districts.id, name: t.districts.name }).from(t.districts).orderBy(asc(t.districts.id)).limit(profile.districts);
  if (!districts.length) return;
  const today = shanghaiDate(now);
  const carCount = demo ? 40 : districts.length * 2;
  const driverCount = demo ? 50 : districts.length * 2;

  const plates = new Set<string>();
  const cars = Array.from({ length: carCount }, (_, i) => {
    const m = MODELS[i % MODELS.length]!;
    const electric = m.model.includes('新能源');
    let plate: string;
    do {
      const letter = PLATE_LETTERS[rng.int(0, PLATE_LETTERS.length - 1)]!;
      plate = electric ? `沪${letter}D${rng.int(10000, 99999)}` : `沪${letter}${rng.int(10000, 99999)}`;
    } while (plates.has(plate));
    plates.add(plate);
    // The odd ones are the first few, so the small profile never gets them.
    const status = demo && i >= 1 && i <= 3 ? 2 : demo && i === 4 ? 0 : 1;
    const inspectionDays = demo && i === 5 ? 6 : demo && i === 6 ? 21 : demo && i === 7 ? -4 : rng.int(45, 360);
    return {
      districtId: districts[i % districts.length]!.id,
      plateNo: plate,
      seats: m.seats,
      model: m.model,
      company: COMPANIES[i % COMPANIES.length]!,
      status,
      inspectionUntil: addDays(today, inspectionDays),
      insuranceUntil: addDays(today, rng.int(60, 365)),
      createdAt: new Date(now.getTime() - rng.int(30, 400) * 86_400_000),
      updatedAt: now,
    };
  });
  await db.insert(customCars).values(cars);

  const ids = new Set<string>();
  const drivers = Array.from({ length: driverCount }, (_, i) => {
    const district = districts[i % districts.length]!;
    const code = DISTRICTS.find((d) => d.name === district.name)?.code ?? '310101';
    let idNo: string;
    do {
      const birth = `${rng.int(1968, 1995)}${String(rng.int(1, 12)).padStart(2, '0')}${String(rng.int(1, 28)).padStart(2, '0')}`;
      const first17 = `${code.slice(0, 6).padEnd(6, '0')}${birth}${String(rng.int(0, 999)).padStart(3, '0')}`;
      idNo = first17 + citizenCheckChar(first17);
    } while (ids.has(idNo));
    ids.add(idNo);
    const phone = `13${rng.int(5, 9)}${String(rng.int(0, 99_999_999)).padStart(8, '0')}`;
    const licenceDays = demo && i === 1 ? 9 : demo && i === 2 ? 17 : demo && i === 3 ? 28 : rng.int(90, 2000);
    const status = demo && (i === 4 || i === 5) ? 2 : demo && i === 6 ? 0 : 1;
    return {
      districtId: district.id,
      name: `${SURNAMES[rng.int(0, SURNAMES.length - 1)]}${GIVEN_NAMES[rng.int(0, GIVEN_NAMES.length - 1)]}`,
      phoneEnc: pii.encrypt(phone),
      phoneIdx: pii.index('phone', phone),
      idEnc: pii.encrypt(idNo),
      idIdx: pii.index('citizen', idNo),
      licenceClass: i % 5 === 4 ? 'B1' : i % 3 === 2 ? 'A3' : 'A1',
      licenceUntil: addDays(today, licenceDays),
      status,
      createdAt: new Date(now.getTime() - rng.int(30, 400) * 86_400_000),
      updatedAt: now,
    };
  });
  await db.insert(customDrivers).values(drivers);
}

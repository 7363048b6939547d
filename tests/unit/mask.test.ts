import { describe, expect, it } from 'vitest';
import { holdsPersonalNumber, looksLikeCitizenId, looksLikeMobile, maskCitizenId, maskInText, maskName, maskPersonal, maskPhone } from '../../src/shared/domain/mask';

describe('maskPhone', () => {
  it.each([
    ['13800138001', '138****8001'],
    [' 13800138001 ', '138****8001'],
    ['10000000000', '100****0000'],
    ['138****8001', '138****8001'],
    ['02112345678', '021******78'],
    ['+8613800138001', '+86*********01'],
    ['6228888', '6*****8'],
    ['12345', '1***5'],
    ['1234', '****'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(maskPhone(input)).toBe(expected);
  });
});

describe('maskCitizenId', () => {
  it.each([
    ['11010519491231002X', '110***********002X'],
    ['440308199901101512', '440***********1512'],
    ['110***********002X', '110***********002X'],
    ['110105491231002', '110*********002'],
    ['A1234567', 'A12***67'],
    ['123', '***'],
  ])('%j → %j', (input, expected) => {
    expect(maskCitizenId(input)).toBe(expected);
  });
});

describe('maskName', () => {
  it.each([
    ['张三', '张*'],
    ['欧阳娜娜', '欧***'],
    [' 李四 ', '李*'],
    ['张', '*'],
    ['𠮷野家', '𠮷**'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(maskName(input)).toBe(expected);
  });
});

describe('backstop patterns', () => {
  it.each([
    ['13800138001', true, false],
    ['12800138001', false, false],
    ['1380013800', false, false],
    ['11010519491231002X', false, true],
    ['11010519491231002x', false, true],
    ['110105194913310021', false, false],
    ['010105194912310021', false, false],
    ['2026-11-22T14:49:47.027Z', false, false],
  ])('%j: mobile %j, citizen id %j', (input, mobile, citizenId) => {
    expect(looksLikeMobile(input)).toBe(mobile);
    expect(looksLikeCitizenId(input)).toBe(citizenId);
  });
});

describe('maskPersonal', () => {
  it.each<[string, unknown, unknown]>([
    ['null', null, null],
    ['a number', 42, 42],
    ['a plain string', '徐汇区', '徐汇区'],
    ['a bare mobile (backstop)', '13800138001', '138****8001'],
    ['a bare citizen id (backstop)', '11010519491231002X', '110***********002X'],
    ['a mobile as a JSON number (backstop)', 13800138001, '138****8001'],
    ['phone by key', { phone: '13800138001' }, { phone: '138****8001' }],
    ['keys case-insensitive and with _ or -', { Mobile: '13900001111', PHONE_NUMBER: '02112345678', 'contact-tel': '12345678' }, { Mobile: '139****1111', PHONE_NUMBER: '021******78', 'contact-tel': '123***78' }],
    ['a short landline by key', { tel: '6228888' }, { tel: '6*****8' }],
    ['a phone number stored as a number', { phone: 13800138001 }, { phone: '138****8001' }],
    ['null phone stays null', { phone: null }, { phone: null }],
    ['citizen id keys', { idCard: '11010519491231002X', citizen_id: '440308199901101512', idNo: 'E12345678', certNo: 'G1234' }, { idCard: '110***********002X', citizen_id: '440***********1512', idNo: 'E12****78', certNo: 'G***4' }],
    ['name keys', { realName: '张三', holderName: '欧阳娜娜', cardHolderName: '王小明' }, { realName: '张*', holderName: '欧***', cardHolderName: '王**' }],
    ['staff first name and other names are kept', { firstName: '客服小李', name: '徐汇区', login: 'agent' }, { firstName: '客服小李', name: '徐汇区', login: 'agent' }],
    ['password-like keys are dropped', { login: 'a', password: 'Secret123', pwd: 'x', passwordHash: 'scrypt$..', oldPassword: 'o', new_password: 'n', jwtSecret: 's', idToken: 't' }, { login: 'a' }],
    ['backstop under any key', { note: '13800138001', remark: ['11010519491231002X', 'ok'] }, { note: '138****8001', remark: ['110***********002X', 'ok'] }],
    ['a number inside free text is masked where it stands', { note: '电话13800138001' }, { note: '电话138****8001' }],
    [
      'nested objects and arrays',
      { riders: [{ realName: '张三', phone: '13800138001', cards: [{ holderName: '李四', no: '31000001' }] }], meta: { deep: { deeper: { mobile: '13700001111' } } } },
      { riders: [{ realName: '张*', phone: '138****8001', cards: [{ holderName: '李*', no: '31000001' }] }], meta: { deep: { deeper: { mobile: '137****1111' } } } },
    ],
    ['everything under a personal key is that kind', { phone: { home: '02112345678', work: ['13800138001'] } }, { phone: { home: '021******78', work: ['138****8001'] } }],
    ['secrets dropped at any depth', { a: [{ b: { password: 'p', keep: 1 } }] }, { a: [{ b: { keep: 1 } }] }],
  ])('%s', (_label, input, expected) => {
    expect(maskPersonal(input)).toEqual(expected);
  });

  it('serialises dates as JSON would instead of emptying them', () => {
    const at = new Date('2026-11-22T14:49:47.027Z');
    expect(maskPersonal({ createdAt: at, phone: '13800138001' })).toEqual({ createdAt: '2026-11-22T14:49:47.027Z', phone: '138****8001' });
  });

  it('leaves its input untouched', () => {
    const input = { phone: '13800138001', nested: [{ password: 'p' }] };
    const copy = structuredClone(input);
    maskPersonal(input);
    expect(input).toEqual(copy);
  });

  it('never lets an 11-digit mobile or a password through, whatever the shape', () => {
    const row = { id: 7, login: 'staff001', firstName: '张三', phone: '13912345678', password: 'Bus@2026', list: [{ contactPhone: '13512345678' }, '15012345678'] };
    const json = JSON.stringify(maskPersonal(row));
    expect(json).not.toMatch(/1[3-9]\d{9}/);
    expect(json).not.toContain('Bus@2026');
    expect(json).not.toContain('password');
  });
});

describe('maskInText: numbers quoted in free text', () => {
  it('masks a mobile number or citizen id standing among other characters, and nothing else', () => {
    expect(maskInText('已致电13812345678核实，身份证11010519491231002X，卡号3101000020000012')).toBe('已致电138****5678核实，身份证110***********002X，卡号3101000020000012');
    expect(maskInText('订单 DC2026112300066 于 2026-11-24 退款')).toBe('订单 DC2026112300066 于 2026-11-24 退款');
    expect(maskInText('13812345678')).toBe('138****5678');
  });

  it('is applied by maskPersonal to every string, under any key', () => {
    expect(maskPersonal({ note: '回电 139 1234 5678 或 139-1234-5678，13912345678' })).toEqual({ note: '回电 139****5678 或 139****5678，139****5678' });
  });
});

describe('holdsPersonalNumber (what a name search never sends)', () => {
  it('is true for a phone, a citizen id, a card number or the better part of one, however written', () => {
    for (const q of ['13800138001', '138 0013 8001', '138-0013-8001', '+86 138 0013 8001', '11010519491231002X', '3101000020000012', '1380013', '张三 13800138001', '138.0013.8001', '138/0013/8001', '１３８００１３８００１', '１３８ ００１３ ８００１', '(138)0013_8001']) expect(holdsPersonalNumber(q), q).toBe(true);
  });

  it('is false for names, pinyin, line numbers and short digits', () => {
    for (const q of ['人民广场', 'rmgc', '49路', '49', '123456', 'staff001', '徐汇区 2号']) expect(holdsPersonalNumber(q), q).toBe(false);
  });
});

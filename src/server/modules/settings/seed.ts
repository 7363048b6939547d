import * as t from '../../db/schema';
import { CITY } from '../../db/seed/city';
import type { SeedGenerator } from '../../db/seed/context';

/** Base: the payment methods the mini-program offers. */
export const settingsBaseSeed: SeedGenerator[] = [
  {
    name: 'pay-info',
    async run({ db }) {
      const rows = [
        { code: 'wechat', name: '微信支付', sort: 1 },
        { code: 'alipay', name: '支付宝', sort: 2 },
        { code: 'unionpay', name: '云闪付', sort: 3 },
        { code: 'transport-card', name: '交通卡', sort: 4 },
      ];
      await db.insert(t.payInfo).values(rows).onConflictDoNothing();
    },
  },
];

/** Demo: the city's centre (the map's home), no mini-program QR code yet, each district's agreements. */
export const settingsDemoSeed: SeedGenerator[] = [
  {
    name: 'city-config',
    async run({ db }) {
      await db.insert(t.appConfig).values([
        { key: 'cityCenter', value: CITY },
        { key: 'qrCode', value: null },
      ]);
    },
  },
  {
    name: 'agreements',
    async run({ db, now }) {
      const districts = await db.select().from(t.districts);
      const kinds = [
        { code: 'user-service', title: '用户服务协议' },
        { code: 'privacy', title: '隐私政策' },
        { code: 'family-card', title: '亲情卡服务协议' },
        // 套餐购买's (module packagePay): its packages go on sale under it.
        { code: 'package', title: '套餐购买协议' },
        // 定制公交's (module customBus, edited in 定制公交设置 › 协议设置): riders accept it before buying.
        { code: 'custom-bus', title: '定制公交购票协议' },
      ];
      await db.insert(t.agreements).values(
        districts.flatMap((d) =>
          kinds.map((k) => ({
            districtId: d.id,
            code: k.code,
            title: `${d.name}${k.title}`,
            content: `${k.title}\n\n本协议适用于${CITY.name}${d.name}公交乘车码服务。使用服务前请仔细阅读本协议全部条款。`,
            createdAt: now,
            updatedAt: now,
          })),
        ),
      );
    },
  },
];

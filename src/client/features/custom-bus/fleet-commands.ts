import { CUSTOM_FLEET_EDITOR, CUSTOM_READ } from '../../../shared/api/custom-bus/buttons';
import { carPage, carUpdateStatus } from '../../../shared/api/custom-bus/fleet';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { carEditPath, carListPath, driverEditPath, driverListPath, driverPhone } from './fleet-paths';

const GROUP = '定制公交';
const isPhone = (v: string) => /^1\d{10}$/.test(v.replace(/[\s-]/g, ''));

/** The area's available cars as palette choices (`id:rowVersion`), by plate. */
const availableCars = async () => {
  const page = await api.call(carPage, { query: { page: 0, size: 500, status: '1', sort: 'plateNo,asc' } }, { silent: true });
  return page.content.map((c) => ({ value: `${c.id}:${c.rowVersion}`, label: `${c.plateNo}（${c.seats}座 ${c.model}${c.futureClasses ? `，未发车班次 ${c.futureClasses}` : ''}）`, keywords: [c.plateNo, c.plateNo.slice(1)] }));
};

/** 车辆与司机's palette commands (second wave §5). */
export const fleetCommands: readonly Command[] = [
  {
    id: 'customBus.car.add',
    title: '新增车辆',
    group: GROUP,
    keywords: ['新增', '车辆', '定制', 'xinzeng', 'cheliang'],
    permission: CUSTOM_FLEET_EDITOR,
    page: carEditPath(),
    run: (ctx) => ctx.navigate(carEditPath()),
  },
  {
    id: 'customBus.driver.add',
    title: '新增司机',
    group: GROUP,
    keywords: ['新增', '司机', '定制', 'xinzeng', 'siji'],
    permission: CUSTOM_FLEET_EDITOR,
    page: driverEditPath(),
    run: (ctx) => ctx.navigate(driverEditPath()),
  },
  {
    id: 'customBus.car.find',
    title: '查车辆',
    group: GROUP,
    keywords: ['车辆', '车牌', '查询', 'cheliang', 'chepai'],
    permission: CUSTOM_READ,
    page: carListPath(),
    args: [{ name: 'plate', label: '车牌号（或其中几位）', kind: 'text', placeholder: '沪A12345', validate: (v) => (!v.trim() ? '请输入车牌号' : v.trim().length > 10 ? '车牌号不能超过10个字符' : null) }],
    run: (ctx, a) => ctx.navigate(carListPath({ plateNo: (a.plate ?? '').trim().toUpperCase() })),
  },
  {
    // A phone goes to the list through memory (never the address); a name as its filter.
    id: 'customBus.driver.find',
    title: '查司机',
    group: GROUP,
    keywords: ['司机', '查询', '手机号', 'siji'],
    permission: CUSTOM_READ,
    page: driverListPath(),
    args: [{ name: 'q', label: '姓名或手机号', kind: 'text', placeholder: '王建华 或 11 位手机号', validate: (v) => (!v.trim() ? '请输入姓名或手机号' : v.trim().length > 20 ? '不能超过20个字符' : null) }],
    run: (ctx, a) => {
      const q = (a.q ?? '').trim();
      if (isPhone(q)) {
        driverPhone.handOff(q.replace(/[\s-]/g, ''));
        ctx.navigate(driverListPath());
      } else ctx.navigate(driverListPath({ name: q }));
    },
  },
  {
    // Choosing the car is the confirmation; a car with classes ahead is refused with them listed (in the toast).
    id: 'customBus.car.repair',
    title: '车辆维修',
    group: GROUP,
    keywords: ['车辆', '维修', 'weixiu', 'cheliang'],
    permission: CUSTOM_FLEET_EDITOR,
    page: carListPath(),
    args: [{ name: 'car', label: '选择可用车辆', kind: 'choice', options: availableCars }],
    run: (ctx, a) => {
      const [id, rowVersion] = (a.car ?? '').split(':').map(Number);
      api
        .call(carUpdateStatus, { body: { id: id!, fromStatus: 1, toStatus: 2, rowVersion: rowVersion! } })
        .then((c) => {
          toast.success(`车辆${c.plateNo}已改为维修`);
          ctx.changed(carUpdateStatus);
          ctx.navigate(carListPath({ plateNo: c.plateNo }));
        })
        // The refusal is in the toast.
        .catch(() => undefined);
    },
  },
];

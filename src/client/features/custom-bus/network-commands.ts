import { CUSTOM_LINE_EDITOR, CUSTOM_LINE_STATUS_MOVER, CUSTOM_READ } from '../../../shared/api/custom-bus/buttons';
import { linePage, lineUpdateStatus } from '../../../shared/api/custom-bus/network';
import { LINE_DIRECTION } from '../../../shared/api/custom-bus/states';
import { fenToYuan } from '../../../shared/domain/money';
import { pagePath } from '../../../shared/modules';
import type { Command } from '../../commands/types';
import { api } from '../../lib/api-client';
import { queryText } from '../../lib/http';
import { toast } from '../../lib/toast';
import { lineEditPath, lineListPath, linePathPath, stationListPath } from './network-paths';

const GROUP = '定制公交';
type LineStatus = 0 | 1 | 2;

/** The area's lines in these statuses as palette choices, found by number, name or pinyin. */
const linesIn = (statuses: readonly LineStatus[] | null) => async () => {
  const pages = await Promise.all((statuses ?? [undefined]).map((status) => api.call(linePage, { query: { page: 0, size: 500, ...(status === undefined ? {} : { status: queryText(status) }) } }, { silent: true })));
  return pages
    .flatMap((p) => p.content)
    .map((l) => ({
      value: `${l.id}:${l.status}:${l.rowVersion}`,
      label: `${l.lineNo} ${l.name}`,
      subtitle: `${LINE_DIRECTION[String(l.direction) as keyof typeof LINE_DIRECTION]} · ${fenToYuan(l.price)} 元${l.districtName ? ` · ${l.districtName}` : ''}`,
      keywords: [l.lineNo, l.name],
    }));
};
const parse = (v: string | undefined) => {
  const [id, status, rowVersion] = (v ?? '').split(':').map(Number);
  return { id: id!, status: status as LineStatus, rowVersion: rowVersion! };
};

/**
 * 上架定制线路 ‹草稿或已下架› / 下架定制线路 ‹已上架›: choosing the line is the confirmation (the list
 * asks in a dialog); the server's refusals (轨迹不全, 已售出的未发车班次) come in the toast.
 */
function moveCommand(id: string, title: string, from: readonly LineStatus[], to: LineStatus, keywords: string[]): Command {
  return {
    id,
    title,
    group: GROUP,
    keywords,
    permission: CUSTOM_LINE_STATUS_MOVER,
    page: lineListPath(),
    args: [{ name: 'line', label: to === 1 ? '选择草稿或已下架的线路' : '选择已上架的线路', kind: 'choice', options: linesIn(from) }],
    run: (ctx, a) => {
      const l = parse(a.line);
      api
        .call(lineUpdateStatus, { body: { id: l.id, fromStatus: l.status, toStatus: to, rowVersion: l.rowVersion } })
        .then((saved) => {
          toast.success(`定制线路「${saved.name}」已${to === 1 ? '上架' : '下架'}`);
          ctx.changed(lineUpdateStatus);
          ctx.navigate(lineListPath({ status: to }));
        })
        // The refusal is in the toast.
        .catch(() => undefined);
    },
  };
}

export const networkCommands: readonly Command[] = [
  {
    id: 'customStation.add',
    title: '新增定制站点',
    group: GROUP,
    keywords: ['新增', '定制', '站点', 'xinzeng', 'dingzhi', 'zhandian'],
    permission: CUSTOM_LINE_EDITOR,
    page: stationListPath(),
    run: (ctx) => ctx.navigate(stationListPath(true)),
  },
  {
    id: 'customLine.add',
    title: '新增定制线路',
    group: GROUP,
    keywords: ['新增', '定制', '线路', 'xinzeng', 'dingzhi', 'xianlu'],
    permission: CUSTOM_LINE_EDITOR,
    page: lineEditPath(),
    run: (ctx) => ctx.navigate(lineEditPath()),
  },
  moveCommand('customLine.publish', '上架定制线路', [0, 2], 1, ['上架', '定制', '线路', 'shangjia', 'dingzhi']),
  moveCommand('customLine.unpublish', '下架定制线路', [1], 2, ['下架', '定制', '线路', 'xiajia', 'dingzhi']),
  {
    id: 'customLine.path',
    title: '定制线路轨迹',
    group: GROUP,
    keywords: ['定制', '线路', '轨迹', '站点', 'dingzhi', 'guiji'],
    permission: CUSTOM_READ,
    page: pagePath('customBus', 'custom-line-path'),
    args: [{ name: 'line', label: '选择线路', kind: 'choice', options: linesIn(null) }],
    run: (ctx, a) => ctx.navigate(linePathPath(parse(a.line).id)),
  },
];

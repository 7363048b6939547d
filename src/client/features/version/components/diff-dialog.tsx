import { lineVersion } from '../../../../shared/api';
import { Modal } from '../../../components/modal';
import { useApi } from '../../../lib/use-api';

const CHANGE = { added: ['新增', 'bg-green-50 text-green-800'], removed: ['删除', 'bg-red-50 text-red-800'], changed: ['修改', 'bg-orange-50 text-orange-800'] } as const;

/** 对比线上版本: what a version changes against the district's online network, line by line. */
export function DiffDialog({ versionId, onClose }: { versionId: number; onClose(): void }) {
  const diff = useApi(lineVersion.versionDiff, { query: { id: versionId } });
  const d = diff.data;
  const version = d?.version;
  return (
    <Modal open title={`版本对比${version ? ` · ${version.name}` : ''}`} onClose={onClose} width="max-w-2xl">
      {!d ? (
        <p className="text-sm text-gray-600">{diff.error ? '对比失败，请重试' : '对比中…'}</p>
      ) : !d.against ? (
        <p className="text-sm text-gray-700">{version?.status === 3 ? '这是线上版本本身。' : '该区域没有线上版本，无从对比。'}</p>
      ) : (
        <div className="flex flex-col gap-3 text-sm">
          <p className="text-gray-700">
            对比线上版本「{d.against.name}」：{d.changes.length ? `${d.changes.length} 条线路有变化，` : '没有变化，'}
            {d.unchanged} 条未变
          </p>
          {d.changes.length > 0 && (
            <ul className="max-h-[60vh] divide-y divide-gray-100 overflow-auto rounded border border-gray-200">
              {d.changes.map((c) => (
                <li key={`${c.change}-${c.code}`} className="px-3 py-2">
                  <p className="flex items-center gap-2">
                    <span className={`rounded px-1.5 py-0.5 text-xs ${CHANGE[c.change][1]}`}>{CHANGE[c.change][0]}</span>
                    <span className="font-medium text-gray-900">{c.name}</span>
                    <span className="text-gray-600">（{c.code}）</span>
                  </p>
                  {c.details.length > 0 && (
                    <ul className="mt-1 list-disc pl-5 text-gray-700">
                      {c.details.map((x) => (
                        <li key={x}>{x}</li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Modal>
  );
}

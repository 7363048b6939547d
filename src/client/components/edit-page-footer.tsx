import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';

/**
 * The record edit pages (车辆, 司机, 定制线路, 套餐, 优惠卡规则, 储值档位) share one footer and one
 * leave question, so their labels, hotkeys and wording cannot drift apart from page to page.
 * A read-only page has only 返回; `blocked` keeps 保存 shown but disabled (e.g. no area chosen).
 */
export function EditPageButtons({ readOnly, busy, blocked = false, onBack }: { readOnly: boolean; busy: boolean; blocked?: boolean; onBack(): void }) {
  return (
    <div className="flex justify-end gap-2">
      <Button onClick={onBack} hotkey="Esc">
        {readOnly ? '返回' : '取消'}
      </Button>
      {!readOnly && (
        <Button type="submit" variant="primary" hotkey="Ctrl+S" disabled={busy || blocked}>
          {busy ? '保存中…' : '保存'}
        </Button>
      )}
    </div>
  );
}

/**
 * Asked when Esc leaves a form with unsaved changes; `listName` is where 返回 goes (e.g. 车辆管理).
 * Render it outside the form: React bubbles a portal's keys through its parents, and the form's Esc
 * would ask again.
 */
export function LeaveEditDialog({ open, listName, onLeave, onClose }: { open: boolean; listName: string; onLeave(): void; onClose(): void }) {
  return (
    <ConfirmDialog open={open} title="放弃修改" confirmLabel="放弃修改" danger onConfirm={onLeave} onClose={onClose}>
      <p>{`有未保存的修改，返回${listName}将丢失。按 Esc 继续编辑。`}</p>
    </ConfirmDialog>
  );
}

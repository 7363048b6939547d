import type { FormEvent, KeyboardEvent } from 'react';

/** Ctrl+S (⌘S) saves the editor it is pressed in, instead of the browser saving the page. */
export const saveKey = (save: () => void) => (e: KeyboardEvent) => {
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
    e.preventDefault();
    save();
  }
};

/**
 * An edit page's keys: Enter submits the form, Ctrl+S saves from any field, Esc goes back, or asks
 * first when there are unsaved changes. `blocked` (read-only, no area chosen) saves nothing.
 */
export function editorKeys(o: { form: { dirty: boolean; busy: boolean; submit: () => Promise<unknown> }; blocked: boolean; readOnly: boolean; back: () => void; confirmLeave: () => void }) {
  const escape = () => (o.form.dirty && !o.readOnly ? o.confirmLeave() : o.back());
  const save = () => {
    if (o.blocked || o.form.busy) return;
    void o.form.submit();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.preventDefault();
      escape();
      return;
    }
    saveKey(save)(e);
  };
  return { escape, save, submit, onKeyDown };
}

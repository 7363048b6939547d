import { useState } from 'react';
import * as auth from '../../../shared/api/auth';
import { Field } from '../../components/field';
import { Modal, ModalActions } from '../../components/modal';
import { api } from '../../lib/api-client';
import { setFlash } from '../../lib/flash';

type Errors = Partial<Record<'oldPassword' | 'newPassword' | 'confirm', string>>;

/** The four messages of spec §5, checked before anything is sent. */
export function validatePasswords(v: { oldPassword: string; newPassword: string; confirm: string }): Errors {
  const e: Errors = {};
  if (!v.oldPassword) e.oldPassword = '原密码不能为空';
  if (!v.newPassword) e.newPassword = '新密码不能为空';
  if (!v.confirm) e.confirm = '确认密码不能为空';
  else if (v.confirm !== v.newPassword) e.confirm = '确认密码与新密码不一致';
  return e;
}

/**
 * Label width 80 (spec §5). Server errors are swallowed as the spec says (no toast), but the
 * dialog stays open with the reason under the field, so a wrong old password is not a mystery.
 */
export function ChangePasswordDialog({ open, onClose, onChanged }: { open: boolean; onClose(): void; onChanged(): void }) {
  const [values, setValues] = useState({ oldPassword: '', newPassword: '', confirm: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues((v) => ({ ...v, [k]: e.target.value }));

  const close = () => {
    setValues({ oldPassword: '', newPassword: '', confirm: '' });
    setErrors({});
    onClose();
  };

  const submit = async () => {
    const found = validatePasswords(values);
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      await api.call(auth.changePassword, { body: { oldPassword: values.oldPassword, newPassword: values.newPassword } }, { silent: true });
      // The logout that follows reloads the page: the notice waits for the login page to show it.
      setFlash('密码已修改，请使用新密码重新登录', 'success');
      close();
      onChanged();
    } catch (err) {
      const msg = err instanceof Error ? err.message : '';
      setErrors(msg.includes('原密码') ? { oldPassword: msg } : { newPassword: msg.replace(/^参数错误：/, '') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title="修改密码"
      onClose={close}
      dirty={!!(values.oldPassword || values.newPassword || values.confirm)}
      onSubmit={submit}
      footer={<ModalActions onCancel={close} busy={busy} submitLabel="确定" />}
    >
      <Field label="原密码" type="password" autoComplete="current-password" required labelWidth={80} value={values.oldPassword} onChange={set('oldPassword')} error={errors.oldPassword} autoFocus />
      <Field label="新密码" type="password" autoComplete="new-password" required labelWidth={80} value={values.newPassword} onChange={set('newPassword')} error={errors.newPassword} hint="至少8位，含字母和数字" />
      <Field label="确认密码" type="password" autoComplete="new-password" required labelWidth={80} value={values.confirm} onChange={set('confirm')} error={errors.confirm} />
    </Modal>
  );
}

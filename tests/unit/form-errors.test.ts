import { describe, expect, it } from 'vitest';
import { errorsFromFailure } from '../../src/client/lib/form-errors';
import { ApiError } from '../../src/client/lib/errors';

/** A refused save's messages go under the fields the server names, never by matching their text. */
describe('errorsFromFailure', () => {
  const fields = ['login', 'firstName', 'phone'];

  it('places a business refusal under the field its data.errors names', () => {
    const err = new ApiError(0, '用户名已存在', 200, { errors: [{ field: 'login', msg: '用户名已存在' }] });
    expect(errorsFromFailure(err, fields)).toEqual({ login: '用户名已存在' });
  });

  it('places a 400 under each listed field, the first message per field', () => {
    const err = new ApiError(400, '参数错误：手机号格式不正确', 400, {
      errors: [
        { field: 'phone', msg: '手机号格式不正确' },
        { field: 'phone', msg: '第二条' },
        { field: 'firstName.0', msg: '姓名不能为空' },
      ],
    });
    expect(errorsFromFailure(err, fields)).toEqual({ phone: '手机号格式不正确', firstName: '姓名不能为空' });
  });

  it('keeps a refusal that names no shown field (or names none) for the whole form, whatever its text says', () => {
    expect(errorsFromFailure(new ApiError(0, '登录名 已被占用', 200), fields)).toEqual({ '': '登录名 已被占用' });
    const elsewhere = new ApiError(0, '角色组不存在', 200, { errors: [{ field: 'groupId', msg: '角色组不存在' }] });
    expect(errorsFromFailure(elsewhere, fields)).toEqual({ '': '角色组不存在' });
    expect(errorsFromFailure(new Error('网络断开'), fields)).toEqual({ '': '网络断开' });
  });
});

import { describe, expect, it } from 'vitest';
import { card, grant, grantIn, isAllowed, PUBLIC, ridership, SELF, SESSION } from '../../src/shared/api';

describe('isAllowed', () => {
  const user = { roles: ['ROLE_USER'], buttons: ['ycOrder'] };

  it('public needs nothing; session and self need a session', () => {
    expect(isAllowed(PUBLIC, null)).toBe(true);
    expect(isAllowed(SESSION, null)).toBe(false);
    expect(isAllowed(SELF, null)).toBe(false);
    expect(isAllowed(SESSION, user)).toBe(true);
  });

  it('grant passes on one of the roles or one of the buttons', () => {
    expect(isAllowed(grant({ roles: ['ROLE_ADMIN'] }), user)).toBe(false);
    expect(isAllowed(grant({ roles: ['ROLE_ADMIN', 'ROLE_USER'] }), user)).toBe(true);
    const can = grantIn({ ...ridership.buttons, ...card.buttons });
    expect(isAllowed(can({ buttons: ['REFUND_ORDER'] }), user)).toBe(false);
    expect(isAllowed(can({ buttons: ['REFUND_ORDER', 'ycOrder'] }), user)).toBe(true);
  });

  it('grant passes on one of the menus the account sees', () => {
    const familyReaders = grant({ menus: ['callingCard'] });
    expect(isAllowed(familyReaders, { ...user, menus: ['order'] })).toBe(false);
    expect(isAllowed(familyReaders, { ...user, menus: ['order', 'callingCard'] })).toBe(true);
  });

  it('the super user passes every grant; an empty grant refuses everyone else', () => {
    expect(isAllowed(grant({}), { roles: ['ROLE_APP_ADMIN'], buttons: [] })).toBe(true);
    expect(isAllowed(grant({}), { roles: ['ROLE_ADMIN'], buttons: ['USER_ADD'] })).toBe(false);
  });
});

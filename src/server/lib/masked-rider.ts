import { maskCitizenId, maskName, maskPhone } from '../../shared/domain/mask';
import type * as t from '../db/schema';
import type { Pii } from './pii';

/** A rider as any answer may show one: decrypted only to be masked, here, in one place. */
export function maskedRider(pii: Pii, r: Pick<typeof t.riders.$inferSelect, 'id' | 'nameEnc' | 'phoneEnc' | 'citizenEnc'>) {
  return {
    id: r.id,
    name: r.nameEnc ? maskName(pii.decrypt(r.nameEnc)) : null,
    phone: maskPhone(pii.decrypt(r.phoneEnc)),
    citizenId: r.citizenEnc ? maskCitizenId(pii.decrypt(r.citizenEnc)) : null,
  };
}

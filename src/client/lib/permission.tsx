import { createContext, type ReactNode, useContext } from 'react';
import { type Grants, type Permission, isAllowed } from '../../shared/api/permissions';

/** The signed-in account's roles and button keys, provided by the session. */
export const GrantsContext = createContext<Grants | null>(null);

/** True when the account may do what the contract's declaration says: the same rule the server enforces. */
export function useAllowed(permission: Permission): boolean {
  return isAllowed(permission, useContext(GrantsContext));
}

/** Renders its children only for accounts that may use them (spec §6); the server refuses anyway. */
export function Allowed({ permission, children }: { permission: Permission; children: ReactNode }) {
  return useAllowed(permission) ? <>{children}</> : null;
}

import { createHandOff } from '../../business/desk/lookup-handoff';

/** A staff phone from the palette to 账号列表's keyword, through memory (never the address). */
export const staffKeyword = createHandOff();

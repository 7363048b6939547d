import { z } from 'zod';

/**
 * A rich text as the console's editor sends it: a string of at most `max` characters. Whether it says
 * anything is decided by the server after the allow-list (shared/domain/rich-text.ts), since markup
 * alone (`<p><br></p>`, a stripped `<script>`) is not content.
 */
export const richText = (label: string, max: number) =>
  z
    .string({ error: `${label}不能为空` })
    .min(1, { error: `${label}不能为空` })
    .max(max, { error: `${label}不能超过${max}个字符` });

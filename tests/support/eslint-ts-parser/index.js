// Resolved from this folder, so the parser's `typescript` is this package's 6.0 and not the
// project's TypeScript 7 (tsc only: no JavaScript API for typescript-eslint to call).
export { default } from '@typescript-eslint/parser';
export * from '@typescript-eslint/parser';

/** The sha256 (hex) of the files under `inputs` (paths relative to `root`), their paths and bytes. */
export function inputsHash(root: string, inputs: readonly string[]): string;

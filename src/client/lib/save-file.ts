/** Hands a downloaded file (fetched with the bearer token, never a token in a URL) to the browser's save. */
export function saveFile(data: Blob | string, fileName: string): void {
  const a = document.createElement('a');
  const url = typeof data === 'string' ? data : URL.createObjectURL(data);
  a.href = url;
  a.download = fileName;
  a.click();
  // The click has started the download by the next task; the blob is not needed after that.
  if (typeof data !== 'string') setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

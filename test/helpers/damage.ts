import { closeSync, openSync, statSync, writeSync } from 'node:fs';

/** Overwrites a few bytes in every page of the second half of a cache file, as a failing disk would. */
export function damageSecondHalf(file: string, pageSize = 4096): number {
  const pages = Math.floor(statSync(file).size / pageSize);
  const fd = openSync(file, 'r+');
  try {
    for (let p = Math.floor(pages / 2); p < pages; p++) writeSync(fd, Buffer.alloc(64, 0x5a), 0, 64, p * pageSize + 100);
  } finally {
    closeSync(fd);
  }
  return pages;
}

import { stringify } from 'csv-stringify/sync';

/**
 * CSV (RFC 4180, CRLF, every field quoted) for spreadsheets, with formula injection neutralised:
 * a cell a spreadsheet would run as a formula (=, @, tab, CR, or + and - followed by anything but
 * a number) gets a leading apostrophe. Phone numbers (+61…) and negative amounts stay as they are.
 */
export function neutralise(value: string): string {
  if (/^[=@\t\r]/.test(value)) return `'${value}`;
  if (/^[+-]/.test(value) && !/^[+-][\d\s.]*$/.test(value)) return `'${value}`;
  return value;
}

export function csvRows(rows: readonly (readonly string[])[]): string {
  return stringify(
    rows.map((r) => r.map(neutralise)),
    { quoted: true, record_delimiter: '\r\n' },
  );
}

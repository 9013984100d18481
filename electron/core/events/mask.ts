/**
 * A target's response with what varies between deliveries masked — ids, numbers, times, hex, e-mail
 * addresses, quoted values — so the same failure groups together: `Request 8f3a… timed out after
 * 30012 ms` and `Request 91bc… timed out after 29877 ms` are one group.
 */
export function maskMessage(message: string | null): string {
  if (!message) return '(no response body)';
  return (
    message
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
      .replace(/\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?\b/g, '<time>')
      .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '<email>')
      .replace(/\b[0-9a-f]{16,}\b/gi, '<hex>')
      // An HTTP status stays (at the start, or after "HTTP" or "status"): it is the message. Other numbers vary.
      .replace(/\b\d+(\.\d+)?\b/g, (n: string, _f: unknown, at: number, all: string) =>
        /^[1-5]\d\d$/.test(n) && (at === 0 || /(HTTP(\/[\d.]+)?|status(\s*code)?)[\s:=]*$/i.test(all.slice(0, at))) ? n : '<n>',
      )
      .replace(/\s+/g, ' ')
      .trim()
  );
}

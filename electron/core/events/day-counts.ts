/** Counts per (day, type), newest day first as a store returns them, as the days of the chart: the newest `days`, each with its total. */
export function dayCounts(rows: readonly { day: string; type: string; n: number }[], days: number) {
  const byDay = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const counts = byDay.get(r.day) ?? {};
    counts[r.type] = r.n;
    byDay.set(r.day, counts);
  }
  return [...byDay].slice(0, days).map(([day, counts]) => ({ day, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) }));
}

import type { ReportStore } from '../reports/port.js';
import type { PgDb } from './db.js';

export function pgReportStore(_db: PgDb): ReportStore {
  return new Proxy({}, { get: () => () => Promise.reject(new Error('not yet')) }) as ReportStore;
}

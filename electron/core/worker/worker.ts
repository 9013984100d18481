import { parentPort, workerData } from 'node:worker_threads';
import { checkIntegrity } from '../cache/database.js';

/** The worker thread's entry (see host.ts): runs one task and reports its result. */
const { task, data } = workerData as { task: string; data: unknown };
const port = parentPort!;

async function run(): Promise<unknown> {
  switch (task) {
    case 'integrity': {
      const { file, key } = data as { file: string; key?: string };
      const problem = checkIntegrity(file, key);
      return problem ? { reason: problem.reason, message: problem.message } : null;
    }
    default:
      throw new Error(`unknown worker task ${task}`);
  }
}

run().then(
  (result) => port.postMessage({ type: 'done', result }),
  (error: Error) => port.postMessage({ type: 'failed', error: { ...error, name: error.name, message: error.message } }),
);

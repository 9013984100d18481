import { describe, expect, it } from 'vitest';
import { appHandlers } from '../../electron/core/app/handlers.js';
import { runWithRequest } from '../../electron/ipc/request-context.js';

/**
 * app:reportError (issue 34): a screen that fails in the renderer shows its error panel and tells
 * the host, whose log keeps what failed, where, and for whom; a page failing in a loop does not
 * fill the log.
 */
function handlers() {
  const lines: string[] = [];
  const h = appHandlers({
    stores: {} as never,
    log: { info: (m) => lines.push(`INFO ${m}`), error: (m) => lines.push(`ERROR ${m}`) },
    about: {
      appVersion: '0',
      host: 'browser',
      profile: { id: 'p', name: 'P', environment: 'sandbox', embedded: true },
      keyStorage: { kind: 'key-file', description: '' },
    },
    sync: {} as never,
    intermediary: { online: true },
    sandboxUrl: undefined,
  });
  return { report: h['app:reportError'], lines };
}

describe('app:reportError', () => {
  it('logs what failed, where, with its stack', async () => {
    const { report, lines } = handlers();
    expect(
      await report({
        where: '/consents/:consentId',
        location: '#/consents/abc',
        message: 'TypeError: x is null',
        stack: 'TypeError: x\n at f (a.js:1:2)',
      }),
    ).toEqual({ logged: true });
    expect(lines).toEqual([
      'ERROR Renderer: /consents/:consentId failed at #/consents/abc: TypeError: x is null\n    TypeError: x\n     at f (a.js:1:2)',
    ]);
  });

  it('names the person on a team server', async () => {
    const { report, lines } = handlers();
    await runWithRequest({ caller: { userId: 'u1', userName: 'tess', displayName: 'Tess', role: 'support', method: 'password' } }, () =>
      report({ where: 'The status bar', location: '', message: 'Error: boom' }),
    );
    expect(lines[0]).toBe('ERROR Renderer: The status bar failed at / (tess, support): Error: boom');
  });

  it('writes no line a page did not: control characters become spaces', async () => {
    const { report, lines } = handlers();
    await report({ where: '/x\r\nINFO forged', location: '#/\u001b[2J', message: 'a\nERROR forged too', stack: 'at f\u0000\nat g' });
    expect(lines).toHaveLength(1);
    const [first, ...rest] = lines[0]!.split('\n');
    expect(first).toBe('ERROR Renderer: /x  INFO forged failed at #/ [2J: a ERROR forged too');
    expect(rest).toEqual(['    at f ', '    at g']);
  });

  it('logs at most 20 a minute, and says so once', async () => {
    const { report, lines } = handlers();
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push((await report({ where: '/events', location: '#/events', message: `Error ${i}` })).logged);
    expect(answers.filter(Boolean)).toHaveLength(20);
    expect(lines).toHaveLength(21);
    expect(lines[20]).toMatch(/more than 20 in a minute/);
  });
});

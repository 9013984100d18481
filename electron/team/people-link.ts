import { sessionsEndedOf, type People } from '../core/people/people.js';
import { PEOPLE_ENDED, type Notice } from '../core/postgres/live.js';

/**
 * The team's servers tell each other of the sessions they end (a sign-out, a role changed, a user
 * disabled, a password reset) over the live link, and each closes its own connections of them at
 * once: a person removed on one server cannot go on acting from a console open on another until
 * that server's next check of its sessions (30 s before, issue 35). A notice lost while the link is
 * down is covered by the router, which reads the person again before any change (needsCurrentCaller).
 */
export function linkPeople(
  people: People,
  publish: (event: Notice, payload: unknown) => Promise<void>,
  log: (line: string) => void,
): { heard(event: Notice, payload: unknown): event is typeof PEOPLE_ENDED; stop(): void } {
  const stop = people.relayEndedTo((ended) => {
    void publish(PEOPLE_ENDED, ended).catch((error: unknown) =>
      log(`sessions ended here were not told to the other servers: ${(error as Error)?.message}`),
    );
  });
  return {
    /** Takes a notice from another server if it is the people's (true), else leaves it (false). */
    heard(event, payload): event is typeof PEOPLE_ENDED {
      if (event !== PEOPLE_ENDED) return false;
      const ended = sessionsEndedOf(payload);
      if (ended) people.heardEnded(ended);
      else log('a notice of ended sessions from another server was not understood; ignored');
      return true;
    },
    stop,
  };
}

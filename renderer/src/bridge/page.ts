/**
 * What the console does to the page it runs in, beyond its own screens: leave for the sign-in page
 * of a team server, ask the server about the session. One object, so a test replaces its methods
 * (jsdom neither navigates nor has a server).
 */
export const page = {
  assign(url: string): void {
    window.location.assign(url);
  },
  fetch(input: string, init?: RequestInit): Promise<Response> {
    return globalThis.fetch(input, init);
  },
};

/** The sign-in page of a team server after a sign-out or an ended session: it says so. */
export const SIGNED_OUT_PAGE = '/signin?signed-out';

import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import { preloadScreen } from './app/screen-code.js';
import { guardNavigatorLanguage } from './ui/locale.js';

// First of all: a browser language Intl refuses (Chromium under a C locale says "en-US@posix") is
// replaced by a usable one before any library reads it (ui/locale.ts).
const replaced = guardNavigatorLanguage();
if (replaced) console.info(`The browser's language "${replaced.was}" is not a valid language tag; the console uses "${replaced.now}".`);

// The page's entry, small so it runs as soon as it arrives: the first screen's code starts loading
// at once, beside the shell's (app/start.tsx: the connection, the settings read, the first render),
// rather than once the shell has been loaded and run (issue 21: the first screen's scripts came last).
// First asked, first fetched (a browser fetches six files at a time from one host): the code that
// sends the settings and the first screen's reads (app/first-reads.ts, the smallest), then the
// screen's code, then the shell's.
const firstReads = import('./app/first-reads.js').then((m) => m.startFirstReads(window.location.hash));
preloadScreen(window.location.hash);
await Promise.all([firstReads, import('./app/start.js')]);
